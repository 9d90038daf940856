"""A photo is found by what its EXIF says (the month it was taken, the camera, the place) and by its
name, from a JPEG written in the test with Pillow."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.indexing.photo_meta import photo_about
from tests.indexing.helpers import SAMPLE, indexed_engine, write_docs

Image = pytest.importorskip("PIL.Image", reason="Pillow reads EXIF")


def write_photo(path: Path, when: str = "2024:05:17 14:03:22", camera: str = "Canon EOS 80D") -> Path:
    exif = Image.Exif()
    exif[0x010F] = camera.split()[0]
    exif[0x0110] = camera
    exif.get_ifd(0x8769)[0x9003] = when
    gps = exif.get_ifd(0x8825)
    gps.update({1: "N", 2: (48.0, 51.0, 30.24), 3: "E", 4: (2.0, 17.0, 40.2)})
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (64, 48), "teal").save(path, exif=exif)
    return path


def test_exif_becomes_the_month_in_words_the_camera_and_the_position(tmp_path):
    text = photo_about(str(write_photo(tmp_path / "IMG_2304.jpg")))
    assert "Taken: 17 May 2024 (May 2024), 14:03" in text
    assert "Camera: Canon EOS 80D" in text
    assert "48.8584° N, 2.2945° E" in text and "Picture: 64 × 48 pixels" in text


def test_a_photo_without_exif_has_only_its_size(tmp_path):
    path = tmp_path / "plain.png"
    Image.new("RGB", (10, 10)).save(path)
    assert photo_about(str(path)) == "Picture: 10 × 10 pixels (0.0 megapixels)"


def test_a_photo_is_found_by_its_month_its_camera_and_its_name(tmp_path, sensetree_home):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    photo = write_photo(root / "Pictures" / "IMG_2304.jpg")
    other = write_photo(root / "Pictures" / "DSC_0007.jpg", when="2023:06:02 09:00:00", camera="Nikon D750")
    with indexed_engine(root, sensetree_home) as engine:
        june = [h.path for h in engine.semantic_search("photos from June 2023", limit=4)]
        # "may" is a keyword stop word, so this query is "2024" to the keyword arm: the invoice named
        # acme-2024 competes, the other photo does not
        may = [h.path for h in engine.semantic_search("photos from May 2024", limit=4)]
        by_camera = [h.path for h in engine.semantic_search("the picture from the Canon camera", limit=4)]
        by_name = engine.semantic_search("IMG_2304", limit=3)
        read = engine.parts.agent._host.extracted_text(str(photo))
    assert june[0] == str(other)
    assert str(photo) in may[:2] and may.index(str(photo)) < may.index(str(other))
    assert by_camera[0] == str(photo)
    assert by_name[0].path == str(photo)
    assert "Camera: Canon EOS 80D" in read


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the peak RSS from /proc")
def test_a_100_megapixel_png_is_described_without_decoding_its_pixels(tmp_path):
    path = tmp_path / "panorama.png"
    Image.new("L", (10_000, 10_000), 255).save(path)  # 100 megapixels, 120 kB on disk, 100 MB decoded
    # VmHWM is the child's own peak: ru_maxrss would count the pytest process it was forked from
    probe = (
        "import re, sys; from engine.indexing.photo_meta import photo_about; "
        "print(photo_about(sys.argv[1]).splitlines()[0]); "
        "print(re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read()).group(1))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, str(path)], capture_output=True, text=True, timeout=120, check=True
    )
    first, peak_kb = done.stdout.splitlines()
    assert first == "Picture: 10000 × 10000 pixels (100.0 megapixels)"
    assert int(peak_kb) < 60_000  # Python and Pillow take ~15 MB; the decoded pixels would add 100 MB
