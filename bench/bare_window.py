"""The yardstick for bench/package.py: a bare PySide6 Qt WebEngine window showing the same web/index.html,
with nothing of SenseTree in it (no engine, no bridge, no pywebview). Run under the same Xvfb, with the same
remote-debugging port, so "window visible" is read the same way for both."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtWebEngineWidgets import QWebEngineView
from PySide6.QtWidgets import QApplication


def main() -> int:
    app = QApplication(sys.argv)
    view = QWebEngineView()
    view.resize(1024, 720)
    view.load(QUrl.fromLocalFile(str(Path(sys.argv[1]).resolve())))
    view.show()
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
