"""OCR accuracy and speed on generated scans, through the product path (engine/indexing/ocr.py).

Builds `--pages` image-only PDF pages (A4, rendered at 300 dpi): invoice- and letter-like lines in
mixed fonts (serif, sans, mono), sizes (9–14 pt) and slight rotations (±1.5°), saved as PDFs with no
text layer. Each page is rendered by pypdfium2 and read by Tesseract exactly as indexing does, and the
bench prints the character accuracy (1 − edit distance / reference length, whitespace folded) and the
seconds per page, overall and per font, size and rotation — targets ≥ 95 % at 300 dpi and ≤ 2 s per
page on one core. `--compare` also reads the same images with tesserocr when it is installed (the
in-process binding we did not pick, docs/indexing.md). `--throughput` indexes a folder of text files
with and without scans in it and prints when the text files were keyword-searchable and when the scans'
text was, so OCR's cost to the rest of the folder shows.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image, ImageDraw, ImageFont  # noqa: E402

from engine.indexing import ocr  # noqa: E402

FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/truetype/liberation")
FONTS = {
    "serif": ("DejaVuSerif.ttf", "LiberationSerif-Regular.ttf"),
    "sans": ("DejaVuSans.ttf", "LiberationSans-Regular.ttf"),
    "mono": ("DejaVuSansMono.ttf", "LiberationMono-Regular.ttf"),
}
SIZES_PT = (9, 10, 12, 14)
WORDS = (
    "invoice total amount due payment account number reference customer address delivery order date "
    "tax net gross quantity unit price lease tenant landlord deposit rent notice period signature "
    "harbour orchard meeting budget travel garden letter insurance policy claim refund balance"
).split()


def font_file(kind: str) -> str | None:
    for name in FONTS[kind]:
        for folder in FONT_DIRS:
            if os.path.exists(os.path.join(folder, name)):
                return os.path.join(folder, name)
    return None


def page_lines(rng: random.Random, count: int) -> list[str]:
    lines = []
    for _ in range(count):
        words = [rng.choice(WORDS) for _ in range(rng.randint(5, 9))]
        words[0] = words[0].capitalize()
        lines.append(" ".join(words) + f" {rng.randint(10, 9999)}.{rng.randint(0, 99):02d}")
    return lines


def make_page(rng: random.Random, kind: str, size_pt: int, angle: float, dpi: int) -> tuple[Image.Image, str]:
    """An A4 page at `dpi` with as many lines as fit (at most 24), and its reference text."""
    px = round(size_pt * dpi / 72)
    path = font_file(kind)
    font = ImageFont.truetype(path, px) if path else ImageFont.load_default(size=px)
    width, height = round(8.27 * dpi), round(11.69 * dpi)
    lines = page_lines(rng, min(24, int((height - 2 * dpi) / (px * 1.6))))
    page = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(page)
    for row, line in enumerate(lines):
        draw.text((dpi, dpi + round(row * px * 1.6)), line, font=font, fill=0)
    return page.rotate(angle, fillcolor=255, resample=Image.Resampling.BICUBIC), "\n".join(lines)


def edit_distance(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def accuracy(reference: str, read: str) -> float:
    ref, got = " ".join(reference.split()), " ".join(read.split())
    return max(0.0, 1 - edit_distance(ref, got) / max(1, len(ref)))


def build(folder: Path, count: int, dpi: int, seed: int) -> list[tuple[Path, str, dict[str, object]]]:
    rng = random.Random(seed)
    pages = []
    for n in range(count):
        kind = ("serif", "sans", "mono")[n % 3]
        size = SIZES_PT[(n // 3) % len(SIZES_PT)]
        angle = round(rng.uniform(-1.5, 1.5), 2)
        image, text = make_page(rng, kind, size, angle, dpi)
        path = folder / f"scan_{n:03d}.pdf"
        image.save(path, "PDF", resolution=dpi)
        pages.append(
            (path, text, {"font": kind, "size": size, "tilt": "≤0.75°" if abs(angle) <= 0.75 else ">0.75°"})
        )
    return pages


def report(rows: list[tuple[dict[str, object], float, float, float]], label: str) -> None:
    accs, secs, cpus = [r[1] for r in rows], [r[2] for r in rows], [r[3] for r in rows]
    print(
        f"{label}: {len(rows)} pages, character accuracy mean {statistics.mean(accs):.2%} "
        f"(min {min(accs):.2%}); CPU seconds per page mean {statistics.mean(cpus):.2f} "
        f"max {max(cpus):.2f}; wall seconds per page mean {statistics.mean(secs):.2f} "
        f"max {max(secs):.2f} (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)"
    )
    for key in ("font", "size", "tilt"):
        groups: dict[object, list[float]] = {}
        for meta, acc, *_ in rows:
            groups.setdefault(meta[key], []).append(acc)
        parts = ", ".join(f"{k}: {statistics.mean(v):.2%}" for k, v in sorted(groups.items(), key=str))
        print(f"  by {key}: {parts}")


def cpu_seconds() -> float:
    """CPU time of this process and its finished children (Tesseract): what a page costs one core,
    whatever else the machine is doing (wall time on a shared machine measures the neighbours)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def run_product(pages) -> list[tuple[dict[str, object], float, float, float]]:
    rows = []
    for path, text, meta in pages:
        began, cpu = time.perf_counter(), cpu_seconds()
        read = ocr.read_pdf_page(str(path), 0)
        rows.append((meta, accuracy(text, read), time.perf_counter() - began, cpu_seconds() - cpu))
        _, acc, wall, used = rows[-1]
        print(f"  {path.name} {meta}: accuracy {acc:.2%}, CPU {used:.2f} s, wall {wall:.2f} s", flush=True)
    return rows


def run_tesserocr(pages) -> list[tuple[dict[str, object], float, float, float]] | None:
    try:
        import tesserocr
    except ImportError:
        return None
    data = next(
        (
            d
            for d in ("/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata")
            if os.path.isdir(d)
        ),
        None,
    )
    rows = []
    with tesserocr.PyTessBaseAPI(path=data, lang="eng") as api:
        for path, text, meta in pages:
            began, cpu = time.perf_counter(), cpu_seconds()
            api.SetImage(ocr.render_page(str(path), 0))
            read = api.GetUTF8Text()
            rows.append((meta, accuracy(text, read), time.perf_counter() - began, cpu_seconds() - cpu))
    return rows


def throughput(folder: Path, scans: int, texts: int) -> None:
    """Time until the text files are keyword-searchable, with and without `scans` scans beside them."""
    from engine.embed import HashingEmbedder
    from engine.engine import Engine

    for with_scans in (False, True):
        root = folder / ("with" if with_scans else "without")
        root.mkdir(parents=True)
        rng = random.Random(7)
        for n in range(texts):
            (root / f"note_{n:03d}.txt").write_text(" ".join(page_lines(rng, 6)) + f" marker{n}")
        if with_scans:
            for path, _, _ in build(root, scans, 300, seed=3):
                path.rename(root / f"zz_{path.name}")  # crawled after the text files' names
        home = folder / f"home-{with_scans}"
        engine = Engine(home, embedder=HashingEmbedder())
        phase = engine.parts.index.worker.ocr
        first_page: list[float] = []
        run_page = phase.run_page

        def timed(should_stop=lambda: False, seen=first_page, run=run_page):
            seen.append(seen[0] if seen else time.perf_counter())  # OCR runs once all else is indexed
            return run(should_stop)

        phase.run_page = timed  # type: ignore[method-assign]
        try:
            began = time.perf_counter()
            engine.add_indexed_folder(str(root))
            engine.parts.index.drain()
            total = time.perf_counter() - began
            done = engine.indexing_stats()
        finally:
            engine.running.close()
        others = (first_page[0] - began) if first_page else total
        label = f"with {scans} scans" if with_scans else "without scans"
        print(
            f"throughput {label}: every other file indexed (keywords and vectors) after {others:.1f} s; "
            f"all done, OCR included, after {total:.1f} s ({done.done} done, {done.skipped} name only)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=50)
    parser.add_argument("--dpi", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--compare", action="store_true", help="also read the pages with tesserocr")
    parser.add_argument("--parts", type=int, default=1, help="split the pages into this many runs…")
    parser.add_argument("--part", type=int, default=0, help="…and read only this one (from 0)")
    parser.add_argument(
        "--throughput",
        type=int,
        default=0,
        metavar="SCANS",
        help="also index 100 text files with and without this many scans",
    )
    args = parser.parse_args()
    if not ocr.available():
        sys.exit(ocr.MISSING)
    with tempfile.TemporaryDirectory(prefix="sensetree-ocr-bench-") as tmp:
        folder = Path(tmp)
        pages = build(folder, args.pages, args.dpi, args.seed)[args.part :: args.parts]
        print(f"tesseract: {ocr.tesseract()}, pages rendered at {ocr.DPI} dpi, one thread")
        report(run_product(pages), "product path (pypdfium2 + tesseract program)")
        if args.compare:
            rows = run_tesserocr(pages)
            if rows is None:
                print("tesserocr: not installed")
            else:
                report(rows, "tesserocr in-process (same rendered images)")
        if args.throughput:
            throughput(folder / "throughput", args.throughput, 100)


if __name__ == "__main__":
    main()
