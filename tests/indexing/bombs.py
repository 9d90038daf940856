"""Hostile files built on the spot (nothing is downloaded): a DOCX zip bomb whose `word/document.xml`
inflates to hundreds of MB from a few hundred KB, valid enough that python-docx would parse it all."""

from __future__ import annotations

import struct
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


def lying_docx(path: Path, inflated_mb: int = 300, stated: int = 400_000) -> Path:
    """`docx_bomb`, whose central directory states `stated` bytes for `word/document.xml` (it inflates to
    about `inflated_mb` MB): the size and ratio checks see a small, ordinary part."""
    raw = bytearray(docx_bomb(path, inflated_mb).read_bytes())
    name = b"word/document.xml"
    at = raw.find(b"PK\x01\x02")
    while at != -1:
        name_len, extra_len = struct.unpack_from("<HH", raw, at + 28)
        if raw[at + 46 : at + 46 + name_len] == name:
            if struct.unpack_from("<I", raw, at + 24)[0] != 0xFFFFFFFF:
                struct.pack_into("<I", raw, at + 24, stated)
            field = at + 46 + name_len
            while field < at + 46 + name_len + extra_len:  # the zip64 field holds the real sizes
                kind, length = struct.unpack_from("<HH", raw, field)
                if kind == 1:
                    struct.pack_into("<Q", raw, field + 4, stated)
                field += 4 + length
        at = raw.find(b"PK\x01\x02", at + 4)
    path.write_bytes(bytes(raw))
    return path
