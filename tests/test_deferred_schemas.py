"""A module imported through `import_deferring_schemas` defines pydantic classes that build their
validators at first use, and validate exactly as usual then; every other class keeps the eager build.
The engine imports LanceDB's namespace client this way as it opens its stores (engine/engine.py),
which must still work."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from pydantic import BaseModel, ValidationError

from engine.deferred_schemas import import_deferring_schemas
from tests.cli.helpers import run_python

MODULE = """
from pydantic import BaseModel, validate_call

class Reply(BaseModel):
    count: int

@validate_call
def double(value: int) -> int:
    return 2 * value
"""


def test_classes_of_the_module_defer_their_validators_and_validate_as_usual_at_first_use(
    tmp_path, monkeypatch
):
    (tmp_path / "deferred_probe_module.py").write_text(MODULE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "deferred_probe_module", raising=False)

    module = import_deferring_schemas("deferred_probe_module")

    assert module.Reply.__pydantic_complete__ is False  # nothing built at import
    assert module.Reply(count="3").count == 3  # built now, validating as pydantic does
    with pytest.raises(ValidationError):
        module.Reply(count="three")
    assert module.double("4") == 8
    with pytest.raises(ValidationError):
        module.double("four")


def test_classes_defined_after_it_build_at_once_as_pydantic_does_by_default(tmp_path, monkeypatch):
    (tmp_path / "deferred_probe_other.py").write_text(MODULE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "deferred_probe_other", raising=False)
    import_deferring_schemas("deferred_probe_other")

    class Later(BaseModel):
        name: str

    assert Later.__pydantic_complete__ is True


def test_lancedb_works_with_its_namespace_client_deferred_and_leaves_it_unbuilt(tmp_path: Path) -> None:
    """In a fresh interpreter, as the engine imports it: a local table is created, written and searched,
    and the namespace client's request models were never built."""
    probe = (
        "import json, sys\n"
        "from engine.deferred_schemas import import_deferring_schemas\n"
        "import_deferring_schemas('lance_namespace')\n"
        "import lancedb\n"
        "from lance_namespace_urllib3_client.models import CreateTableRequest\n"
        "db = lancedb.connect(sys.argv[1])\n"
        "rows = [{'vector': [0.0, 1.0], 'text': 'a'}, {'vector': [1.0, 0.0], 'text': 'b'}]\n"
        "table = db.create_table('t', data=rows)\n"
        "hits = table.search([0.9, 0.1]).limit(1).to_list()\n"
        "print(json.dumps({'first': hits[0]['text'], 'tables': list(db.table_names()),\n"
        "                  'request_built': CreateTableRequest.__pydantic_complete__}))\n"
    )
    done = run_python("-c", probe, str(tmp_path / "db"), timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.splitlines()[-1])
    assert report == {"first": "b", "tables": ["t"], "request_built": False}


def test_the_engine_opens_its_stores_with_the_namespace_client_deferred(tmp_path: Path) -> None:
    """Importing the Engine loads no LanceDB at all; opening its stores imports LanceDB with the client's
    schemas deferred (engine/engine.py `_open_stores`), and the engine's own models stay eager."""
    probe = (
        "import sys\n"
        "import app\n"
        "Engine = app.engine_class()\n"
        "print('lancedb' in sys.modules)\n"
        "engine = Engine(sys.argv[1])\n"
        "from lance_namespace_urllib3_client.models import CreateTableRequest\n"
        "from engine.config import Settings\n"
        "print(CreateTableRequest.__pydantic_complete__, Settings.__pydantic_complete__)\n"
        "engine.running.close()\n"
    )
    done = run_python("-c", probe, str(tmp_path / "home"), timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split()[-3:] == ["False", "False", "True"]  # no LanceDB, client deferred, ours eager
