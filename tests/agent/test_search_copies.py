"""The agent's search tool names the identical copies a hit stands for (issue 28): search gives one row
per content, so the model learns of every copy (to cite it, or to propose tidying it) from that row."""

from __future__ import annotations

from engine.agent.builtin import TurnTools
from engine.agent.memory import MIGRATIONS, Memory
from engine.db import Database
from engine.retrieval.results import SearchResult
from engine.roots import Roots


class _Host:
    roots = Roots(list)

    def search(self, query: str, scope: str | None, limit: int) -> list[SearchResult]:
        recipe = "Bibimbap: rice, gochujang, a fried egg."
        return [
            SearchResult(
                "/h/Recipes/bibimbap.md", "bibimbap.md", 0.7, recipe, 0, copies=["/h/Downloads/bibimbap.md"]
            ),
            SearchResult("/h/Recipes/kimchi-stew.md", "kimchi-stew.md", 0.5, "Kimchi stew.", 0),
        ]


def test_a_search_hit_tells_the_model_where_its_identical_copies_are(tmp_path):
    db = Database(tmp_path / "m.db")
    db.migrate(MIGRATIONS)
    tools = TurnTools(_Host(), roots=_Host.roots, memory=Memory(db))  # type: ignore[arg-type]
    lines = tools.search_files("gochujang").splitlines()
    assert lines[0] == "1. /h/Recipes/bibimbap.md (score 0.700)"
    assert lines[1] == "   identical copies: /h/Downloads/bibimbap.md"
    assert lines[3] == "2. /h/Recipes/kimchi-stew.md (score 0.500)"  # no copies, no such line
    assert list(tools.sources) == ["/h/Recipes/bibimbap.md", "/h/Recipes/kimchi-stew.md"]
    db.close()
