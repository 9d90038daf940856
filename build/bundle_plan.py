"""What the PyInstaller spec bundles on each OS: the webview back-end, its modules, and what is left out.

Why a module of plain data: the choice is the difference between a 1.7 GB and a ~1.1 GB Windows or
macOS download, and it must be testable on any OS (tests/packaging/test_bundle_plan.py) without
running PyInstaller. pywebview's native back-ends ship with the OS there (Edge WebView2 on Windows,
WKWebView on macOS), so Qt (PySide6, Qt WebEngine) is bundled only on Linux, where it serves both the
window and the tray (bridge/tray.py); pystray is bundled only where it is the tray (Windows, macOS).
`bridge/window.py:webview_gui` makes the same choice at run time; the test holds the two together.
"""

from __future__ import annotations

from dataclasses import dataclass

QT_MODULES = [
    "webview.platforms.qt",
    "qtpy",
    "PySide6.QtWebEngineWidgets",
    "PySide6.QtWebEngineCore",
    "PySide6.QtWebChannel",
    "PySide6.QtNetwork",
    "PySide6.QtPrintSupport",
    "bridge.tray_qt",
]
QT_PACKAGES = ["PySide6", "shiboken6", "qtpy", "webview.platforms.qt", "bridge.tray_qt"]
PYSTRAY_COMMON = ["pystray", "pystray._base", "pystray._info", "pystray._util", "bridge.tray_pystray"]
# pywebview's back-ends that no OS of ours uses (GTK is WebKitGTK; CEF, MSHTML and Android are not ours).
UNUSED_WEBVIEWS = [
    "webview.platforms.gtk",
    "webview.platforms.cef",
    "webview.platforms.mshtml",
    "webview.platforms.android",
]


@dataclass(frozen=True)
class BundlePlan:
    platform: str
    webview: str  # the pywebview back-end the app starts with ("qt", "edgechromium", "cocoa") or "none"
    hiddenimports: list[str]
    excludes: list[str]

    @property
    def bundles_qt(self) -> bool:
        return "PySide6" not in self.excludes


def plan(platform: str, *, without_window: bool = False) -> BundlePlan:
    """The plan for `sys.platform` values. `without_window` (Linux only) builds the serve-mode bundle
    without PySide6 that bench/package.py uses to estimate the Windows/macOS size on Linux."""
    if platform == "win32":
        return BundlePlan(
            platform,
            "edgechromium",
            [
                "webview.platforms.winforms",
                "webview.platforms.edgechromium",
                "clr",
                "clr_loader",
                *PYSTRAY_COMMON,
                "pystray._win32",
                "pystray._util.win32",
            ],
            [
                *QT_PACKAGES,
                "webview.platforms.cocoa",
                *UNUSED_WEBVIEWS,
                "pystray._xorg",
                "pystray._gtk",
                "pystray._appindicator",
                "pystray._darwin",
            ],
        )
    if platform == "darwin":
        return BundlePlan(
            platform,
            "cocoa",
            [
                "webview.platforms.cocoa",
                "objc",
                "AppKit",
                "Foundation",
                "WebKit",
                "Quartz",
                *PYSTRAY_COMMON,
                "pystray._darwin",
            ],
            [
                *QT_PACKAGES,
                "webview.platforms.winforms",
                "webview.platforms.edgechromium",
                "clr",
                *UNUSED_WEBVIEWS,
                "pystray._xorg",
                "pystray._gtk",
                "pystray._appindicator",
                "pystray._win32",
            ],
        )
    not_here = [
        "webview.platforms.winforms",
        "webview.platforms.edgechromium",
        "webview.platforms.cocoa",
        "clr",
        *UNUSED_WEBVIEWS,
        "pystray",
        "bridge.tray_pystray",
    ]
    if without_window:
        return BundlePlan(platform, "none", [], [*QT_PACKAGES, *not_here])
    return BundlePlan(platform, "qt", list(QT_MODULES), not_here)


# Qt WebEngine's UI strings: Chromium starts and renders with en-US.pak alone whatever the person's
# locale (measured on the frozen app: LANG=de_DE.UTF-8 and C.UTF-8 both load the page and answer the
# bridge); the other 52 packs (43 MB) translate Chromium's own menus, which the app never shows. The
# DevTools front end (12 MB) serves only a debug build's inspector; remote debugging does not need it.
WEBENGINE_LOCALES = "PySide6/Qt/translations/qtwebengine_locales/"
KEPT_LOCALE = "en-US.pak"
DROPPED_WEBENGINE_FILES = ("PySide6/Qt/resources/qtwebengine_devtools_resources.pak",)


def keep_webengine_file(dest: str) -> bool:
    """False for the Qt WebEngine files the bundle leaves out (`dest` is the path inside the bundle)."""
    dest = dest.replace("\\", "/")
    if dest.startswith(WEBENGINE_LOCALES):
        return dest == WEBENGINE_LOCALES + KEPT_LOCALE
    return dest not in DROPPED_WEBENGINE_FILES
