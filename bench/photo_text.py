"""Does the quick look find the text in photos that hold some, and none in photos that hold none?

Through the product path (engine/indexing/photo_ocr.py: `read_photo`, decoding, the small look, the full
read) on two kinds of data:

- generated JPEG photos, `--count` of each kind at 12 megapixels:
  without text: sky      smooth gradients and soft blobs (a landscape, a sky)
                foliage  noise at several scales (grass, leaves, gravel)
                facade   rectangles in rows (windows on a building, tiles: the hard case)
  with text:    document a page of text photographed on a desk, slightly rotated
                sign     a few large words on a board in a busy scene
                screen   a screenshot-like block of small UI text
- real pictures kept in the repo, tests/data/photos/ (README.md there names each one's source and
  licence): no-text (photographs: people, a cat, a rocket launch, textures, stars), text (a photographed
  book page, a scanned page), handwriting (formulas on paper) and screenshots (rendered by Chromium).

It prints, per kind, the range of confident words the look found, how often the look said "text" (want
0 % without text, 100 % with), the CPU seconds per photo of the look alone and of the whole `read_photo`
(Tesseract's CPU included), and for generated text the share of the words drawn that the full read
found. Each real picture gets its own row too, with the words a full read finds when it is forced (so
a miss is judged against what OCR could have read). Last, the calibration of CHECK_WORDS: for each
threshold, the photos without text it would send to a full read and the readable photos with text it
would miss, per kind of data, and the range of thresholds that make neither mistake. A photo without
text sent to a full read costs its full-size read (a 12-megapixel leaf texture once took over 60 s); a
photo with text missed loses its words from search.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image, ImageDraw, ImageFilter, ImageFont  # noqa: E402

from bench.ocr import WORDS, font_file  # noqa: E402
from engine.indexing import ocr, photo_ocr  # noqa: E402

SIZE = (4000, 3000)


def noise(rng: random.Random, scale: int) -> Image.Image:
    small = Image.effect_noise((max(2, SIZE[0] // scale), max(2, SIZE[1] // scale)), 60 + rng.random() * 40)
    return small.resize(SIZE, Image.Resampling.BICUBIC)


def sky(rng: random.Random) -> Image.Image:
    image = Image.linear_gradient("L").resize(SIZE).convert("RGB")
    draw = ImageDraw.Draw(image)
    for _ in range(12):
        x, y, r = rng.randrange(SIZE[0]), rng.randrange(SIZE[1]), rng.randint(100, 700)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=tuple(rng.randrange(256) for _ in range(3)))
    return image.filter(ImageFilter.GaussianBlur(40))


def foliage(rng: random.Random) -> Image.Image:
    layers = [noise(rng, scale) for scale in (4, 16, 64)]
    green = Image.merge("RGB", (layers[0], layers[1], layers[2]))
    return Image.blend(green, noise(rng, 2).convert("RGB"), 0.3)


def facade(rng: random.Random) -> Image.Image:
    image = Image.new("RGB", SIZE, tuple(rng.randrange(120, 220) for _ in range(3)))
    draw = ImageDraw.Draw(image)
    w, h = rng.randint(80, 240), rng.randint(120, 300)
    for top in range(100, SIZE[1] - h, h + rng.randint(40, 120)):
        for left in range(100, SIZE[0] - w, w + rng.randint(40, 120)):
            draw.rectangle((left, top, left + w, top + h), fill=tuple(rng.randrange(80) for _ in range(3)))
            draw.line((left + w // 2, top, left + w // 2, top + h), fill=(200, 200, 200), width=6)
    return image.filter(ImageFilter.GaussianBlur(2))


def words(rng: random.Random, count: int) -> list[str]:
    return [rng.choice(WORDS) for _ in range(count)]


def font(rng: random.Random, px: int) -> ImageFont.FreeTypeFont:
    path = font_file(rng.choice(("serif", "sans", "mono")))
    return ImageFont.truetype(path, px) if path else ImageFont.load_default(size=px)


def document(rng: random.Random) -> tuple[Image.Image, list[str]]:
    desk = foliage(rng).filter(ImageFilter.GaussianBlur(6))
    paper = Image.new("RGB", (2000, 2600), (245, 242, 235))
    draw = ImageDraw.Draw(paper)
    drawn: list[str] = []
    face = font(rng, 44)
    for row in range(18):
        line = words(rng, 6)
        drawn += line
        draw.text((150, 180 + row * 120), " ".join(line), font=face, fill=(30, 30, 30))
    angle = rng.uniform(-4, 4)
    turned = paper.rotate(angle, expand=True, resample=Image.Resampling.BICUBIC)
    shape = Image.new("L", paper.size, 255).rotate(angle, expand=True)
    desk.paste(turned, (900, 150), shape)
    return desk, drawn


def sign(rng: random.Random) -> tuple[Image.Image, list[str]]:
    scene = foliage(rng)
    draw = ImageDraw.Draw(scene)
    draw.rectangle((800, 900, 3200, 1900), fill=(20, 70, 150))
    drawn = words(rng, 4)
    face = font(rng, 220)
    draw.text((900, 1000), " ".join(drawn[:2]).upper(), font=face, fill=(255, 255, 255))
    draw.text((900, 1400), " ".join(drawn[2:]).upper(), font=face, fill=(255, 255, 255))
    return scene, [w.upper() for w in drawn]


def screen(rng: random.Random) -> tuple[Image.Image, list[str]]:
    image = Image.new("RGB", SIZE, (250, 250, 252))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, SIZE[0], 160), fill=(40, 44, 52))
    face = font(rng, 40)
    drawn: list[str] = []
    for row in range(30):
        line = words(rng, 5)
        drawn += line
        draw.text((300, 260 + row * 85), " ".join(line), font=face, fill=(50, 50, 50))
    return image, drawn


PLAIN = {"sky": sky, "foliage": foliage, "facade": facade}
TEXTED = {"document": document, "sign": sign, "screen": screen}
REAL = Path(__file__).resolve().parents[1] / "tests" / "data" / "photos"
REAL_KINDS = {"no-text": False, "text": True, "handwriting": True, "screenshots": True}  # folder: holds text?
THRESHOLDS = range(1, 9)


def measure(path: Path, drawn: list[str] | None, forced: bool = False) -> dict:
    """One photo through the product path: the look's words and CPU, then the whole `read_photo`'s."""
    start = cpu_seconds()
    side = photo_ocr.CHECK_SIDE
    words = photo_ocr.look_words(photo_ocr.shrink(photo_ocr.load(str(path), side * side), side))
    look_s = cpu_seconds() - start
    start_all = cpu_seconds()
    text, _ = photo_ocr.read_photo(str(path))
    row = {"words": words, "seen": words >= photo_ocr.CHECK_WORDS, "look_s": look_s}
    row["all_s"] = cpu_seconds() - start_all
    found = set(text.lower().split())
    row["recall"] = sum(w.lower() in found for w in drawn) / len(drawn) if drawn else float("nan")
    row["readable"] = len(photo_ocr.full_read(str(path)).split()) if forced else None
    return row


def cpu_seconds() -> float:
    """This process's CPU and its finished children's (Tesseract runs as a child)."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + usage.ru_utime + usage.ru_stime


def generated(rng: random.Random, count: int, folder: str) -> dict[str, tuple[bool, list[dict]]]:
    kinds: dict[str, tuple[bool, list[dict]]] = {}
    for kind, build in {**PLAIN, **TEXTED}.items():
        rows = []
        for n in range(count):
            made = build(rng)
            image, drawn = made if isinstance(made, tuple) else (made, [])
            path = Path(folder) / f"{kind}-{n}.jpg"
            image.save(path, quality=88)
            rows.append(measure(path, drawn))
        kinds[f"generated {kind}"] = (kind in TEXTED, rows)
    return kinds


def real() -> dict[str, tuple[bool, list[dict]]]:
    kinds: dict[str, tuple[bool, list[dict]]] = {}
    for folder, has_text in REAL_KINDS.items():
        rows = []
        for path in sorted((REAL / folder).iterdir()):
            rows.append({"name": path.name, **measure(path, None, forced=True)})
        kinds[f"real {folder}"] = (has_text, rows)
    return kinds


def print_kinds(kinds: dict[str, tuple[bool, list[dict]]]) -> None:
    print(f"{'kind':<22} {'text?':<5} {'n':>2} {'look words':>10} {'said text':>9}", end="")
    print(f" {'look CPU-s':>10} {'all CPU-s':>9} {'words found':>11}")
    for kind, (has_text, rows) in kinds.items():
        said = sum(r["seen"] for r in rows) / len(rows)
        look = statistics.median(r["look_s"] for r in rows)
        whole = statistics.median(r["all_s"] for r in rows)
        drawn = [r["recall"] for r in rows if r["recall"] == r["recall"]]  # NaN: no words were drawn
        recall = f"{statistics.mean(drawn):.0%}" if drawn else "-"
        counts = f"{min(r['words'] for r in rows)}-{max(r['words'] for r in rows)}"
        print(f"{kind:<22} {'yes' if has_text else 'no':<5} {len(rows):>2} {counts:>10} {said:>9.0%}", end="")
        print(f" {look:>10.2f} {whole:>9.2f} {recall:>11}")


def print_real(kinds: dict[str, tuple[bool, list[dict]]]) -> None:
    print(f"\n{'real picture':<34} {'text?':<5} {'look words':>10} {'decision':>9}", end="")
    print(f" {'forced read':>11} {'CPU-s':>6}")  # CPU of read_photo: the look, and the read when it says text
    for kind, (has_text, rows) in kinds.items():
        for r in rows:
            decision = "OCR" if r["seen"] else "no OCR"
            print(
                f"{kind.split()[1] + '/' + r['name']:<34} {'yes' if has_text else 'no':<5} {r['words']:>10}",
                end="",
            )
            print(f" {decision:>9} {r['readable']:>11} {r['all_s']:>6.2f}")


def calibrate(kinds: dict[str, tuple[bool, list[dict]]]) -> None:
    """Per threshold and kind of data: photos without text sent to a full read, readable ones missed;
    then the thresholds that make neither mistake on either kind of data."""
    print(f"\n{'CHECK_WORDS':>11} {'no-text read, generated':>24} {'real':>5}", end="")
    print(f" {'text missed, generated':>23} {'real':>5}")
    for threshold in THRESHOLDS:
        cells = [f"{wrong}/{total}" for wrong, total in mistakes(kinds, threshold)]
        print(f"{threshold:>11} {cells[0]:>24} {cells[1]:>5} {cells[2]:>23} {cells[3]:>5}")
    plain = [r["words"] for _, (t, rows) in kinds.items() if not t for r in rows]
    texted = [r["words"] for _, (t, rows) in kinds.items() if t for r in rows if readable(r)]
    low, high = max(plain) + 1, min(texted)
    inside = "inside" if low <= photo_ocr.CHECK_WORDS <= high else "OUTSIDE"
    print(f"Thresholds {low}-{high} separate them (most words on a photo without text: {max(plain)};")
    print(f"fewest on a readable photo with text: {high}); CHECK_WORDS {photo_ocr.CHECK_WORDS} is {inside}.")


def mistakes(kinds: dict[str, tuple[bool, list[dict]]], threshold: int) -> list[tuple[int, int]]:
    """(wrong, total) for: no-text generated, no-text real, readable text generated, readable text real."""
    counts = []
    for wants_text in (False, True):
        for source in ("generated", "real"):
            rows = [r for k, (t, rs) in kinds.items() if t == wants_text and k.startswith(source) for r in rs]
            rows = [r for r in rows if readable(r)] if wants_text else rows
            counts.append((sum((r["words"] >= threshold) != wants_text for r in rows), len(rows)))
    return counts


def readable(row: dict) -> bool:
    """A photo with text that OCR can read (handwriting is not): generated text always is."""
    return row["readable"] is None or row["readable"] >= 1


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--count", type=int, default=3, help="generated photos of each kind")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    if not ocr.available():
        sys.exit(ocr.MISSING)
    with tempfile.TemporaryDirectory() as folder:
        kinds = generated(random.Random(args.seed), args.count, folder)
    found = real()
    print_kinds({**kinds, **found})
    print_real(found)
    calibrate({**kinds, **found})


if __name__ == "__main__":
    main()
