"""One error tree for the engine, translated to the UI's envelope at exactly one boundary (the bridge).

    EngineError (code "engine")
    ├── NotFound            "not_found"        a file, folder, transaction or item that is not there
    ├── InvalidInput        "invalid_input"    arguments that cannot be acted on as given
    ├── OutOfBounds         "out_of_bounds"    a path outside every indexed folder
    ├── Conflict            "conflict"         the world changed under us (target exists, fingerprint moved)
    ├── NoSpace             "no_space"         the data folder cannot hold what a plan would copy into it
    ├── PlanInvalid         "plan_invalid"     an action plan that fails validation (carries .problems)
    ├── ConfigError         "config"           a settings file that cannot be read or written
    ├── StoreError          "store"            LanceDB / DuckDB / SQLite refused an operation
    │   └── StoreDamaged    "store"            the store's file is damaged (set aside and rebuilt)
    ├── ExtractionError     "extraction"       a file whose text could not be extracted (carries .reason)
    └── ModelError          "model"            the reasoning or embedding model failed
        └── EndpointError   "endpoint"         an OpenAI-compatible endpoint refused or was unreachable

Every message names the thing that failed and, where there is one, what the person can do about it.
"""

from __future__ import annotations


class EngineError(Exception):
    """Base of every error the engine raises on purpose; `code` is stable and shown to the UI."""

    code = "engine"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class NotFound(EngineError):
    code = "not_found"


class InvalidInput(EngineError):
    code = "invalid_input"


class OutOfBounds(EngineError):
    code = "out_of_bounds"


class Conflict(EngineError):
    code = "conflict"


class PlanInvalid(EngineError):
    """A plan failed validation; `problems` lists one actionable message per problem."""

    code = "plan_invalid"

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__("The plan cannot be applied as written:\n- " + "\n- ".join(self.problems))


class ConfigError(EngineError):
    code = "config"


class StoreError(EngineError):
    code = "store"


class StoreDamaged(StoreError):
    """The store's file is damaged or inconsistent; the store sets it aside and rebuilds it."""


class ExtractionError(EngineError):
    """Text could not be extracted; `reason` is the short human-readable cause stored in the catalog."""

    code = "extraction"

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(reason)


class ModelError(EngineError):
    code = "model"


class EndpointError(ModelError):
    code = "endpoint"


class NoSpace(EngineError):
    code = "no_space"


DISK_FULL = NoSpace(
    "The disk that holds SenseTree's data folder is full, so this could not be saved and nothing was "
    "changed. Free some space there and try again."
)


def is_disk_full(exc: BaseException) -> bool:
    """An OS error ENOSPC, or SQLite's or DuckDB's "disk is full": the bridge answers `no_space` for it
    (issue 31, N11: an apply on a full data folder answered `internal`)."""
    if isinstance(exc, OSError) and exc.errno == 28:  # ENOSPC
        return True
    text = str(exc).lower()
    return "disk is full" in text or "no space left on device" in text
