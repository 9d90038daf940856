"""The package smoke test's failures say which step failed and show the frozen app's own words (its
stderr, stdout and log tail), not only a timeout: issue 35's broken bundle reported "gave up after 300 s
waiting for indexing the folder" while the reason sat in the app's log."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.packaging.frozen_app import app_files, step


def _app_that_failed(tmp_path: Path) -> tuple[Path, Path]:
    """An app's output files as a failed start leaves them: an error on stderr, a long log."""
    logs, data = tmp_path / "logs", tmp_path / "data"
    (data / "logs").mkdir(parents=True)
    logs.mkdir()
    (logs / "app.err").write_text("Traceback:\nFileNotFoundError: Cannot load dependency data\n")
    log = "an early line\n" + "x" * 5000 + "\nERROR embedding failed\n"
    (data / "logs" / "sensetree.log").write_text(log)
    return logs, data


def test_a_failed_step_names_itself_and_shows_the_apps_error_and_the_tail_of_its_log(tmp_path):
    logs, data = _app_that_failed(tmp_path)

    with pytest.raises(AssertionError) as failed:
        with step("indexing the folder", app_files(logs, data)):
            raise TimeoutError("gave up after 300 s waiting for indexing the folder")

    message = str(failed.value)
    assert message.startswith("step failed: indexing the folder: TimeoutError: gave up after 300 s")
    assert "FileNotFoundError: Cannot load dependency data" in message
    assert "ERROR embedding failed" in message and "an early line" not in message


def test_a_step_that_passes_says_nothing(tmp_path):
    logs, data = _app_that_failed(tmp_path)

    with step("the window opens", app_files(logs, data)):
        value = 1

    assert value == 1


def test_an_app_that_wrote_nothing_is_reported_as_silent(tmp_path):
    with pytest.raises(AssertionError, match=r"the app wrote nothing to .*sensetree\.log"):
        with step("sensetree --version", app_files(None, tmp_path / "data")):
            raise AssertionError("exit 1")
