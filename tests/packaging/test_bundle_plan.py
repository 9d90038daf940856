"""The spec's per-OS lists (build/bundle_plan.py): each OS bundles its own webview and tray, and only
Linux carries Qt. Proven here for Windows and macOS without their runners; `make package-test` proves the
Linux bundle itself."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bridge.tray import uses_qt_tray
from bridge.window import webview_gui

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "build"))
from bundle_plan import keep_webengine_file, plan  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


def test_linux_bundles_qt_for_the_window_and_the_tray_and_leaves_pystray_out():
    linux = plan("linux")

    assert linux.webview == "qt" and linux.bundles_qt
    assert {"webview.platforms.qt", "PySide6.QtWebEngineWidgets", "bridge.tray_qt"} <= set(
        linux.hiddenimports
    )
    assert "pystray" in linux.excludes and "bridge.tray_pystray" in linux.excludes
    assert "webview.platforms.edgechromium" in linux.excludes and "webview.platforms.cocoa" in linux.excludes


def test_windows_uses_edge_webview2_and_pystray_and_bundles_no_qt():
    windows = plan("win32")

    assert windows.webview == "edgechromium" and not windows.bundles_qt
    assert {"webview.platforms.winforms", "webview.platforms.edgechromium", "clr", "pystray._win32"} <= set(
        windows.hiddenimports
    )
    assert {"PySide6", "shiboken6", "qtpy", "webview.platforms.qt", "bridge.tray_qt"} <= set(windows.excludes)
    assert not any(name.startswith(("PySide6", "webview.platforms.qt")) for name in windows.hiddenimports)


def test_macos_uses_wkwebview_through_cocoa_and_pystray_and_bundles_no_qt():
    mac = plan("darwin")

    assert mac.webview == "cocoa" and not mac.bundles_qt
    assert {"webview.platforms.cocoa", "WebKit", "pystray._darwin"} <= set(mac.hiddenimports)
    assert {"PySide6", "qtpy", "webview.platforms.qt"} <= set(mac.excludes)
    assert "webview.platforms.edgechromium" in mac.excludes


def test_no_plan_lists_a_module_both_to_bundle_and_to_leave_out():
    for platform in ("linux", "win32", "darwin"):
        chosen = plan(platform)
        assert not set(chosen.hiddenimports) & set(chosen.excludes), platform


@pytest.mark.parametrize("platform", ["linux", "win32", "darwin"])
def test_the_app_starts_the_back_end_and_tray_its_bundle_carries(platform):
    chosen = plan(platform)

    assert (webview_gui(platform) == "qt") == chosen.bundles_qt == uses_qt_tray(platform)
    # None is pywebview's default for the OS: EdgeChromium on Windows, Cocoa on macOS
    assert webview_gui(platform) in ("qt", None)


def test_the_serve_mode_estimate_leaves_out_qt_and_every_webview():
    bare = plan("linux", without_window=True)

    assert bare.webview == "none" and not bare.bundles_qt and bare.hiddenimports == []


def test_the_spec_takes_its_lists_from_the_plan():
    spec = (REPO / "build" / "sensetree.spec").read_text()

    assert "PLAN = plan(sys.platform" in spec
    assert "+ PLAN.hiddenimports" in spec and "+ PLAN.excludes" in spec
    assert '"PySide6.QtWebEngineWidgets"' not in spec  # no Qt module listed for every OS any more


def test_qt_webengine_keeps_only_the_en_us_locale_pack_and_what_chromium_needs_to_render():
    locales = "PySide6/Qt/translations/qtwebengine_locales/"

    assert keep_webengine_file(locales + "en-US.pak")
    assert not keep_webengine_file(locales + "de.pak") and not keep_webengine_file(locales + "en-GB.pak")
    assert not keep_webengine_file("PySide6/Qt/resources/qtwebengine_devtools_resources.pak")
    for needed in (
        "PySide6/Qt/resources/qtwebengine_resources.pak",
        "PySide6/Qt/resources/icudtl.dat",
        "PySide6/Qt/resources/v8_context_snapshot.bin",
        "PySide6/Qt/translations/qtbase_de.qm",
    ):
        assert keep_webengine_file(needed), needed
