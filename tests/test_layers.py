"""The house's floors hold: no import runs up the layer order docs/architecture.md draws, and none circles.

Why a test: the order is what lets each part be built and tested on its own (retrieval without
indexing, the foundation without any store); an import that runs back up, or a circle broken only by
a lazy import, is how that quietly stops being true.
"""

from __future__ import annotations

from tests.import_graph import circles, import_graph, layer_order, upward_imports


def test_no_project_module_imports_from_a_floor_above_its_own():
    assert upward_imports(import_graph(), layer_order()) == []


def test_no_project_modules_import_each_other_in_a_circle():
    assert circles(import_graph()) == []


def test_the_layer_check_catches_an_import_that_runs_up_or_sideways():
    floors = [["bridge"], ["engine.indexing", "engine.txn"], ["engine.retrieval"], ["engine"]]
    graph = {
        "engine.retrieval.hybrid": {"engine.indexing.embed", "engine.errors"},
        "engine.txn.service": {"engine.indexing.catalog"},
        "bridge.api": {"engine.retrieval.hybrid"},
        "engine.errors": set(),
    }
    assert upward_imports(graph, floors) == [
        "engine.retrieval.hybrid -> engine.indexing.embed (engine.retrieval may not import engine.indexing)",
        "engine.txn.service -> engine.indexing.catalog (engine.txn may not import engine.indexing)",
    ]


def test_the_circle_check_finds_a_circle_however_it_is_reached():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert circles(graph) == [["a", "b", "c"]]
