"""The files the spec leaves out of the bundle (build/bundle_trim.py), and the same rules applied to a built
tree: what is left out is what nothing reads; what the app reads stays."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "build"))
from bundle_trim import keep, keep_python_source, orphans, trim_tree  # noqa: E402


def test_torch_sources_are_left_out_but_never_its_libraries_or_data() -> None:
    assert not keep_python_source("torch/nn/modules/linear.py")
    assert not keep_python_source("torch/testing/_internal/common_utils.py")
    for needed in (
        "torch/lib/libtorch_cpu.so",
        "torch/_C.cpython-311-x86_64-linux-gnu.so",
        "torch/version.pyc",
    ):
        assert keep(needed), needed


def test_torch_keeps_the_config_modules_that_read_their_own_source() -> None:
    for kept in (
        "torch/_dynamo/config.py",
        "torch/fx/experimental/_config.py",
        "torch/_inductor/config_comms.py",
    ):
        assert keep_python_source(kept), kept
    for overloads in ("torch/functional.py", "torch/nn/functional.py", "torch/nn/modules/rnn.py"):
        assert keep_python_source(overloads), overloads  # @torch.jit._overload reads the source


def test_every_transformers_source_stays_for_its_lazy_module() -> None:
    for kept in (
        "transformers/models/bert/modeling_bert.py",
        "transformers/models/llama/modeling_llama.py",
        "transformers/models/__init__.py",
        "transformers/modeling_utils.py",
    ):
        assert keep_python_source(kept), kept


def test_other_packages_keep_their_sources() -> None:
    assert keep("webview/platforms/qt.py") and keep("engine/indexing/extract.py")


def test_windows_paths_follow_the_same_rules() -> None:
    assert not keep("torch\\nn\\modules\\linear.py") and keep("torch\\_dynamo\\config.py")


def test_trim_tree_removes_exactly_what_the_spec_leaves_out(tmp_path: Path) -> None:
    internal = tmp_path / "_internal"
    files = {
        "torch/nn/modules/linear.py": b"x" * 10,
        "torch/lib/libc10.so": b"\x7fELF",
        "torch/_dynamo/config.py": b"y" * 5,
        "transformers/models/llama/modeling_llama.py": b"z",
    }
    for name, body in files.items():
        (internal / name).parent.mkdir(parents=True, exist_ok=True)
        (internal / name).write_bytes(body)

    assert trim_tree(internal) == (1, 10)
    left = sorted(p.relative_to(internal).as_posix() for p in internal.rglob("*") if p.is_file())
    assert left == [
        "torch/_dynamo/config.py",
        "torch/lib/libc10.so",
        "transformers/models/llama/modeling_llama.py",
    ]


def test_pyarrow_keeps_the_library_its_modules_name_and_drops_the_identical_copies() -> None:
    assert keep("pyarrow/libarrow_python.so.2600") and keep("pyarrow/libarrow.so.2600")
    for copy in (
        "pyarrow/libarrow_python.so",
        "pyarrow/libarrow_python.so.2600.1.0",
        "pyarrow/libarrow_python_parquet_encryption.so",
        "pyarrow/libarrow_python_parquet_encryption.so.2600.1.0",
    ):
        assert not keep(copy), copy
    assert keep("pyarrow/libarrow_python_parquet_encryption.so.2600")


def test_the_libraries_only_the_gtk_theme_needs_are_orphans_and_shared_ones_stay() -> None:
    needs = {
        "/src/libqgtk3.so": {"libgtk-3.so.0", "libQt6Gui.so.6", "libglib-2.0.so.0"},
        "/src/libgtk-3.so.0": {"libcairo.so.2", "libglib-2.0.so.0"},
        "/src/libcairo.so.2": {"libpixman-1.so.0"},
        "/src/libpixman-1.so.0": set(),
        "/src/libglib-2.0.so.0": set(),
        "/src/libqxcb.so": {"libglib-2.0.so.0"},
        "/src/libsoftokn3.so": set(),  # opened with dlopen by NSS: nothing names it
    }
    binaries = [
        ("PySide6/Qt/plugins/platformthemes/libqgtk3.so", "/src/libqgtk3.so"),
        ("PySide6/Qt/plugins/platforms/libqxcb.so", "/src/libqxcb.so"),
        *((Path(src).name, src) for src in needs if "libq" not in src),
    ]
    found = orphans(binaries, lambda src: needs[src])
    assert found == {"libgtk-3.so.0", "libcairo.so.2", "libpixman-1.so.0"}
    assert not keep("PySide6/Qt/plugins/platformthemes/libqgtk3.so")
    assert keep("PySide6/Qt/plugins/platformthemes/libqxdgdesktopportal.so")


def test_qt_translations_and_qml_debugging_are_left_out_but_chromium_keeps_its_locale() -> None:
    assert not keep("PySide6/Qt/translations/qtbase_de.qm")
    assert not keep("PySide6/Qt/translations/qt_fr.qm")
    assert not keep("PySide6/Qt/plugins/qmltooling/libqmldbg_debugger.so")
    assert keep("PySide6/Qt/translations/qtwebengine_locales/en-US.pak")
    assert keep("PySide6/Qt/plugins/platforms/libqxcb.so")


def test_nothing_in_the_app_or_its_webview_installs_a_qt_translator() -> None:
    """The premise of leaving the .qm catalogs out: Qt reads them only through an installed QTranslator."""
    import webview

    sources = [*Path(webview.__file__).parent.rglob("*.py")]
    for package in ("bridge", "engine", "cli"):
        sources += (Path(__file__).resolve().parents[2] / package).rglob("*.py")
    assert sources
    assert not [
        str(p) for p in sources if "installTranslator" in p.read_text(encoding="utf-8", errors="replace")
    ]
