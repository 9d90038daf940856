"""Does the quick look find the text in photos that hold some, and none in photos that hold none?

Through the product path (engine/indexing/photo_ocr.py: `read_photo`, decoding, the small look, the full
read) on generated JPEG photos of several kinds, `--count` of each at 12 megapixels:

  without text: sky      smooth gradients and soft blobs (a landscape, a sky)
                foliage  noise at several scales (grass, leaves, gravel)
                facade   rectangles in rows (windows on a building, tiles: the hard case)
  with text:    document a page of text photographed on a desk, slightly rotated
                sign     a few large words on a board in a busy scene
                screen   a screenshot-like block of small UI text

It prints, per kind, the range of confident words the look found (the calibration of CHECK_WORDS: the
threshold sits between the kinds without text and those with), how often the look said "text" (want
0 % on the first three, 100 % on the rest), the CPU seconds per photo of the look alone and of the
whole `read_photo`, and for the text kinds the share of the words drawn that the full read found (what
makes the photo findable by a word in it).
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


def measure(path: Path, drawn: list[str]) -> dict:
    start = time.process_time() + child_cpu()
    side = photo_ocr.CHECK_SIDE
    words = photo_ocr.look_words(photo_ocr.shrink(photo_ocr.load(str(path), side * side), side))
    look_s = time.process_time() + child_cpu() - start
    start_all = time.process_time() + child_cpu()
    text, _ = photo_ocr.read_photo(str(path))
    found = set(text.lower().split())
    recall = sum(w.lower() in found for w in drawn) / len(drawn) if drawn else 0.0
    return {
        "seen": words >= photo_ocr.CHECK_WORDS,
        "words": words,
        "look_s": look_s,
        "all_s": time.process_time() + child_cpu() - start_all,
        "recall": recall,
    }


def child_cpu() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--count", type=int, default=3, help="photos of each kind")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    if not ocr.available():
        sys.exit(ocr.MISSING)
    rng = random.Random(args.seed)
    print(f"{'kind':<9} {'text?':<6} {'look words':>10} {'said text':>9}", end="")
    print(f" {'look CPU-s':>10} {'all CPU-s':>9} {'words found':>11}")
    with tempfile.TemporaryDirectory() as folder:
        for kind, build in {**PLAIN, **TEXTED}.items():
            rows = []
            for n in range(args.count):
                made = build(rng)
                image, drawn = made if isinstance(made, tuple) else (made, [])
                path = Path(folder) / f"{kind}-{n}.jpg"
                image.save(path, quality=88)
                rows.append(measure(path, drawn))
            said = sum(r["seen"] for r in rows) / len(rows)
            look = statistics.median(r["look_s"] for r in rows)
            whole = statistics.median(r["all_s"] for r in rows)
            recall = statistics.mean(r["recall"] for r in rows) if kind in TEXTED else float("nan")
            has_text = "yes" if kind in TEXTED else "no"
            counts = f"{min(r['words'] for r in rows)}-{max(r['words'] for r in rows)}"
            print(f"{kind:<9} {has_text:<6} {counts:>10} {said:>9.0%} {look:>10.2f} {whole:>9.2f}", end="")
            print(f" {recall:>11.0%}")


if __name__ == "__main__":
    main()
