"""What preparing a photo for its caption costs, through the product path (media_client.resized_jpeg):
seconds, peak memory of a fresh process and the size of the JPEG sent, for camera-sized JPEGs and PNGs
generated here (noise, so they do not compress to nothing), and the 100-megapixel PNG that is refused
before its pixels are decoded. Each picture is prepared in its own process so its peak is its own.

    .venv/bin/python bench/media_prepare.py [--max-side 1024]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CASES = [
    ("jpeg", 4000, 3000),
    ("jpeg", 6000, 4000),
    ("jpeg", 8000, 6000),
    ("png", 5000, 4000),
    ("png", 6000, 5000),
    ("png", 10_000, 10_000),
]

PROBE = """
import re, sys, time
from engine.indexing import media_client
began = time.perf_counter()
try:
    sent = len(media_client.resized_jpeg(sys.argv[1], int(sys.argv[2])))
    outcome = f"{sent / 1000:.0f} kB sent"
except media_client.Refused as exc:
    outcome = exc.message
seconds = time.perf_counter() - began
peak = int(re.search(r"VmHWM:\\s+(\\d+)", open("/proc/self/status").read()).group(1)) // 1024
print(f"{seconds:.2f}\\t{peak}\\t{outcome}")
"""


def write(path: Path, fmt: str, width: int, height: int) -> None:
    from PIL import Image

    if fmt == "png" and width * height > 40_000_000:  # refused from the header: keep it cheap to write
        Image.new("L", (width, height), 200).save(path)  # the header is what matters: it is refused
        return
    noise = Image.effect_noise((width, height), 64).convert("RGB")
    noise.save(path, quality=90) if fmt == "jpeg" else noise.save(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-side", type=int, default=1024)
    args = parser.parse_args()
    print("picture\tseconds\tpeak MB\toutcome")
    with tempfile.TemporaryDirectory() as folder:
        for fmt, width, height in CASES:
            path = Path(folder) / f"photo-{width}x{height}.{'jpg' if fmt == 'jpeg' else 'png'}"
            write(path, fmt, width, height)
            done = subprocess.run(
                [sys.executable, "-c", PROBE, str(path), str(args.max_side)],
                capture_output=True,
                text=True,
                check=True,
                cwd=ROOT,
            )
            print(f"{fmt.upper()} {width}×{height} ({width * height / 1e6:.0f} MP)\t{done.stdout.strip()}")


if __name__ == "__main__":
    main()
