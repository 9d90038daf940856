"""How often a chat turn finds and cites the right file, per wire dialect and per text-protocol style.

Two sets, both through the real `Agent` (pre-RAG, prompt, loop, sources) over real files:
- every server × model-family shape of `tests/agent/wire_shapes.py`, replayed over HTTP by the fake
  endpoint to the real OpenAI adapter, streamed and whole (search → read → answer);
- the 20 scripted small-model turns of `tests/agent/text_protocol_set.py`, tools refused, one style of
  writing actions each.
A turn counts when the file is among the used sources, the answer names it and no call marker or
thinking reached the answer. Prints figures; asserts nothing. Usage: `python bench/dialects.py`.
"""

from __future__ import annotations

import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.agent import MIGRATIONS, Agent, OpenAIChatModel
from engine.db import Database
from engine.events import EventBus
from tests.agent.helpers import FolderHost, chat_settings
from tests.agent.test_dialects import ANSWER, clean, folder, script
from tests.agent.test_model_http import settings_for
from tests.agent.text_protocol_set import QUESTIONS, FakeSmallModel, write_files
from tests.agent.wire_shapes import DIALECTS
from tests.fake_openai import FakeOpenAI


def turn(home: Path, root: Path, model: Any, question: str) -> Any:
    db = Database(home / f"agent-{len(list(home.glob('agent-*')))}.db")
    db.migrate(MIGRATIONS)
    agent = Agent(FolderHost([root]), db, chat_settings, EventBus(), lambda _rs: model)
    try:
        return agent.chat_with_assistant([{"role": "user", "content": question}])
    finally:
        agent.close()


def cited(result: Any, path: Path) -> bool:
    used = {s["path"] for s in result.sources if s["used"]}
    return str(path) in used and path.name in result.answer and clean(result.answer)


def wire_dialects(home: Path) -> None:
    home.mkdir(parents=True)
    root, invoice = folder(home)
    print(f"{'wire dialect':52} streamed  whole")
    total = Counter()
    for dialect in DIALECTS:
        row = []
        for stream in (True, False):
            with FakeOpenAI(script(dialect, invoice, stream)) as fake:
                model = OpenAIChatModel(settings_for(fake.base_url), stream=stream)
                result = turn(home, root, model, "What is the ACME invoice total?")
            ok = cited(result, invoice) and result.answer == ANSWER
            total[ok] += 1
            row.append("ok" if ok else "FAIL")
        print(f"{dialect.name:52} {row[0]:9} {row[1]}")
    print(f"wire dialects: {total[True]}/{sum(total.values())} turns cited the file\n")


def text_protocol(home: Path) -> None:
    home.mkdir(parents=True)
    root = home / "Home"
    write_files(root)
    by_style: dict[str, list[bool]] = {}
    for question, target, style in QUESTIONS:
        result = turn(home, root, FakeSmallModel(style, question), question)
        by_style.setdefault(style, []).append(cited(result, root / target))
    print(f"{'text protocol style (tools refused)':40} cited")
    for style, oks in by_style.items():
        print(f"{style:40} {sum(oks)}/{len(oks)}")
    hits = sum(sum(oks) for oks in by_style.values())
    print(f"text protocol: {hits}/{len(QUESTIONS)} turns = {hits / len(QUESTIONS):.0%}")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wire_dialects(Path(tmp) / "wire")
        text_protocol(Path(tmp) / "text")


if __name__ == "__main__":
    main()
