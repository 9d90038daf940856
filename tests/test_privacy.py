"""Private text stays private: a 0700 data folder, 0600 files, API keys in the keyring (issue 11,
finding 6)."""

from __future__ import annotations

import json
import os
import stat

import keyring
import pytest
from keyring.backend import KeyringBackend

from engine import privacy
from engine.config import load_settings, save_settings
from tests.indexing.helpers import indexed_sample

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX modes (per-user data folders elsewhere)")


class MemoryKeyring(KeyringBackend):
    """A keyring that lives in this test only (never the person's)."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.items: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.items.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.items[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.items.pop((service, username), None)


def _mode(path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def test_every_file_in_the_data_folder_is_private_after_indexing(tmp_path, sensetree_home):
    sensetree_home.chmod(0o755)
    old = sensetree_home / "logs"
    old.mkdir(mode=0o755)
    (old / "old.log").write_text("written by an older version", encoding="utf-8")
    (old / "old.log").chmod(0o644)
    _root, engine = indexed_sample(tmp_path, sensetree_home)
    engine.running.close()
    assert _mode(sensetree_home) == 0o700
    seen = 0
    for dirpath, dirnames, filenames in os.walk(sensetree_home):
        for name in dirnames:
            assert _mode(os.path.join(dirpath, name)) == 0o700, os.path.join(dirpath, name)
        for name in filenames:
            assert _mode(os.path.join(dirpath, name)) == 0o600, os.path.join(dirpath, name)
            seen += 1
    assert seen > 5  # the databases, LanceDB files, settings and the old log were all checked


def test_folders_a_plan_creates_in_the_persons_tree_keep_their_usual_mode(tmp_path, sensetree_home):
    root, engine = indexed_sample(tmp_path, sensetree_home)
    try:
        plan = engine.parts.txn.propose_plan(
            "Make a folder", [{"kind": "mkdir", "new_path": str(root / "New" / "Sub"), "reason": "test"}]
        )
        assert engine.apply_action_plan(plan["transaction_id"]).applied == 1
        assert _mode(root / "New") == privacy.user_dir_mode() == 0o777 & ~privacy.user_umask()
        assert _mode(root / "New" / "Sub") == privacy.user_dir_mode()
    finally:
        engine.running.close()


# embedding: issue 31, N5; vision, transcription: issue 33
@pytest.mark.parametrize("section", ["reasoning", "rerank", "embedding", "vision", "transcription"])
def test_the_api_key_is_kept_in_the_keyring_and_the_file_holds_a_reference(sensetree_home, section):
    ring = MemoryKeyring()
    keyring.set_keyring(ring)
    settings = load_settings(sensetree_home)
    getattr(settings, section).api_key = "sk-secret-123"
    save_settings(settings, sensetree_home)
    raw = (sensetree_home / "settings.json").read_text(encoding="utf-8")
    assert "sk-secret-123" not in raw
    assert json.loads(raw)[section]["api_key"] == f"keyring:sensetree/{section}"
    assert ring.items[("sensetree", section)] == "sk-secret-123"
    assert getattr(load_settings(sensetree_home), section).api_key == "sk-secret-123"
    getattr(settings, section).api_key = ""
    save_settings(settings, sensetree_home)  # clearing the key clears the keyring entry
    assert ("sensetree", section) not in ring.items


def test_without_a_keyring_the_key_stays_in_a_private_settings_file(sensetree_home):
    settings = load_settings(sensetree_home)  # the conftest installs keyring's fail backend
    settings.reasoning.api_key = "sk-secret-456"
    save_settings(settings, sensetree_home)
    path = sensetree_home / "settings.json"
    assert json.loads(path.read_text(encoding="utf-8"))["reasoning"]["api_key"] == "sk-secret-456"
    assert _mode(path) == 0o600


def test_a_keyring_entry_that_went_missing_is_reported_and_the_reference_kept(sensetree_home):
    keyring.set_keyring(MemoryKeyring())
    settings = load_settings(sensetree_home)
    settings.reasoning.api_key = "sk-secret-789"
    save_settings(settings, sensetree_home)
    keyring.set_keyring(MemoryKeyring())  # another machine, or the entry was deleted
    reloaded = load_settings(sensetree_home)
    assert reloaded.load_warning and "enter the key again" in reloaded.load_warning
    save_settings(reloaded, sensetree_home)  # saving other settings does not lose the reference
    raw = json.loads((sensetree_home / "settings.json").read_text(encoding="utf-8"))
    assert raw["reasoning"]["api_key"] == "keyring:sensetree/reasoning"
