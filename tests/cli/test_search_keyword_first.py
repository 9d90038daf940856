"""`sensetree search` with no SenseTree running answers from the keyword arm before its model has loaded,
then prints the fused list once the model is ready (issue 30). The model's load is held on an event, so
"before" is an ordering the test controls, never a timing."""

from __future__ import annotations

import argparse
import io
import threading
from pathlib import Path

import app
from cli import search
from cli.context import Context
from engine.embed import HashingEmbedder
from engine.engine import Engine
from tests.cli.helpers import indexed_home

BOUND_S = 60.0


class SlowLoadingModel(HashingEmbedder):
    """The hashing embedder (same name, so it opens the same index) behind a model load that waits for
    the test's `release`, as a real model takes seconds to load."""

    def __init__(self) -> None:
        super().__init__()
        self.loading = threading.Event()
        self.release = threading.Event()

    def load(self) -> None:
        self.loading.set()
        assert self.release.wait(BOUND_S), "the test never let the model load"


def test_with_none_running_keyword_hits_print_before_the_model_loads_then_the_fused_list(
    tmp_path, sensetree_home: Path
):
    docs = indexed_home(tmp_path, sensetree_home)
    model = SlowLoadingModel()
    context = Context(
        build_engine=lambda: Engine(sensetree_home, embedder=model),
        home=lambda: sensetree_home,
        peek_keywords=app.peek_keywords,
    )
    out = io.StringIO()
    args = argparse.Namespace(query="orchard budget", scope=None, limit=10, json=False)
    answered: list[int] = []
    command = threading.Thread(target=lambda: answered.append(search.run(args, context, out)))
    command.start()
    try:
        assert model.loading.wait(BOUND_S)  # the model is loading (held there) ...
        before = out.getvalue()
        assert before.startswith("Keyword matches")  # ... and the keyword hits are already out
        assert f"a.txt  (in {docs}/)" in before
        assert before.rstrip().endswith("Ranked by meaning and keywords:")
    finally:
        model.release.set()
        command.join(BOUND_S)
    assert answered == [0]
    fused = out.getvalue().split("Ranked by meaning and keywords:\n", 1)[1]
    assert fused.startswith(" 1. ") and f"a.txt  (in {docs}/)" in fused.splitlines()[0]
