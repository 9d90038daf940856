"""Import a module whose pydantic classes SenseTree (nearly) never uses without building their schemas.

Why: LanceDB imports `lance_namespace` unconditionally (lancedb/db.py), an OpenAPI client for remote
LanceDB catalogs whose ~600 pydantic models and ~370 `@validate_call` methods each build a validator as
they are defined: about 0.8 s of CPU, a third of building the engine, before the window's first bridge
answer (bench/engine_start.py). SenseTree opens a local database, which uses at most a few of those
classes (a local `list_tables` answers with one). pydantic's own `defer_build` setting builds a class's
validator at its first use instead (for most of these: never); this sets it as the default while that one
module is imported, and only then, so every other class keeps pydantic's usual eager build. (The engine
does this import on a thread of its own while the catalog and the keyword store open (engine/assembly.py,
`_import_vector_modules_meanwhile`): a class another thread happens to define during those
moments defers too, which changes when its validator is built, never what it validates.) A deferred
class is built under pydantic's rebuild lock (pydantic 2.14), so threads may use it at once. Where
pydantic no longer has the default this reaches (a private mapping, checked by
tests/test_deferred_schemas.py), the module is imported the usual way.
"""

from __future__ import annotations

import importlib
import logging
import sys
import threading
from types import ModuleType

log = logging.getLogger(__name__)

_LOCK = threading.Lock()  # two imports must not restore each other's default


def import_deferring_schemas(name: str) -> ModuleType:
    """`importlib.import_module(name)`, with pydantic's classes defined by that import deferring their
    validators to first use. A module already imported is returned as it is."""
    if name in sys.modules:
        return sys.modules[name]
    try:
        from pydantic._internal._config import config_defaults
    except ImportError:  # pydantic moved its defaults: import as usual (slower, same behaviour)
        log.debug("pydantic's config defaults not found; importing %s eagerly", name)
        return importlib.import_module(name)
    with _LOCK:
        before = config_defaults.get("defer_build", False)
        config_defaults["defer_build"] = True
        try:
            return importlib.import_module(name)
        finally:
            config_defaults["defer_build"] = before
