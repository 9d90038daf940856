"""`dict[str, Any]` stays at the JSON edges, and each edge module says once what JSON crosses there.

Why a test: an untyped mapping spreads. Once one function returns `dict[str, Any]`, every caller reads
keys mypy cannot check, and a result with a known shape (a rollback report, a fingerprint) loses it. The
rule keeps the untyped shape where JSON really enters or leaves (tests/json_edges.py says how it reads).
"""

from __future__ import annotations

from textwrap import dedent

from tests.import_graph import PACKAGES, project_modules
from tests.json_edges import json_edge_problems, json_object_uses


def _project_sources() -> dict[str, tuple[str, bool]]:
    return {
        name: (path.read_text(encoding="utf-8"), path.name == "__init__.py")
        for name, path in project_modules().items()
        if name.split(".")[0] in PACKAGES
    }


def _sources(**modules: str) -> dict[str, tuple[str, bool]]:
    return {name.replace("__", "."): (dedent(text), False) for name, text in modules.items()}


def test_every_module_writing_dict_str_any_says_once_that_it_is_a_json_edge():
    assert json_edge_problems(_project_sources()) == []


def test_the_check_catches_a_module_that_writes_the_type_without_saying_why():
    sources = _sources(a='"""Plain."""\nfrom typing import Any\n\ndef f(x: dict[str, Any]) -> None: ...\n')
    assert json_edge_problems(sources) == [
        "a writes dict[str, Any] (lines 4) and says 'JSON edge:' 0 times, not once"
    ]


def test_the_check_catches_a_module_that_says_it_twice():
    text = '"""Two.\n\nJSON edge: the IPC socket.\nJSON edge: the HTTP body.\n"""\nx: "Mapping[str, Any]"\n'
    assert json_edge_problems(_sources(a=text)) == [
        "a writes dict[str, Any] (lines 6) and says 'JSON edge:' 2 times, not once"
    ]


def test_a_module_saying_it_once_passes_and_one_saying_it_needlessly_does_not():
    once = '"""Edge.\n\nJSON edge: a file.\n"""\nimport typing\nx: typing.Dict[str, typing.Any] = {}\n'
    needless = '"""JSON edge: nothing crosses here.\n\nIt only mentions dict[str, Any]."""\n'
    assert json_edge_problems(_sources(once=once, needless=needless)) == [
        "needless says 'JSON edge:' but writes no dict[str, Any]"
    ]


def test_an_alias_counts_where_it_is_defined_and_wherever_it_is_imported():
    sources = _sources(
        pkg__types="from typing import Any\nJsonObject = dict[str, Any]\nRows = list[JsonObject]\n",
        pkg__user="from .types import Rows\n\ndef f() -> Rows: ...\n",
        pkg__other="import pkg.types as t\n\ndef g(x: t.JsonObject) -> None: ...\n",
        pkg__clean="from .types import something_else\n",
    )
    assert json_object_uses(sources) == {"pkg.types": [2, 3], "pkg.user": [3], "pkg.other": [3]}
