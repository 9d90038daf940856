"""Fixtures for the action tests (see txn_support.py for the helpers themselves)."""

from __future__ import annotations

import pytest

from tests.txn.txn_support import MIXED_FILES, World, make_world


@pytest.fixture
def world(tmp_path, sensetree_home) -> World:
    made = make_world(tmp_path, sensetree_home, MIXED_FILES)
    yield made
    made.db.close()
