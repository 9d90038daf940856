"""Size and start-up time of the Linux artifact (the .deb of `make package`, and the portable one-file).

What it prints and how each figure is taken:
- installed size: `du` of /opt/sensetree after `dpkg-deb -x` into a temporary prefix (target ≤ 700 MB),
  the .deb's own size, the one-file's size, and the biggest parts of the bundle;
- cold start: a fresh unpack whose files are then evicted from the page cache (fsync, then
  posix_fadvise DONTNEED on every file, so nothing else on the machine is disturbed), with a fresh
  data dir: the first start a person sees after installing;
- warm start: the same prefix and data dir started again (files cached, databases exist);
- for each, two moments from the launch: "window visible" (Qt WebEngine lists the page and it
  reports document.visibilityState == 'visible') and "bridge answering" (the page's own
  pywebview.api.app_version() resolved), read through Qt WebEngine's remote-debugging port;
- `sensetree serve` (no display): the URL line printed, then POST /api/app_version answered;
- the portable one-file: the same serve figure (it unpacks itself into a temp folder on every start).
One Xvfb server is started first, so its own start-up is not counted.

    python bench/package.py [--deb PATH] [--runs 3]
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
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1280x900x24", "-nolisten", "tcp"],
                            pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        number = pipe.readline().strip()
    return xvfb, f":{number}"


def window_start(executable: Path, work: Path, data_home: Path, display: str) -> dict[str, float]:
    """Seconds from launch to the window visible and to the bridge answering from the page."""
    port = free_port()
    env = {**clean_env(data_home, work / "person", port), "DISPLAY": display}
    logs = work / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    with open(logs / "app.out", "ab") as out, open(logs / "app.err", "ab") as err:
        app = subprocess.Popen([str(executable)], env=env, cwd=work, stdin=subprocess.DEVNULL, stdout=out,
                               stderr=err, start_new_session=True)
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
    server = subprocess.Popen([str(executable), "serve"], env=env, cwd=work, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        url = line.split("SenseTree UI: ", 1)[1].strip()
        base, token = url.split("/?token=")
        request = urllib.request.Request(f"{base}/api/app_version", data=b"{}", method="POST",
                                         headers={"X-SenseTree-Token": token, "Content-Type": "application/json"})
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
    parts = [(p.name, du_mb(p) if p.is_dir() else p.stat().st_size / 1e6)
             for p in internal.iterdir() if not p.is_symlink()]
    return sorted(parts, key=lambda item: -item[1])[:count]


def report_sizes(deb: Path, bundle: Path) -> None:
    print(f"installed size (/opt/sensetree): {du_mb(bundle):.0f} MB  (target <= 700 MB)")
    print(f".deb download: {deb.stat().st_size / 1e6:.0f} MB")
    portable = DIST / "sensetree-portable"
    if portable.exists():
        print(f"portable one-file: {portable.stat().st_size / 1e6:.0f} MB")
    print("biggest parts: " + ", ".join(f"{name} {mb:.0f} MB" for name, mb in biggest_parts(bundle)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deb", type=Path, default=None)
    parser.add_argument("--runs", type=int, default=3, help="warm starts to take (the median is printed)")
    args = parser.parse_args()
    deb = args.deb or find_deb()
    xvfb, display = start_xvfb()
    try:
        with tempfile.TemporaryDirectory(prefix="sensetree-bench-") as tmp:
            work = Path(tmp)
            executable = unpack_deb(deb, work / "prefix")
            report_sizes(deb, executable.parent)
            evict(work / "prefix")
            cold = window_start(executable, work, work / "data", display)
            print("cold start (fresh unpack, evicted from page cache, new data dir): " + _fmt(cold))
            warm = [window_start(executable, work, work / "data", display) for _ in range(args.runs)]
            print(f"warm start (median of {args.runs}): " + _fmt(_median(warm)) + "  (target <= 3 s)")
            serve = sorted(serve_start(executable, work, work / "data") for _ in range(args.runs))
            print(f"serve, bridge answering over HTTP (median of {args.runs}): {serve[len(serve) // 2]:.2f} s")
            _portable(work)
    finally:
        xvfb.terminate()
        xvfb.wait(30)
    return 0


def _portable(work: Path) -> None:
    portable = DIST / "sensetree-portable"
    if not portable.exists():
        print("portable one-file: not built (SENSETREE_ONEFILE=0)")
        return
    times = [serve_start(portable, work, work / "data-portable") for _ in range(2)]
    print("portable one-file, serve answering (unpacks itself each start): "
          + ", ".join(f"{t:.2f} s" for t in times))


def _median(runs: list[dict[str, float]]) -> dict[str, float]:
    return {key: sorted(run[key] for run in runs)[len(runs) // 2] for key in runs[0]}


def _fmt(figures: dict[str, float]) -> str:
    return ", ".join(f"{name} {seconds:.2f} s" for name, seconds in figures.items())


if __name__ == "__main__":
    sys.exit(main())
