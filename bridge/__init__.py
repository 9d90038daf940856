"""The desktop app's bridge: `Api` (one method per IPC command), the HTTP server and the window.

Only `Api` and `COMMANDS` are re-exported; `bridge.server` and `bridge.window` are imported by
`app.py` when it needs them (the window pulls in Qt, which a headless `serve` never loads).
"""

from bridge.api import COMMANDS, Api

__all__ = ["COMMANDS", "Api"]
