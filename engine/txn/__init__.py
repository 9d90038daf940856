"""Actions: Dry-Run plans validated on a virtual tree, stored as drafts, applied transactionally
(disk → index → semantics) with a journal, rolled back on failure or after a crash, undoable.

The engine builds one `TxnService`, applies `MIGRATIONS` and calls `recover()` at start.
"""

from engine.txn.executor import FaultPoint
from engine.txn.model import ActionPlan, Operation
from engine.txn.service import TxnService
from engine.txn.store import MIGRATIONS
from engine.txn.sync import PRIORITY_MANUAL, IndexSync

__all__ = [
    "MIGRATIONS",
    "PRIORITY_MANUAL",
    "ActionPlan",
    "FaultPoint",
    "IndexSync",
    "Operation",
    "TxnService",
]
