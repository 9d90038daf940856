"""The files the spec leaves out of the bundle (build/bundle_trim.py), and the same rules applied to a built
tree: what is left out is what nothing reads; what the app reads stays."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "build"))
from bundle_trim import keep, keep_in_archive, keep_python_source, orphans, trim_tree  # noqa: E402


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


def test_pillow_avif_codec_is_left_out_but_its_other_codecs_stay() -> None:
    assert not keep("PIL/_avif.cpython-311-x86_64-linux-gnu.so")
    assert not keep("pillow.libs/libavif-c6062d5f.so.16.4.2")
    assert not keep("libavif-c6062d5f.so.16.4.2")
    for kept in (
        "PIL/_imaging.cpython-311-x86_64-linux-gnu.so",
        "PIL/_webp.cpython-311-x86_64-linux-gnu.so",
        "PIL/AvifImagePlugin.pyc",
        "pillow.libs/libwebp-51b0b3f7.so.7.2.0",
    ):
        assert keep(kept), kept


def test_pillow_reports_avif_unsupported_without_its_codec() -> None:
    """The premise of leaving `_avif` out: Pillow's AVIF plugin imports it in a `try`."""
    import PIL

    plugin = (Path(PIL.__file__).parent / "AvifImagePlugin.py").read_text(encoding="utf-8")
    assert "try:\n    from . import _avif\n\n    SUPPORTED = True\nexcept ImportError:" in plugin


def test_the_archive_keeps_the_families_bert_loads_and_leaves_the_others_to_their_source() -> None:
    for kept in (
        "transformers",
        "transformers.models",
        "transformers.modeling_utils",
        "transformers.models.bert.modeling_bert",
        "transformers.models.auto.tokenization_auto",
        "transformers.models.align",
        "transformers.models.encoder_decoder.modeling_encoder_decoder",
        "torch.nn.functional",
        "engine.engine",
    ):
        assert keep_in_archive(kept), kept
    for left in ("transformers.models.llama", "transformers.models.llama.modeling_llama"):
        assert not keep_in_archive(left), left
    assert keep_python_source("transformers/models/llama/modeling_llama.py")  # the source stays


def test_loading_the_bundled_model_imports_no_family_the_archive_leaves_out() -> None:
    """ARCHIVE_FAMILIES is what loading BERT imports: measured in a fresh interpreter, so a transformers
    upgrade that imports another family on the way fails here instead of compiling it at every start."""
    from tests.cli.helpers import run_python

    probe = (
        "import json, sys\n"
        "from transformers import AutoModel, AutoModelForSequenceClassification, AutoTokenizer\n"
        "from engine.resources import default_model_dir\n"
        "path = str(default_model_dir())\n"
        "AutoTokenizer.from_pretrained(path, local_files_only=True)\n"
        "AutoModel.from_pretrained(path, local_files_only=True)\n"
        "AutoModelForSequenceClassification.from_pretrained(path, local_files_only=True)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = run_python("-c", probe, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    loaded = json.loads(done.stdout.splitlines()[-1])
    assert "transformers.models.bert.modeling_bert" in loaded
    assert [name for name in loaded if not keep_in_archive(name)] == []


def test_qt_plugins_a_desktop_window_never_loads_are_left_out_and_the_desktop_ones_stay() -> None:
    for left in (
        "PySide6/Qt/plugins/printsupport/libcupsprintersupport.so",
        "PySide6/Qt/plugins/platforms/libqeglfs.so",
        "PySide6/Qt/plugins/platforms/libqlinuxfb.so",
        "PySide6/Qt/plugins/platforms/libqvnc.so",
        "PySide6/Qt/plugins/platforms/libqvkkhrdisplay.so",
        "PySide6/Qt/plugins/platforms/libqminimalegl.so",
        "PySide6/Qt/plugins/egldeviceintegrations/libqeglfs-x11-integration.so",
        "PySide6/Qt/plugins/generic/libqevdevmouseplugin.so",
        "PySide6/Qt/plugins/position/libqtposition_geoclue2.so",
        "PySide6/Qt/plugins/platforminputcontexts/libqtvirtualkeyboardplugin.so",
    ):
        assert not keep(left), left
    for kept in (
        "PySide6/Qt/plugins/platforms/libqxcb.so",
        "PySide6/Qt/plugins/platforms/libqwayland.so",
        "PySide6/Qt/plugins/platforms/libqoffscreen.so",
        "PySide6/Qt/plugins/platforms/libqminimal.so",
        "PySide6/Qt/plugins/platforminputcontexts/libibusplatforminputcontextplugin.so",
        "PySide6/Qt/plugins/platforminputcontexts/libcomposeplatforminputcontextplugin.so",
        "PySide6/Qt/plugins/xcbglintegrations/libqxcb-glx-integration.so",
        "PySide6/Qt/plugins/wayland-shell-integration/libxdg-shell.so",
        "PySide6/Qt/plugins/imageformats/libqsvg.so",
        "PySide6/Qt/plugins/tls/libqopensslbackend.so",
    ):
        assert keep(kept), kept


def test_python_bindings_nothing_imports_are_left_out_but_their_qt_libraries_stay() -> None:
    for left in (
        "PySide6/QtQml.abi3.so",
        "PySide6/QtQuick.abi3.so",
        "PySide6/QtQuickWidgets.abi3.so",
        "PySide6/QtPositioning.abi3.so",
        "lxml/objectify.cpython-311-x86_64-linux-gnu.so",
    ):
        assert not keep(left), left
    for kept in (
        "PySide6/QtWebEngineCore.abi3.so",
        "PySide6/QtWebEngineWidgets.abi3.so",
        "PySide6/QtWebChannel.abi3.so",
        "PySide6/QtOpenGL.abi3.so",
        "PySide6/QtDBus.abi3.so",
        "PySide6/Qt/lib/libQt6Quick.so.6",
        "PySide6/Qt/lib/libQt6Qml.so.6",
        "PySide6/Qt/lib/libQt6Positioning.so.6",
        "lxml/etree.cpython-311-x86_64-linux-gnu.so",
    ):
        assert keep(kept), kept


def test_the_window_and_every_document_reader_import_none_of_the_bindings_left_out() -> None:
    """The premise of UNUSED_BINDINGS, measured in a fresh interpreter: pywebview's Qt back-end, the tray
    and the readers of every format the engine parses with lxml import neither QtQml/QtQuick/
    QtPositioning nor lxml.objectify."""
    from tests.cli.helpers import run_python

    probe = (
        "import json, sys\n"
        "import webview.platforms.qt, bridge.tray_qt, bridge.window\n"
        "import docx, pptx, openpyxl, odf.opendocument, ebooklib.epub, bs4, lxml.html\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = run_python("-c", probe, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    loaded = set(json.loads(done.stdout.splitlines()[-1]))
    assert "PySide6.QtWebEngineWidgets" in loaded and "lxml.etree" in loaded
    unused = {"PySide6.QtQml", "PySide6.QtQuick", "PySide6.QtQuickWidgets", "PySide6.QtPositioning"}
    assert loaded & (unused | {"lxml.objectify"}) == set()
