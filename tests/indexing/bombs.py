"""Hostile files built on the spot (nothing is downloaded): a DOCX zip bomb whose `word/document.xml`
inflates to hundreds of MB from a few hundred KB, valid enough that python-docx would parse it all."""

from __future__ import annotations

import zipfile
from pathlib import Path

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/word/document.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>'
)
RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
    'officeDocument" Target="word/document.xml"/></Relationships>'
)


def docx_bomb(path: Path, inflated_mb: int = 200) -> Path:
    """A DOCX whose document XML inflates to about `inflated_mb` MB (streamed, never held in memory)."""
    paragraph = b"<w:p><w:r><w:t>Quarterly report, nothing to see here.</w:t></w:r></w:p>"
    block = paragraph * (1_000_000 // len(paragraph))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("[Content_Types].xml", CONTENT_TYPES)
        archive.writestr("_rels/.rels", RELS)
        with archive.open("word/document.xml", "w", force_zip64=True) as member:
            member.write(f'<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="{W}"><w:body>'.encode())
            for _ in range(inflated_mb):
                member.write(block)
            member.write(b"</w:body></w:document>")
    return path
