"""Disk primitives: never overwrite, copy-verify-delete across file systems, fingerprints that see edits."""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

import pytest

from engine.txn import fsops


def test_rename_noreplace_refuses_an_existing_target_and_keeps_both_files(tmp_path):
    (tmp_path / "a").write_text("a")
    (tmp_path / "b").write_text("b")
    with pytest.raises(FileExistsError):
        fsops.rename_noreplace(str(tmp_path / "a"), str(tmp_path / "b"))
    assert (tmp_path / "a").read_text() == "a" and (tmp_path / "b").read_text() == "b"


def test_link_unlink_fallback_refuses_an_existing_target(tmp_path):
    (tmp_path / "a").write_text("a")
    (tmp_path / "b").write_text("b")
    with pytest.raises(FileExistsError):
        fsops._rename_fallback(str(tmp_path / "a"), str(tmp_path / "b"))
    fsops._rename_fallback(str(tmp_path / "a"), str(tmp_path / "c"))
    assert not (tmp_path / "a").exists() and (tmp_path / "c").read_text() == "a"
    (tmp_path / "d").mkdir()
    with pytest.raises(FileExistsError):
        fsops._rename_fallback(str(tmp_path / "d"), str(tmp_path / "b"))


def test_fingerprint_survives_a_rename_and_sees_edits(tmp_path):
    (tmp_path / "d").mkdir()
    (tmp_path / "d/f.txt").write_text("one")
    before = fsops.fingerprint(str(tmp_path / "d"))
    os.rename(tmp_path / "d", tmp_path / "e")
    assert fsops.fingerprint(str(tmp_path / "e")) == before
    (tmp_path / "e/f.txt").write_text("two!")
    assert fsops.fingerprint(str(tmp_path / "e")) != before
    assert fsops.fingerprint(str(tmp_path / "missing")) is None


@pytest.fixture
def other_fs(tmp_path):
    shm = Path("/dev/shm")
    if not shm.is_dir() or os.stat(shm).st_dev == os.stat(tmp_path).st_dev:
        pytest.skip("needs a second file system (/dev/shm)")
    folder = shm / f"sensetree-fsops-{os.getpid()}-{tmp_path.name}"
    folder.mkdir()
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_move_across_file_systems_copies_verifies_and_deletes(tmp_path, other_fs):
    (tmp_path / "d/sub").mkdir(parents=True)
    (tmp_path / "d/sub/f.txt").write_text("content")
    digest = fsops.content_digest(str(tmp_path / "d"))
    with pytest.raises(OSError) as direct:
        fsops.rename_noreplace(str(tmp_path / "d"), str(other_fs / "d"))
    assert direct.value.errno == errno.EXDEV
    fsops.move_path(str(tmp_path / "d"), str(other_fs / "d"), "t1")
    assert not (tmp_path / "d").exists() and fsops.content_digest(str(other_fs / "d")) == digest
    assert sorted(os.listdir(other_fs)) == ["d"]


def test_undo_move_finds_every_intermediate_state_of_a_cross_device_move(tmp_path, other_fs):
    src, dst = str(tmp_path / "f.txt"), str(other_fs / "f.txt")

    class Stop(Exception):
        pass

    def stop() -> None:
        raise Stop

    for stage in ("copied", "placed", "done"):
        Path(src).write_text("keep me")
        try:
            fsops.move_path(
                src,
                dst,
                "tok",
                on_copied=stop if stage == "copied" else None,
                on_placed=stop if stage == "placed" else None,
            )
        except Stop:
            pass
        fsops.undo_move(src, dst, "tok", dst_is_ours=True)
        assert Path(src).read_text() == "keep me" and os.listdir(other_fs) == [], stage
        assert [p for p in os.listdir(tmp_path) if p.startswith(".sensetree")] == [], stage
        os.unlink(src)
