"""The desktop app's bridge: `Api` (one method per IPC command), the HTTP server and the window.

Only `Api` and `COMMANDS` are re-exported, and only when first asked for (PEP 562): the command
line imports `bridge.instance` to reach a running SenseTree and must not pay for building `Api`'s
argument checks. `bridge.server` and `bridge.window` are imported by `app.py` when it needs them
(the window pulls in Qt, which a headless `serve` never loads).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bridge.api import COMMANDS, Api

__all__ = ["COMMANDS", "Api"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from bridge import api

        return getattr(api, name)
    raise AttributeError(f"module 'bridge' has no attribute {name!r}")
