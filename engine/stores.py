"""Opening the stores at start-up so that a damaged one never stops the app.

A SQLite file that SQLite itself calls damaged (`file is not a database`, `database disk image is
malformed`) or a LanceDB table that cannot be read (`Could not count chunks: lance error …`) is renamed
aside with a time stamp (`sensetree.corrupt-20260101-120000.db`, `vectors/<model>.corrupt-…`) and
a fresh one is opened. What can be rebuilt is rebuilt by the caller: the catalog and the queue by a
re-scan of the roots, the vectors by re-queueing the catalogued files (start-up repair does that when a
file's vector rows are missing). What cannot be rebuilt does not live only in SQLite: the trash keeps a
manifest per item and an in-flight plan keeps its own journal file (engine/txn/journal_file.py).
Each quarantine returns a sentence for the person (the page shows start-up notices as toasts, the CLI
prints them).

Only *corruption* is handled this way: a locked, unreadable or full disk is an error to report, not
a reason to set the person's data aside.
"""

from __future__ import annotations

import logging
import os
import re
import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from engine.config import Settings, save_settings, settings_path
from engine.db import Database, Migration
from engine.errors import ConfigError, StoreError
from engine.paths import is_within, normalize

if TYPE_CHECKING:  # LanceDB loads only where vectors are opened: `sensetree status` reads roots without it
    from engine.retrieval.vectors import VectorIndex

log = logging.getLogger(__name__)

SQLITE_CORRUPT, SQLITE_NOTADB = 11, 26
VECTORS_KEPT_ASIDE = "The search index was damaged"
CORRUPT_WORDS = ("file is not a database", "malformed", "database corrupt")


def stamp() -> str:
    return time.strftime("%Y%m%d-%H%M%S")


def is_corruption(exc: sqlite3.DatabaseError) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None and code & 0xFF in (SQLITE_CORRUPT, SQLITE_NOTADB):
        return True
    return any(word in str(exc).lower() for word in CORRUPT_WORDS)


def open_database(path: Path, migrations: Sequence[Migration]) -> tuple[Database, str | None]:
    """Open, check and migrate the SQLite file; a corrupt one is kept aside and a new one started."""
    db: Database | None = None
    try:
        db = Database(path)
        _check(db)
        db.migrate(migrations)
        return db, None
    except sqlite3.DatabaseError as exc:
        if not is_corruption(exc):
            raise StoreError(f"SenseTree's database {path} could not be opened: {exc}") from exc
        if db is not None:
            db.close()
        aside = path.with_name(f"{path.stem}.corrupt-{stamp()}{path.suffix}")
        for suffix in ("", "-wal", "-shm"):
            part = Path(str(path) + suffix)
            if part.exists():
                os.replace(part, Path(str(aside) + suffix))
        log.error("%s is damaged (%s); kept as %s, starting a new one", path, exc, aside)
        fresh = Database(path)
        fresh.migrate(migrations)
        return fresh, (
            f"SenseTree's database was damaged ({exc}). It was kept as {aside} and a new one was "
            "started: your folders are re-scanned and re-indexed, so search fills in again as that "
            "runs. Past action plans are no longer listed; the SenseTree trash is still listed."
        )


def _check(db: Database) -> None:
    """`quick_check` reads every page, which is where a garbled file shows up (the header check alone
    lets a file with damaged pages through until some query touches them)."""
    rows = db.query("PRAGMA quick_check")
    problems = [r[0] for r in rows if r[0] != "ok"]
    if problems:
        raise sqlite3.DatabaseError(f"database disk image is malformed: {problems[0]}")


def open_vectors(directory: Path, dim: int) -> tuple[VectorIndex, str | None]:
    """Open the chunk table and probe it; damaged index structures are dropped (they are derived and
    rebuilt by `optimize()`), a table whose data cannot be read is kept aside and started anew.

    Whatever the failure — a StoreError, an Arrow or OS error, a Rust panic (pyo3's `PanicException`
    derives from BaseException, not Exception: a garbled manifest raised one on every launch) — the table
    is set aside; only an interrupt or an exit goes on up."""
    from engine.retrieval.lance_calls import set_aside
    from engine.retrieval.vectors import VectorIndex

    vectors: VectorIndex | None = None
    try:
        vectors = VectorIndex(directory, dim)
        vectors.probe()
        return vectors, None
    except BaseException as exc:
        if not is_open_failure(exc):
            raise
        reason = plain_reason(exc)
        if vectors is not None and _without_indices(vectors):
            log.error("vector index structures in %s were damaged (%s); dropped them", directory, reason)
            return vectors, (
                f"Part of the search index was damaged ({reason}); it was dropped and is "
                "rebuilt in the background. Nothing needs re-indexing."
            )
        if vectors is not None:
            vectors.close()
        if not directory.exists():
            raise StoreError(f"The vector index at {directory} could not be created: {reason}") from exc
        aside = set_aside(directory)
        log.error("vector index %s is damaged (%s); kept as %s, starting a new one", directory, reason, aside)
        return VectorIndex(directory, dim), (
            f"{VECTORS_KEPT_ASIDE} ({reason}). It was kept as {aside} and a new one was "
            "started. Search answers from the keyword index meanwhile; every indexed file is embedded "
            "again from its indexed text, so semantic search fills in as that runs."
        )


def kept_aside(notice: str | None) -> bool:
    """Whether `open_vectors`' notice says the table was set aside (the Engine's repair notice then
    says nothing more: every file is embedded again, as this one already says)."""
    return notice is not None and notice.startswith(VECTORS_KEPT_ASIDE)


def is_open_failure(exc: BaseException) -> bool:
    """Any failure to open a store, a Rust panic included; not the person's Ctrl-C, an exit, or a lack
    of memory (setting a store aside would not help, and a rebuild would make it worse)."""
    return not isinstance(exc, (KeyboardInterrupt, SystemExit, GeneratorExit, MemoryError))


_RUST_SOURCE = re.compile(r",?\s*/\S*/\.cargo/registry/\S*")


def plain_reason(exc: BaseException) -> str:
    """The failure's first line, for a person: the engine's own message, or the library's without the
    Rust source locations LanceDB appends (a path on the machine that built it means nothing here)."""
    text = exc.message if isinstance(exc, StoreError) else f"{type(exc).__name__}: {exc}"
    first = (text.strip().splitlines() or [type(exc).__name__])[0]
    return _RUST_SOURCE.sub("", first)[:300]


def _without_indices(vectors: VectorIndex) -> bool:
    """True when the table reads fine once its (derived) index structures are gone."""
    try:
        vectors.chunk_counts()  # the data itself must read, or dropping indices cannot help
        vectors.drop_indices()
        vectors.probe()
    except BaseException as exc:
        if not is_open_failure(exc):
            raise
        return False
    return True


def known_roots(db: Database) -> list[str]:
    """The roots the catalog has files under (outermost only): what to keep when settings lost them."""
    roots = sorted({normalize(r["root"]) for r in db.query("SELECT DISTINCT root FROM files")})
    return [r for r in roots if not any(o != r and is_within(r, o) for o in roots)]


def keep_known_roots(settings: Settings, db: Database, home: Path) -> tuple[Settings, str | None]:
    """Settings that said nothing about the roots (no file, a file kept aside, no `roots` key) never
    shrink the index: the roots the catalog knows stay until the person removes them, and a new settings
    file is written so the next start does not load defaults again. Returns the settings to run with and
    a notice (when the file was kept aside, the sentence joins its `load_warning`: one event, one notice)."""
    if not settings.roots_defaulted:
        return settings, None
    known = known_roots(db)
    kept_aside = settings.load_warning is not None and not os.path.lexists(settings_path(home))
    if not known and not kept_aside:
        return settings, None  # a first start: nothing to keep, nothing to write
    settings = settings.model_copy(update={"roots": known})
    notice = None
    try:
        save_settings(settings, home)
    except ConfigError as exc:
        notice = f"{exc.message}. SenseTree runs with the folders it has indexed until settings can be saved."
    if known:
        kept = (
            f"The settings did not list the indexed folders, so SenseTree kept the {len(known)} it has "
            f"indexed: {', '.join(known)}. Remove a folder in Folders & indexing to stop indexing it."
        )
        if kept_aside:
            settings.load_warning = f"{settings.load_warning} {kept}"
        else:
            notice = f"{notice} {kept}" if notice else kept
    return settings, notice
