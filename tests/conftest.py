"""Shared test setup: every test gets its own data dir, and no test can reach a real network service."""

from __future__ import annotations

import ipaddress
import socket

import pytest


@pytest.fixture(autouse=True)
def sensetree_home(tmp_path, monkeypatch):
    home = tmp_path / "sensetree-home"
    home.mkdir()
    monkeypatch.setenv("SENSETREE_HOME", str(home))
    # nothing a test does (autostart entries, caches) may land in the real home or config folders
    monkeypatch.setenv("HOME", str(tmp_path / "user-home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "user-home" / ".config"))
    return home


_real_connect = socket.socket.connect


def _guarded_connect(self, address):
    host = address[0] if isinstance(address, tuple) else None
    if host is not None:
        try:
            loopback = ipaddress.ip_address(host).is_loopback
        except ValueError:
            loopback = host == "localhost"
        if not loopback:
            raise RuntimeError(f"Tests must not reach the network (tried {address!r}); use a local fake.")
    return _real_connect(self, address)


@pytest.fixture(autouse=True)
def no_network(monkeypatch):
    """Any unplanned request to a real model endpoint (or anywhere off this machine) fails loudly."""
    monkeypatch.setattr(socket.socket, "connect", _guarded_connect)


@pytest.fixture(autouse=True)
def no_real_keyring(monkeypatch):
    """No test touches the person's keyring: keyring's fail backend (as on headless CI) unless a test
    installs an in-memory one; subprocesses get the same through PYTHON_KEYRING_BACKEND."""
    import keyring
    from keyring.backends import fail

    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    yield
    keyring.set_keyring(previous)


@pytest.fixture
def engine(tmp_path):
    """An Engine on a fresh data folder with the hashing embedder (no model load), closed after the test."""
    from engine.embed import HashingEmbedder
    from engine.engine import Engine  # imported here: most tests never build an Engine

    built = Engine(tmp_path / "home", embedder=HashingEmbedder())
    yield built
    built.running.close()
