"""The files the spec leaves out of the bundle (build/bundle_trim.py), and the same rules applied to a built
tree: what is left out is what nothing reads; what the app reads stays."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "build"))
from bundle_trim import keep, keep_python_source, trim_tree  # noqa: E402


def test_torch_sources_are_left_out_but_never_its_libraries_or_data() -> None:
    assert not keep_python_source("torch/nn/modules/linear.py")
    assert not keep_python_source("torch/testing/_internal/common_utils.py")
    for needed in (
        "torch/lib/libtorch_cpu.so",
        "torch/_C.cpython-311-x86_64-linux-gnu.so",
        "torch/version.pyc",
    ):
        assert keep(needed), needed


def test_transformers_keeps_the_sources_of_the_loaded_family_its_core_and_every_family_package() -> None:
    for kept in (
        "transformers/models/bert/modeling_bert.py",
        "transformers/models/auto/tokenization_auto.py",
        "transformers/models/encoder_decoder/modeling_encoder_decoder.py",
        "transformers/models/align/__init__.py",
        "transformers/models/__init__.py",
        "transformers/modeling_utils.py",
        "transformers/utils/auto_docstring.py",
    ):
        assert keep_python_source(kept), kept
    for dropped in (
        "transformers/models/llama/modeling_llama.py",
        "transformers/models/qwen2/modular_qwen2.py",
    ):
        assert not keep_python_source(dropped), dropped


def test_other_packages_keep_their_sources() -> None:
    assert keep("webview/platforms/qt.py") and keep("engine/indexing/extract.py")


def test_windows_paths_follow_the_same_rules() -> None:
    assert not keep("torch\\nn\\functional.py") and keep("transformers\\models\\bert\\modeling_bert.py")


def test_trim_tree_removes_exactly_what_the_spec_leaves_out(tmp_path: Path) -> None:
    internal = tmp_path / "_internal"
    files = {
        "torch/nn/functional.py": b"x" * 10,
        "torch/lib/libc10.so": b"\x7fELF",
        "transformers/models/llama/modeling_llama.py": b"y" * 5,
        "transformers/models/bert/modeling_bert.py": b"z",
    }
    for name, body in files.items():
        (internal / name).parent.mkdir(parents=True, exist_ok=True)
        (internal / name).write_bytes(body)

    assert trim_tree(internal) == (2, 15)
    left = sorted(p.relative_to(internal).as_posix() for p in internal.rglob("*") if p.is_file())
    assert left == ["torch/lib/libc10.so", "transformers/models/bert/modeling_bert.py"]
