"""An engine that never started watching still gives its inotify instance back when it closes."""

from __future__ import annotations

import os
import sys

import pytest

from tests.indexing.helpers import make_engine


def inotify_instances() -> int:
    count = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            count += "inotify" in os.readlink(f"/proc/self/fd/{fd}")
        except OSError:  # closed while listing
            pass
    return count


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux's")
def test_closing_an_engine_that_never_watched_releases_its_inotify_instance(tmp_path, sensetree_home):
    before = inotify_instances()
    for _ in range(3):  # the CLI, the tests and the soak bench open many engines in one process
        make_engine(sensetree_home).running.close()
    assert inotify_instances() == before
