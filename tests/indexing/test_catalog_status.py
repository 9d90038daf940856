"""A file's catalog status is one StrEnum, and "searchable" (done or skipped) is defined in one place."""

from __future__ import annotations

import re
from pathlib import Path

from engine.db import Database
from engine.indexing.catalog import MIGRATIONS, SEARCHABLE, SEARCHABLE_SQL, Catalog, FileStatus

ENGINE = Path(__file__).resolve().parents[2] / "engine"
# the pair written as a Python tuple or an SQL list, in either order and either quote
PAIR = re.compile(r"""(["'])(done|skipped)\1\s*,\s*(["'])(done|skipped)\3""")


def test_the_searchable_pair_is_written_only_where_it_is_defined():
    written = [
        f"{path.relative_to(ENGINE.parent)}:{n}"
        for path in sorted(ENGINE.rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if PAIR.search(line) and path.name != "catalog.py"
    ]
    assert written == []
    assert SEARCHABLE == (FileStatus.DONE, FileStatus.SKIPPED) and SEARCHABLE_SQL == "('done', 'skipped')"


def test_a_stored_status_reads_back_as_the_enum_member_whose_value_is_the_old_string(tmp_path):
    db = Database(tmp_path / "c.db")
    db.migrate(MIGRATIONS)
    catalog = Catalog(db)
    catalog.record_failure("/r/a.pdf", "/r", "damaged", final=True)
    record = catalog.get("/r/a.pdf")
    assert record is not None and record.status is FileStatus.FAILED and record.status == "failed"
    assert db.scalar("SELECT status FROM files") == "failed"
    assert catalog.counts()["failed"] == 1 and set(catalog.counts()) >= {
        "queued",
        "done",
        "failed",
        "skipped",
    }
