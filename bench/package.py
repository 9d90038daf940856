"""Size and start-up time of the Linux artifact (the .deb of `make package`, and the portable one-file).

What it prints and how each figure is taken:
- installed size: `du` of /opt/sensetree after `dpkg-deb -x` into a temporary prefix (target ≤ 1.4 GB),
  the .deb's own size (target ≤ 450 MB), the one-file's size, and the biggest parts of the bundle;
- the Windows/macOS estimate: the same spec built on Linux without Qt (`make package-estimate`, serve
  mode, onedir), whose size stands for a bundle whose webview comes with the OS (target ≤ 1.1 GB);
- with --appimage, the size an AppImage would have: the bundle as an xz squashfs (mksquashfs), which
  is what appimagetool packs, plus its ~1 MB runtime; offered only if no larger than the .deb;
- cold start: a fresh unpack whose files are then evicted from the page cache (fsync, then
  posix_fadvise DONTNEED on every file, so nothing else on the machine is disturbed), with a fresh
  data dir: the first start a person sees after installing;
- warm start: the same prefix and data dir started again (files cached, databases exist);
- for each, two moments from the launch: "window visible" (Qt WebEngine lists the page and it
  reports document.visibilityState == 'visible') and "bridge answering" (the page's own
  pywebview.api.app_version() resolved), read through Qt WebEngine's remote-debugging port
  (targets, warm: ≤ 2 s and ≤ 3 s);
- a bare PySide6 Qt WebEngine window on the same page (bench/bare_window.py, from the build venv),
  timed the same way in the same run: the ratios say what SenseTree adds over Qt's own start;
- `sensetree serve` (no display): the URL line printed, then POST /api/app_version answered;
- the portable one-file: the same serve figure (it unpacks itself into a temp folder on every start).
One Xvfb server is started first, so its own start-up is not counted.

    python bench/package.py [--deb PATH] [--runs 3]
    python bench/package.py --bundle build/dist/sensetree   # a onedir bundle, no .deb (start-up only)
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.packaging.frozen_app import (
    DIST,
    DevToolsPage,
    PageReloaded,
    bridge_call,
    clean_env,
    find_deb,
    free_port,
    page_socket_url,
    request_quit,
    stop,
    unpack_deb,
    wait_for,
)

BOUND_S = 300
REPO = Path(__file__).resolve().parents[1]
ESTIMATE = REPO / "build" / "work" / "serve-only" / "dist" / "sensetree"
TARGETS = {"deb_mb": 450, "installed_mb": 1400, "estimate_mb": 1100, "visible_s": 2.0, "answering_s": 3.0}


def du_mb(path: Path) -> float:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink()) / 1e6


def evict(prefix: Path) -> None:
    """Drop this prefix's files (only these) from the page cache, as after a reboot."""
    for file in prefix.rglob("*"):
        if file.is_file() and not file.is_symlink():
            fd = os.open(file, os.O_RDONLY)
            try:
                os.fsync(fd)
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            finally:
                os.close(fd)


def start_xvfb() -> tuple[subprocess.Popen[bytes], str]:
    read_end, write_end = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1280x900x24", "-nolisten", "tcp"],
        pass_fds=(write_end,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        number = pipe.readline().strip()
    return xvfb, f":{number}"


def bare_window_start(work: Path, display: str) -> float:
    """Seconds from launch to a bare PySide6 window showing the same page (no SenseTree at all)."""
    port = free_port()
    env = {**clean_env(work / "bare-data", work / "person", port), "DISPLAY": display}
    started = time.perf_counter()
    app = subprocess.Popen(
        [sys.executable, str(REPO / "bench" / "bare_window.py"), str(REPO / "web" / "index.html")],
        env=env,
        cwd=work,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        page = DevToolsPage(wait_for(lambda: page_socket_url(port), BOUND_S, "the bare window"))
        wait_for(lambda: _visible(page), BOUND_S, "a visible bare page")
        visible = time.perf_counter() - started
        page.close()
    finally:
        stop(app)
    return visible


def window_start(executable: Path, work: Path, data_home: Path, display: str) -> dict[str, float]:
    """Seconds from launch to the window visible and to the bridge answering from the page."""
    port = free_port()
    env = {**clean_env(data_home, work / "person", port), "DISPLAY": display}
    logs = work / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    with open(logs / "app.out", "ab") as out, open(logs / "app.err", "ab") as err:
        app = subprocess.Popen(
            [str(executable)],
            env=env,
            cwd=work,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            start_new_session=True,
        )
    try:
        page = DevToolsPage(wait_for(lambda: page_socket_url(port), BOUND_S, "the window"))
        wait_for(lambda: _visible(page), BOUND_S, "a visible page")
        visible = time.perf_counter() - started
        answer = bridge_call(page, "app_version")
        answering = time.perf_counter() - started
        assert answer["ok"], answer
        page.close()
        request_quit(data_home)
        app.wait(120)
    finally:
        stop(app)
    return {"window visible": visible, "bridge answering": answering}


def _visible(page: DevToolsPage) -> bool | None:
    try:
        return True if page.evaluate("document.visibilityState") == "visible" else None
    except PageReloaded:
        return None


def serve_start(executable: Path, work: Path, data_home: Path) -> float:
    """Seconds from `sensetree serve` to POST /api/app_version answered with the printed token."""
    env = clean_env(data_home, work / "person")
    started = time.perf_counter()
    server = subprocess.Popen(
        [str(executable), "serve"],
        env=env,
        cwd=work,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        url = line.split("SenseTree UI: ", 1)[1].strip()
        base, token = url.split("/?token=")
        request = urllib.request.Request(
            f"{base}/api/app_version",
            data=b"{}",
            method="POST",
            headers={"X-SenseTree-Token": token, "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=BOUND_S) as reply:
            assert json.loads(reply.read())["ok"]
        elapsed = time.perf_counter() - started
        os.killpg(server.pid, signal.SIGINT)
        server.wait(60)
        return elapsed
    finally:
        stop(server)


def biggest_parts(bundle: Path, count: int = 8) -> list[tuple[str, float]]:
    internal = bundle / "_internal"
    parts = [
        (p.name, du_mb(p) if p.is_dir() else p.stat().st_size / 1e6)
        for p in internal.iterdir()
        if not p.is_symlink()
    ]
    return sorted(parts, key=lambda item: -item[1])[:count]


def report_sizes(deb: Path, bundle: Path) -> None:
    print(
        f"installed size (/opt/sensetree): {du_mb(bundle):.0f} MB  (target <= {TARGETS['installed_mb']} MB)"
    )
    print(
        f".deb download ({_deb_compression(deb)}): {deb.stat().st_size / 1e6:.0f} MB  "
        f"(target <= {TARGETS['deb_mb']} MB)"
    )
    portable = DIST / "sensetree-portable"
    if portable.exists():
        print(f"portable one-file: {portable.stat().st_size / 1e6:.0f} MB")
    print("biggest parts: " + ", ".join(f"{name} {mb:.0f} MB" for name, mb in biggest_parts(bundle)))
    if ESTIMATE.exists():
        print(
            f"Windows/macOS estimate: {du_mb(ESTIMATE):.0f} MB installed "
            f"(target <= {TARGETS['estimate_mb']} MB), "
            "made by `make package-estimate`: the same spec on Linux with SENSETREE_WITHOUT_WINDOW=1 "
            "(no PySide6/Qt WebEngine, serve mode; their webviews come with the OS; pywebview's native "
            "back-ends and pystray add a few MB there)"
        )
        print("  biggest parts: " + ", ".join(f"{n} {mb:.0f} MB" for n, mb in biggest_parts(ESTIMATE, 6)))
    else:
        print("Windows/macOS estimate: not built (run `make package-estimate`)")


def _deb_compression(deb: Path) -> str:
    out = subprocess.run(["ar", "t", str(deb)], capture_output=True, text=True, check=False).stdout
    return next((name.removeprefix("data.tar.") for name in out.split() if name.startswith("data.tar")), "?")


def report_appimage(bundle: Path, deb: Path, work: Path) -> None:
    """The AppImage's size without building one: an xz squashfs of the bundle is what appimagetool packs."""
    image = work / "bundle.squashfs"
    subprocess.run(
        [
            "mksquashfs",
            str(bundle),
            str(image),
            "-comp",
            "xz",
            "-b",
            "1M",
            "-noappend",
            "-quiet",
            "-no-progress",
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    size = image.stat().st_size / 1e6 + 1  # + the AppImage runtime (~1 MB)
    verdict = (
        "no larger than the .deb: worth offering"
        if size <= deb.stat().st_size / 1e6
        else "larger than the .deb: not offered"
    )
    print(f"AppImage estimate (xz squashfs, 1 MiB blocks, + runtime): {size:.0f} MB; {verdict}")
    image.unlink()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deb", type=Path, default=None)
    parser.add_argument("--runs", type=int, default=3, help="warm starts to take (the median is printed)")
    parser.add_argument("--appimage", action="store_true", help="also estimate an AppImage's size (minutes)")
    parser.add_argument("--sizes-only", action="store_true", help="print the sizes and stop")
    parser.add_argument(
        "--bundle",
        type=Path,
        default=None,
        help="time this onedir bundle (e.g. build/dist/sensetree) instead of a .deb: its installed size "
        "and the start-up figures, without the minutes of xz a .deb costs",
    )
    args = parser.parse_args()
    deb = None if args.bundle else (args.deb or find_deb())
    print("load average at start: " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))
    xvfb, display = start_xvfb()
    try:
        with tempfile.TemporaryDirectory(prefix="sensetree-bench-") as tmp:
            work = Path(tmp)
            if deb is None:
                executable = args.bundle.resolve() / "sensetree"
                print(f"bundle {args.bundle} (no .deb): installed size {du_mb(executable.parent):.0f} MB")
            else:
                executable = unpack_deb(deb, work / "prefix")
                report_sizes(deb, executable.parent)
                if args.appimage:
                    report_appimage(executable.parent, deb, work)
            if args.sizes_only:
                return 0
            evict(executable.parent)
            cold = window_start(executable, work, work / "data", display)
            print("cold start (fresh unpack, evicted from page cache, new data dir): " + _fmt(cold))
            warm, bare = [], []
            for _ in range(args.runs):  # interleaved, so both see the same load on this shared machine
                warm.append(window_start(executable, work, work / "data", display))
                bare.append(bare_window_start(work, display))
            median, bare_s = _median(warm), sorted(bare)[len(bare) // 2]
            print(
                f"warm start (median of {args.runs}): "
                + _fmt(median)
                + f"  (targets <= {TARGETS['visible_s']:.0f} s / <= {TARGETS['answering_s']:.0f} s)"
            )
            print(
                f"bare PySide6 Qt WebEngine window, same page, same run (median of {args.runs}): visible "
                f"{bare_s:.2f} s; SenseTree/bare: window visible {median['window visible'] / bare_s:.2f}x, "
                f"bridge answering {median['bridge answering'] / bare_s:.2f}x"
            )
            serve = sorted(serve_start(executable, work, work / "data") for _ in range(args.runs))
            print(
                f"serve, bridge answering over HTTP (median of {args.runs}): {serve[len(serve) // 2]:.2f} s"
            )
            _portable(work)
    finally:
        xvfb.terminate()
        xvfb.wait(30)
        print("load average at end: " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))
    return 0


def _portable(work: Path) -> None:
    portable = DIST / "sensetree-portable"
    if not portable.exists():
        print("portable one-file: not built (SENSETREE_ONEFILE=0)")
        return
    times = [serve_start(portable, work, work / "data-portable") for _ in range(2)]
    print(
        "portable one-file, serve answering (unpacks itself each start): "
        + ", ".join(f"{t:.2f} s" for t in times)
    )


def _median(runs: list[dict[str, float]]) -> dict[str, float]:
    return {key: sorted(run[key] for run in runs)[len(runs) // 2] for key in runs[0]}


def _fmt(figures: dict[str, float]) -> str:
    return ", ".join(f"{name} {seconds:.2f} s" for name, seconds in figures.items())


if __name__ == "__main__":
    sys.exit(main())
