"""The states a transaction, its phase and each journal step can be in — one name for each stored string.

Each is named once here, where a bare `"done"` would mean a finished phase or a finished step alike.
`StrEnum` members *are* their strings, so SQLite rows, journal files and IPC results
keep exactly the text they always had: the journal format does not change, and old rows read back.
"""

from __future__ import annotations

from enum import StrEnum


class TxnStatus(StrEnum):
    """A transaction's `status` column (what History shows)."""

    DRAFT = "draft"  # proposed, waiting for the person
    DISCARDED = "discarded"
    EXPIRED = "expired"  # a draft not approved within 30 days
    APPLYING = "applying"  # a plan (or a restore from the trash) is running
    UNDOING = "undoing"  # the inverse of a committed plan is running
    COMMITTED = "committed"
    UNDONE = "undone"  # a committed plan whose undo committed
    ROLLED_BACK = "rolled_back"
    ROLLBACK_INCOMPLETE = "rollback_incomplete"  # something could not be put back; Retry in History


ACTIVE = (TxnStatus.APPLYING, TxnStatus.UNDOING)  # what a crash can leave half done


class Phase(StrEnum):
    """Where a running transaction stands: disk → index → semantics → done ("" once rolled back)."""

    NONE = ""
    DISK = "disk"
    INDEX = "index"
    SEMANTICS = "semantics"
    DONE = "done"


class StepState(StrEnum):
    """One journal step, in the order it moves through (rollback walks them back)."""

    INTENT = "intent"  # written before the disk is touched
    COPIED = "copied"  # a cross-device move copied, the source not yet removed
    DONE = "done"
    UNDOING = "undoing"
    UNDONE = "undone"


# A StrEnum member equals and hashes like its value, so this table answers a member and the plain string
# read back from a journal file alike; its keys are the plain strings, as the journal stores them.
STATE_ORDER: dict[str, int] = {state.value: rank for rank, state in enumerate(StepState)}
