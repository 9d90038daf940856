"""add_indexed_folder takes absolute paths to real files only: relative paths are never resolved against
the server's working directory, and pseudo file systems are refused with a clear message."""

from __future__ import annotations

import os
import sys

import pytest

from bridge import Api
from engine.embed import HashingEmbedder
from engine.engine import Engine
from engine.indexing.folder_checks import pseudo_reason, read_mounts

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux pseudo file systems")


def assert_refused(api, path: str, words: str) -> None:
    """`add_indexed_folder(path)` is invalid_input saying `words`, and no folder was added."""
    envelope = api.add_indexed_folder(path=path)
    assert envelope["ok"] is False and envelope["error"]["code"] == "invalid_input", envelope
    assert words in envelope["error"]["message"]
    assert api.get_roots()["data"] == []


@pytest.fixture(scope="module")
def api(tmp_path_factory):
    """One engine for the refusals (they change nothing); the test that adds a folder has its own."""
    engine = Engine(tmp_path_factory.mktemp("home"), embedder=HashingEmbedder())
    yield Api(engine)
    engine.running.close()


@pytest.mark.parametrize("path", ["", "   ", "..", ".", "Docs", "./Docs", "../Docs", "Docs/../.."])
def test_an_empty_or_relative_path_is_invalid_input_and_never_resolved_against_the_cwd(
    api, tmp_path, monkeypatch, path
):
    (tmp_path / "cwd" / "Docs").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "cwd" / "Docs")
    assert_refused(api, path, "full path")


def test_an_absolute_path_and_a_home_relative_one_are_accepted(tmp_path, monkeypatch):
    docs = tmp_path / "Docs"
    docs.mkdir()
    engine = Engine(tmp_path / "home", embedder=HashingEmbedder())
    api = Api(engine)
    assert api.add_indexed_folder(path=str(docs))["data"] == [str(docs.resolve())]
    monkeypatch.setenv("HOME", str(tmp_path))
    assert api.add_indexed_folder(path="~/Docs")["data"] == [str(docs.resolve())]
    engine.running.close()


@linux_only
@pytest.mark.parametrize("path", ["/proc", "/proc/self", "/sys", "/sys/fs/cgroup", "/dev", "/dev/shm"])
def test_system_file_systems_are_refused_with_a_clear_message(api, path):
    if not os.path.isdir(path):
        pytest.skip(f"{path} is not on this machine")
    envelope = api.add_indexed_folder(path=path)
    assert envelope["ok"] is False and envelope["error"]["code"] == "invalid_input"
    assert (
        "system file system" in envelope["error"]["message"]
        and "holds no documents" in envelope["error"]["message"]
    )
    assert api.get_roots()["data"] == []


@linux_only
def test_the_runtime_tmpfs_under_run_is_refused_where_this_machine_has_one(api):
    run = next((point for point, kind in read_mounts() if point == "/run" and kind == "tmpfs"), None)
    if run is None:
        pytest.skip("/run is not a tmpfs here; the rule is covered with a given mount table below")
    assert api.add_indexed_folder(path="/run")["error"]["code"] == "invalid_input"


def test_the_mount_table_decides_for_paths_outside_the_named_system_folders():
    mounts = [
        ("/", "ext4"),
        ("/run", "tmpfs"),
        ("/run/media/jane/USB", "vfat"),
        ("/tmp", "tmpfs"),
        ("/srv/kernel", "proc"),
        ("/mnt/cg", "cgroup2"),
        ("/run/user/1000", "tmpfs"),
        ("/home", "autofs"),
        ("/home", "nfs4"),
        ("/media/My Disk", "exfat"),
    ]
    assert "runtime tmpfs" in pseudo_reason("/run/lock", mounts)
    assert "runtime tmpfs" in pseudo_reason("/run/user/1000/Docs", mounts)
    assert pseudo_reason("/run/media/jane/USB/Photos", mounts) is None  # a removable drive
    assert pseudo_reason("/tmp/scratch", mounts) is None  # a tmpfs of the person's own is allowed
    assert "proc file system (mounted at /srv/kernel)" in pseudo_reason("/srv/kernel/1", mounts)
    assert "cgroup2" in pseudo_reason("/mnt/cg", mounts)
    assert pseudo_reason("/home/jane/Docs", mounts) is None  # the nfs mount on top of autofs decides
    assert pseudo_reason("/media/My Disk/Docs", mounts) is None
    assert pseudo_reason("/mnt/cgroupish", mounts) is None  # segments, not prefixes


def test_mount_points_with_spaces_are_read_from_the_mount_table(tmp_path):
    table = tmp_path / "mounts"
    table.write_text("/dev/sda1 / ext4 rw 0 0\nproc /srv/my\\040kernel proc rw 0 0\n")
    assert read_mounts(str(table)) == [("/", "ext4"), ("/srv/my kernel", "proc")]
    assert read_mounts(str(tmp_path / "missing")) == []


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX system folders")
@pytest.mark.parametrize(
    "path", ["/etc", "/etc/ssh", "/usr", "/usr/share/doc", "/bin", "/var", "/var/log", "/"]
)  # noqa: E501
def test_the_operating_systems_own_folders_are_refused_with_a_reason(api, path):
    """Issue 31, F12: `/etc` was accepted as an indexed folder."""
    assert_refused(api, path, "operating system")


def test_a_windows_system_folder_is_refused_by_its_environment_variable(monkeypatch, tmp_path):
    from engine.indexing import folder_checks

    windows = tmp_path / "Windows"
    (windows / "System32").mkdir(parents=True)
    monkeypatch.setattr(folder_checks.sys, "platform", "win32")
    monkeypatch.setenv("SystemRoot", str(windows))
    assert "operating system" in (folder_checks.system_reason(str(windows / "System32")) or "")
    assert folder_checks.system_reason(str(tmp_path / "Documents")) is None
