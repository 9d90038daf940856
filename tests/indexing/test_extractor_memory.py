"""Every extractor has a peak-memory bound (issue 31, item 4): a large or hostile file of each format costs
at most its bound over a tiny file of the same format, both measured as the growth of peak RSS of a
process forked for that one `extract()` from one warm process (tests/indexing/extractor_memory.py). The
readers of csv, json, xml, yaml and code are the plain-text reader measured here as txt; ODS and ODP
share the ODT reader. Zip bombs and lying zip headers have their own bound in test_hostile_files.py."""

from __future__ import annotations

import pytest

from tests.indexing.extractor_memory import measured
from tests.indexing.large_inputs import BUILDERS

# MB of peak RSS over the tiny file's, for the sizes tests/indexing/large_inputs.py builds: about twice what
# was measured (docs/hostile-files.md has the figures, and how the zip formats scale with their markup)
BOUNDS_MB = {
    "txt": 32,  # 16 MB file; the reader stops at max_chars x 4 bytes
    "md": 32,  # the same
    "html": 32,  # 0.5 MB of tag-dense markup; streamed, never a tree (it was ~130 MB per MB read)
    "rtf": 32,  # 1 MB
    "pdf": 32,  # one page, a 100 KB content stream
    "docx": 48,  # 4 MB of document XML, parsed whole by python-docx
    "xlsx": 32,  # 25,000 cells, streamed
    "pptx": 32,  # 40 slides of 2,000 words
    "odt": 96,  # 4 MB of content XML, parsed whole by odfpy
    "epub": 32,  # 10 chapters of 10,000 words
}


@pytest.fixture(scope="module")
def growth(tmp_path_factory) -> dict[str, tuple[dict, dict]]:
    """Each format's (large, tiny) measurements, all taken in one child process."""
    folder = tmp_path_factory.mktemp("large-inputs")
    pairs = {
        extension: (large(folder / f"large.{extension}"), tiny(folder / f"tiny.{extension}"))
        for extension, (large, tiny) in BUILDERS.items()
    }
    reports = measured([path for pair in pairs.values() for path in pair])
    return {extension: (reports[str(big)], reports[str(small)]) for extension, (big, small) in pairs.items()}


@pytest.mark.parametrize("extension", list(BUILDERS))
def test_a_large_file_of_each_format_stays_within_its_memory_bound(growth, extension):
    large, tiny = growth[extension]
    assert large["reason"] is None and tiny["reason"] is None, (large, tiny)
    assert large["chars"] > 10 * max(tiny["chars"], 1)  # the large file was really read
    assert large["grew_mb"] - tiny["grew_mb"] < BOUNDS_MB[extension], (large, tiny)
