"""Words for the files that hold no text, so they can be found by what they are and where they sit.

A file catalogued by name only (a photo, an installer, an archive, a file over the size limit) used to
be one chunk `[binary] name`: "the printer driver installer" or "the VM disk image" found nothing. Its
*descriptor* says what a person would: the kind in words ("installer package"), the size, the folder
and up to 15 names beside it — the siblings are often what tells the story (`setup.exe` next to
`HP_LaserJet_manual.pdf`). It is one chunk, embedded and keyword-indexed like any other.

Tool and dependency folders are not walked (crawl.py), but a person still asks "where is that
project's node_modules"; each is listed as one block, `node_modules: 48,211 files, JavaScript
dependencies`, catalogued under the folder's own path with doc type `folder`.

The descriptor is written when the file is indexed: a later change among its siblings, or a move (a
path update, nothing is re-read), leaves the old folder words until the file itself changes.
"""

from __future__ import annotations

import hashlib
import os

from engine.indexing.crawl import BUILD_OUTPUT_DIRS, PROJECT_MARKERS, VENV_MARKER, count_files, visible_names
from engine.indexing.sizes import human_size
from engine.retrieval.names import DESCRIPTOR_LABEL  # what search reads as a descriptor (names.name_only)

SIBLINGS = 15


def _kinds(table: dict[str, str]) -> dict[str, str]:
    return {f".{ext}": kind for exts, kind in table.items() for ext in exts.split()}


# extension → the kind in words; the words are what a person types ("installer", "disk image", "photo")
KINDS = _kinds(
    {
        "jpg jpeg heic heif": "photo (image)",
        "raw cr2 nef arw dng": "photo (camera raw image)",
        "png gif bmp tif tiff webp": "image (picture)",
        "ico icns": "icon image",
        "psd": "Photoshop image",
        "mp3 flac aac ogg m4a opus wav": "audio (music or sound recording)",
        "mp4 m4v mov avi mkv webm wmv flv": "video (film or clip)",
        "zip 7z rar tar gz tgz bz2 xz zst": "archive (compressed files)",
        "exe": "Windows program or installer (setup executable)",
        "msi": "Windows installer package (setup)",
        "deb": "Debian/Ubuntu installer package",
        "rpm": "Red Hat/Fedora installer package",
        "pkg": "macOS installer package",
        "apk": "Android app installer package",
        "dmg": "macOS disk image (installer)",
        "iso": "disk image (CD/DVD image, operating system or software installer)",
        "bin": "binary data or firmware image",
        "dll so dylib lib a o": "compiled library (program code)",
        "class jar war pyc pyo": "compiled program code",
        "woff woff2 ttf otf eot": "font",
        "sqlite sqlite3 db mdb": "database file",
        "parquet feather arrow npy npz lance": "data table or array file",
        "pt pth onnx safetensors": "machine-learning model weights",
    }
)
UNKNOWN_KIND = "binary file (no readable text)"
LARGE_KIND = "file too large to read (over the size limit)"
NAME_ONLY_TYPES = frozenset({"binary", "large"})  # the doc types a descriptor is written for
FOLDER_TYPE = "folder"
FOLDER_NOTE = "A tool folder, listed as one block: its files are not indexed one by one"

# tool folder name (casefolded) → what it holds; only these are listed as blocks (caches and system
# folders are not worth a result)
TOOL_FOLDERS = {
    "node_modules": "JavaScript dependencies (npm packages)",
    ".venv": "Python virtual environment (installed packages)",
    "site-packages": "installed Python packages",
    ".git": "Git version history of a project",
    ".hg": "Mercurial version history of a project",
    ".svn": "Subversion working copy data",
}
VENV_KIND = "Python virtual environment (installed packages)"
BUILD_KIND = "build output of a software project"
BUNDLES = {
    ".app": "application bundle (a program)",
    ".photoslibrary": "Photos library",
    ".musiclibrary": "music library",
    ".imovielibrary": "iMovie library",
    ".fcpbundle": "Final Cut Pro library",
    ".framework": "software framework bundle",
}


def kind_of(path: str, doc_type: str = "binary") -> str:
    """The kind of a name-only file in words, from its extension."""
    fallback = LARGE_KIND if doc_type == "large" else UNKNOWN_KIND
    return KINDS.get(os.path.splitext(path)[1].lower(), fallback)


def describe_file(path: str, doc_type: str = "binary") -> str:
    """The descriptor lines of a name-only file: kind, size, folder, up to 15 sibling names."""
    try:
        size = human_size(os.stat(path).st_size)
    except OSError:
        size = "unknown"
    lines = [
        f"{DESCRIPTOR_LABEL}{kind_of(path, doc_type)}",
        f"Size: {size}",
        _folder_line(os.path.dirname(path)),
    ]
    others = [n for n in visible_names(os.path.dirname(path)) if n != os.path.basename(path)]
    if others:
        shown = ", ".join(others[:SIBLINGS])
        more = f" and {len(others) - SIBLINGS:,} more" if len(others) > SIBLINGS else ""
        lines.append(f"Beside it: {shown}{more}")
    return "\n".join(lines)


def _folder_line(folder: str) -> str:
    return f"Folder: {os.path.basename(folder) or folder} ({folder})"


def tool_folder_kind(path: str) -> str | None:
    """What a tool or dependency folder holds, when `path` is one the crawl lists as a block."""
    name = os.path.basename(path.rstrip(os.sep))
    folded = name.casefold()
    if folded in TOOL_FOLDERS:
        return TOOL_FOLDERS[folded]
    for suffix, kind in BUNDLES.items():
        if folded.endswith(suffix):
            return kind
    if os.path.isfile(os.path.join(path, VENV_MARKER)):
        return VENV_KIND
    parent = os.path.dirname(path)
    if folded in BUILD_OUTPUT_DIRS and any(os.path.exists(os.path.join(parent, m)) for m in PROJECT_MARKERS):
        return BUILD_KIND
    return None


def is_tool_folder(path: str) -> bool:
    return tool_folder_kind(path) is not None


def describe_folder(path: str, kind: str) -> str:
    """`node_modules: 48,211 files, JavaScript dependencies (npm packages)` and where it is."""
    files, complete = count_files(path)
    counted = f"{files:,} files" if complete else f"more than {files:,} files"
    name = os.path.basename(path.rstrip(os.sep))
    project = os.path.dirname(path)
    return "\n".join(
        [
            f"{name}: {counted}, {kind}",
            f"{DESCRIPTOR_LABEL}tool folder, not indexed file by file ({kind})",
            f"Project folder: {os.path.basename(project) or project} ({project})",
        ]
    )


def descriptor_digest(text: str) -> str:
    """The catalog hash of a folder block: its descriptor, so an unchanged count re-writes nothing."""
    return hashlib.blake2b(text.encode("utf-8", "surrogateescape"), digest_size=20).hexdigest()
