from __future__ import annotations

from engine.agent import ScriptedModel
from engine.agent.prompt import RULES, PromptParts, assemble, estimate_tokens, render_system, scope_tree
from engine.config import PromptSettings
from engine.roots import Roots
from tests.agent.helpers import FolderHost, chat_settings


def test_system_prompt_blocks_come_in_order_with_the_override_appended(tmp_path, make_agent):
    root = tmp_path / "Docs"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "plan.txt").write_text("garden plan for spring")
    settings = chat_settings()
    settings.prompts = PromptSettings(chat_system="Always answer in French.")
    model = ScriptedModel(["ok"])
    agent, _bus, _seen = make_agent(FolderHost([root]), model, settings=settings)
    agent.memory.remember("The person likes short answers")
    agent.chat_with_assistant(
        [
            {"role": "user", "content": "first"},
            {"role": "assistant", "content": "yes"},
            {"role": "user", "content": "garden plan"},
        ],
        scope=str(root),
    )
    request = model.requests[0]
    system = request.system
    marks = [
        RULES[:40],
        "Additional instructions from the person:\nAlways answer in French.",
        "- The person likes short answers",
        f"[1] {root / 'sub' / 'plan.txt'}",
        f"[D] {root / 'sub'}",
    ]
    positions = [system.index(m) for m in marks]
    assert positions == sorted(positions)
    assert system.startswith(RULES)
    assert [m["role"] for m in request.messages] == ["system", "user", "assistant", "user"]


def test_memory_in_the_prompt_is_capped_at_the_fifty_newest_notes(tmp_path, make_agent):
    model = ScriptedModel(["ok"])
    agent, _bus, _seen = make_agent(FolderHost([tmp_path]), model)
    for i in range(55):
        agent.memory.remember(f"fact number {i}")
    agent.chat_with_assistant([{"role": "user", "content": "hi"}])
    system = model.requests[0].system
    assert "- fact number 5\n" in system and "- fact number 54" in system
    assert "- fact number 4\n" not in system
    assert system.count("- fact number ") == 50


def test_scope_tree_goes_two_levels_deep_with_exact_absolute_paths(tmp_path):
    (tmp_path / "a" / "b" / "c").mkdir(parents=True)
    (tmp_path / "a" / "b" / "c" / "deep.txt").write_text("x")
    (tmp_path / "a" / "b" / "mid.txt").write_text("x")
    (tmp_path / "top.txt").write_text("x")
    lines = scope_tree(Roots(lambda: [str(tmp_path)]), str(tmp_path))
    assert f"[D] {tmp_path / 'a'}" in lines and f"[F] {tmp_path / 'top.txt'}" in lines
    assert f"[D] {tmp_path / 'a' / 'b'}" in lines
    assert not any("mid.txt" in line or "deep.txt" in line for line in lines)


def test_scope_tree_stops_at_two_hundred_entries(tmp_path):
    for i in range(150):
        (tmp_path / f"d{i:03}").mkdir()
        (tmp_path / f"d{i:03}" / "f.txt").write_text("x")
    assert len(scope_tree(Roots(lambda: [str(tmp_path)]), str(tmp_path))) == 200


def _parts(excerpts: int = 3) -> PromptParts:
    return PromptParts(
        extra_instructions="Be kind.",
        memory=["note one", "note two"],
        excerpts=[{"path": f"/r/f{i}.txt", "snippet": "word " * 100} for i in range(excerpts)],
        tree=[f"[F] /r/f{i}.txt" for i in range(20)],
        scope="/r",
    )


def _history(turns: int) -> list[dict[str, str]]:
    history = []
    for i in range(turns):
        history += [
            {"role": "user", "content": f"question {i} " + "q" * 400},
            {"role": "assistant", "content": f"answer {i} " + "a" * 400},
        ]
    return history + [{"role": "user", "content": "the last question"}]


def test_budget_trims_the_oldest_history_first(tmp_path):
    parts = _parts()
    full = assemble(_parts(), _history(4), 100_000)
    budget = sum(estimate_tokens(str(m["content"])) + 4 for m in full) - 300
    messages = assemble(parts, _history(4), budget)
    contents = [m["content"] for m in messages[1:]]
    assert not any(c.startswith("question 0 ") for c in contents)
    assert contents[-1] == "the last question" and any(c.startswith("answer 3 ") for c in contents)
    assert len(parts.excerpts) == 3


def test_budget_trims_excerpts_after_history_and_never_the_rules(tmp_path):
    parts = _parts()
    messages = assemble(parts, _history(4), 10)
    assert [m["content"] for m in messages[1:]] == ["the last question"]
    system = messages[0]["content"]
    assert system.startswith(RULES) and "Additional instructions from the person:\nBe kind." in system
    assert parts.excerpts == [] and parts.tree == [] and parts.memory == []


def test_budget_drops_the_lowest_ranked_excerpt_first():
    parts = _parts(3)
    budget = estimate_tokens(render_system(_parts(3))) + 20 - 100
    assemble(parts, [{"role": "user", "content": "q"}], budget)
    assert [e["path"] for e in parts.excerpts] == ["/r/f0.txt", "/r/f1.txt"]


def test_rules_survive_a_long_conversation_intact(tmp_path):
    messages = assemble(PromptParts(), _history(50), 2000)
    assert messages[0]["content"] == RULES and messages[-1]["content"] == "the last question"
