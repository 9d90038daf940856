"""Text out of a file, whatever its format, without ever letting a bad file stop the indexer.

`extract(path)` picks a reader by extension (or by file name for `Makefile`-like files), sniffs
unknown files for text, caps the text at `max_chars` with a visible note, and translates every
failure — vanished, unreadable, encrypted, damaged — into `ExtractionError(reason)` whose reason is a
short sentence fit for the catalog. No third-party exception type escapes. Binary or unknown files
are not errors: they come back empty with `doc_type="binary"` and are catalogued by name only.
The readers themselves live in `engine.indexing.extractors`, one small function per format.
"""

from __future__ import annotations

import importlib
import logging
import os
import stat
import warnings
import zipfile
from collections.abc import Callable
from dataclasses import dataclass

from engine.errors import ExtractionError, InvalidInput
from engine.indexing.extractors.archive import check_archive
from engine.indexing.extractors.base import NotText, ReadMeta, TextBudget
from engine.indexing.extractors.plaintext import read_markdown, read_plain
from engine.indexing.metadata import about
from engine.indexing.photo_ocr import PHOTO_PAGES, is_photo
from engine.indexing.sizes import human_size

log = logging.getLogger(__name__)

DEFAULT_MAX_CHARS = 1_000_000
BINARY_NOTE = "Catalogued by name only (no text could be extracted)"
METADATA_NOTE = "No text to extract: catalogued by name, kind, folder and its own metadata (EXIF or tags)"
VANISHED = "The file vanished before it could be read"
PERMISSION_DENIED = "Permission denied: SenseTree may not read this file"

Reader = Callable[[str, TextBudget], ReadMeta]


@dataclass(frozen=True)
class Extracted:
    text: str
    doc_type: str
    title: str | None
    truncated: bool
    note: str | None
    about: str = ""  # what a name-only file's metadata says (EXIF, tags): searchable, yet no content text
    scan_pages: tuple[int, ...] = ()  # PDF pages with no text layer, a photo's (0,): for OCR (ocr_phase.py)


@dataclass(frozen=True)
class Format:
    doc_type: str
    label: str  # how a reason names the format: "Damaged DOCX: …"
    reader: Reader
    zipped: bool = (
        False  # a zip container underneath (its inflated size is checked first: extractors/archive)
    )
    streamed: str | None = None  # members the reader streams rather than parses whole (name prefix)


def _deferred(module: str, name: str) -> Reader:
    """A reader whose module (and its parser library: pypdf, python-docx, openpyxl, python-pptx, odfpy,
    BeautifulSoup, ebooklib) is imported at its first file, not when the engine starts: together they
    cost the engine's start about a second (measured: `python -X importtime`), and many folders hold
    none of those formats."""

    def read(path: str, budget: TextBudget) -> ReadMeta:
        try:
            loaded = importlib.import_module(f"engine.indexing.extractors.{module}")
        except ImportError as exc:  # an incomplete installation, not a damaged file
            raise ExtractionError(f"SenseTree cannot read this format: {exc}. Reinstall SenseTree.") from exc
        reader: Reader = getattr(loaded, name)
        return reader(path, budget)

    read.__name__ = name
    return read


read_html, read_epub, read_rtf = (_deferred("markup", n) for n in ("read_html", "read_epub", "read_rtf"))
read_docx = _deferred("office", "read_docx")
read_xlsx = _deferred("spreadsheet", "read_xlsx")
read_pptx = _deferred("slides", "read_pptx")
read_odf = _deferred("opendocument", "read_odf")
read_pdf = _deferred("pdf", "read_pdf")
PARSED_IN_PYTHON = frozenset(
    (read_html, read_epub, read_rtf, read_docx, read_odf, read_pptx, read_xlsx, read_pdf)
)  # what a second process reads beside the indexer (extract_process.py)


def _formats() -> dict[str, Format]:
    table: dict[str, Format] = {}

    def register(extensions: str, fmt: Format) -> None:
        table.update(dict.fromkeys(_words(extensions, prefix="."), fmt))

    register(
        "txt text log ini cfg conf toml properties rst adoc asciidoc tex bib srt vtt org nfo",
        Format("text", "text file", read_plain),
    )
    register(CODE_EXTENSIONS, Format("code", "source file", read_plain))
    register("md markdown mdown mkd mdx", Format("markdown", "Markdown file", read_markdown))
    register("csv tsv", Format("csv", "CSV file", read_plain))
    register("json jsonl ndjson geojson", Format("json", "JSON file", read_plain))
    register("xml xsd xsl xslt rss atom plist", Format("xml", "XML file", read_plain))
    register("yaml yml", Format("yaml", "YAML file", read_plain))
    register("html htm xhtml", Format("html", "HTML", read_html))
    register("pdf", Format("pdf", "PDF", read_pdf))
    register("docx docm dotx", Format("docx", "DOCX", read_docx, zipped=True))
    register(
        "xlsx xlsm xltx", Format("spreadsheet", "XLSX", read_xlsx, zipped=True, streamed="xl/worksheets/")
    )
    register("pptx pptm ppsx", Format("presentation", "PPTX", read_pptx, zipped=True))
    register("odt ott", Format("odt", "ODT", read_odf, zipped=True))
    register("ods", Format("spreadsheet", "ODS", read_odf, zipped=True))
    register("odp", Format("presentation", "ODP", read_odf, zipped=True))
    register("epub", Format("epub", "EPUB", read_epub, zipped=True))
    register("rtf", Format("rtf", "RTF", read_rtf))
    return table


CODE_EXTENSIONS = (
    "py pyi pyw ipynb js mjs cjs jsx ts tsx vue svelte java kt kts scala groovy gradle c h cc cpp cxx hpp hh "
    "hxx m mm cs fs fsx vb go rs swift rb php pl pm lua r jl dart hs ml mli ex exs erl hrl clj cljs elm nim "
    "zig v sv vhd asm s sh bash zsh fish ps1 psm1 bat cmd sql css scss sass less proto graphql tf hcl "
    "cmake mk dockerfile f f90 f95 pas d cr"
)


def _words(spaced: str, prefix: str = "") -> frozenset[str]:
    return frozenset(prefix + word for word in spaced.split())


CODE_FILE_NAMES = _words(
    "makefile gnumakefile dockerfile containerfile rakefile gemfile vagrantfile jenkinsfile procfile "
    "cmakelists.txt justfile"
)
KNOWN_BINARY_EXTENSIONS = _words(
    "png jpg jpeg gif bmp tif tiff webp heic heif ico icns psd raw cr2 nef arw dng mp3 wav flac aac ogg m4a "
    "opus mp4 m4v mov avi mkv webm wmv flv zip gz tgz bz2 xz zst 7z rar tar exe dll so dylib bin iso dmg "
    "pkg msi deb rpm apk class jar war pyc pyo o a lib woff woff2 ttf otf eot sqlite sqlite3 db mdb "
    "parquet feather arrow npy npz pt pth onnx safetensors lance",
    prefix=".",
)
FORMATS = _formats()
UNKNOWN = Format("text", "file", read_plain)  # sniffed: text if it decodes as text, else binary


def format_for(path: str) -> Format | None:
    """The reader for `path` by name; None for formats known to hold no extractable text."""
    name = os.path.basename(path).lower()
    if name in CODE_FILE_NAMES:
        return FORMATS[".py"]
    extension = os.path.splitext(name)[1]
    if extension in KNOWN_BINARY_EXTENSIONS:
        return None
    return FORMATS.get(extension, UNKNOWN)


def parsed_in_python(path: str) -> bool:
    """Whether `path`'s format is read by a parser library written in Python (it holds the interpreter
    while it works), not by the plain-text readers."""
    fmt = format_for(path)
    return fmt is not None and fmt.reader in PARSED_IN_PYTHON


def extract(path: str, max_chars: int = DEFAULT_MAX_CHARS) -> Extracted:
    """The text of `path` (at most `max_chars` characters), its kind and its own title."""
    if max_chars < 1:
        raise InvalidInput(f"max_chars must be at least 1 (got {max_chars}); pass the text cap in characters")
    size = _regular_file_size(path)
    fmt = format_for(path)
    if fmt is None:
        return _binary(about(path), PHOTO_PAGES if is_photo(path) else ())
    budget = TextBudget(max_chars)
    try:
        meta = _read(fmt, path, budget)
    except NotText:
        return _binary("")
    note = meta.note
    if budget.truncated:
        note = _join(_truncation_note(max_chars, size), note)
    return Extracted(
        budget.text(), fmt.doc_type, meta.title, budget.truncated, note, scan_pages=meta.scan_pages
    )


def _binary(metadata: str, scan_pages: tuple[int, ...] = ()) -> Extracted:
    """A name-only file, with what its metadata says (EXIF, tags) when it has any; a photo's one "page"
    waits for OCR's look for text (photo_ocr.py)."""
    note = METADATA_NOTE if metadata else BINARY_NOTE
    return Extracted("", "binary", None, False, note, about=metadata, scan_pages=scan_pages)


def _regular_file_size(path: str) -> int:
    try:
        info = os.stat(path)
    except (FileNotFoundError, NotADirectoryError) as exc:
        raise ExtractionError(VANISHED) from exc
    except PermissionError as exc:
        raise ExtractionError(PERMISSION_DENIED) from exc
    except OSError as exc:
        raise ExtractionError(f"The file could not be read ({exc.strerror or exc})") from exc
    if stat.S_ISDIR(info.st_mode):
        raise ExtractionError("This is a folder, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise ExtractionError("Not a regular file (a device, pipe or socket), so it is not read")
    return info.st_size


def _read(fmt: Format, path: str, budget: TextBudget) -> ReadMeta:
    """Run the format's reader, turning whatever it raises into an ExtractionError with a reason."""
    try:
        if fmt.zipped:  # before any parser inflates it: a zip bomb is refused from its directory alone
            check_archive(path, fmt.label, fmt.streamed)
        with warnings.catch_warnings():  # libraries warn about quirks of files we only read
            warnings.simplefilter("ignore")
            return fmt.reader(path, budget)
    except (ExtractionError, NotText):
        raise
    except (FileNotFoundError, NotADirectoryError) as exc:
        raise ExtractionError(VANISHED) from exc
    except PermissionError as exc:
        raise ExtractionError(PERMISSION_DENIED) from exc
    except zipfile.BadZipFile as exc:
        raise ExtractionError(f"Damaged {fmt.label}: not a valid zip archive") from exc
    except MemoryError as exc:
        raise ExtractionError(f"This {fmt.label} is too large to read in memory") from exc
    except OSError as exc:
        raise ExtractionError(f"The file could not be read ({exc.strerror or exc})") from exc
    except Exception as exc:  # parsers raise anything: keep the reason, never the type
        log.debug("extraction of %s failed", path, exc_info=True)
        raise ExtractionError(f"Damaged {fmt.label}: {_describe(exc, path)}") from exc


def _describe(exc: BaseException, path: str) -> str:
    lines = str(exc).replace(path, os.path.basename(path)).strip().splitlines()
    first = lines[0].strip() if lines else ""
    return (first[:160] or type(exc).__name__).rstrip(".")


def _truncation_note(max_chars: int, size: int) -> str:
    return (
        f"Text truncated at {max_chars:,} characters; the rest of this {human_size(size)} file was not read."
    )


def _join(first: str, second: str | None) -> str:
    return f"{first} {second}" if second else first
