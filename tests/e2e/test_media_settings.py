"""Settings → Pictures and sound in a real browser against `serve`: the page says what is sent where,
Test connection sends a made-up picture to what is typed (saving nothing), Save keeps it, and a photo's
caption then shows in its Details with the model and address it came from (issue 33)."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from bridge import Api
from bridge.server import start_server
from engine.engine import Engine
from tests.e2e.test_browser_journey import WAIT_MS, _shot, browser, open_page, playwright_api
from tests.fake_openai import FakeOpenAI

__all__ = ["browser"]  # the fixture, imported for this module's tests

Image = pytest.importorskip("PIL.Image")
CAPTION = "A red bicycle leaning against a blue garden fence."


def _engine(tmp_path: Path) -> tuple[Engine, Path]:
    docs = tmp_path / "Docs"
    docs.mkdir()
    Image.new("RGB", (320, 200), "red").save(docs / "IMG_0815.jpg")
    home = tmp_path / "home"
    home.mkdir()
    settings = {"embedding": {"model": "hashing-384"}, "reasoning": {"enabled": False}}
    (home / "settings.json").write_text(json.dumps(settings))
    engine = Engine(home)
    engine.add_indexed_folder(str(docs))
    engine.parts.index.drain()
    return engine, docs


def test_the_vision_endpoint_is_tested_saved_and_its_caption_shown_in_details(tmp_path, browser):
    expect = playwright_api.expect
    engine, docs = _engine(tmp_path)
    with FakeOpenAI(caption=CAPTION) as fake:
        server = start_server(Api(engine))
        try:
            page, errors = open_page(browser, server.url)
            page.locator(".nav-item[data-view=settings]").click()
            expect(page.get_by_test_id("media-privacy")).to_contain_text("no photo or recording leaves")
            expect(page.get_by_test_id("vision-form")).to_contain_text("shrunk to at most 1024 pixels")
            page.get_by_test_id("vision-base-url").fill(fake.base_url)
            page.get_by_test_id("vision-model").fill("llava")
            page.get_by_test_id("vision-test").click()
            verdict = page.get_by_test_id("vision-verdict")
            expect(verdict).to_contain_text(CAPTION, timeout=WAIT_MS)
            expect(verdict).to_contain_text("Not saved yet")
            assert (
                engine.running.settings.vision.base_url == "" and len(fake.images) == 1
            )  # tested, not saved
            _shot(page.locator("#set-media"), "settings-media")

            page.locator("#vision-form button[type=submit]").click()
            expect(page.locator(".toast").last).to_contain_text("Settings saved", timeout=WAIT_MS)
            assert engine.running.settings.vision.base_url == fake.base_url
            engine.parts.index.drain()  # the photo indexed before is captioned now

            page.locator(".nav-item[data-view=folders]").click()
            page.get_by_test_id("root-item").get_by_role("button", name="Browse").click()
            page.get_by_test_id("browser-entry").filter(has_text="IMG_0815.jpg").click()
            caption = page.get_by_test_id("details-reading").filter(has_text="Caption")
            expect(caption).to_contain_text(CAPTION, timeout=WAIT_MS)
            expect(caption).to_contain_text(f"from llava at {fake.base_url}")
            expect(page.get_by_test_id("details-readings")).to_have_count(1)  # one box: caption and EXIF
            expect(page.get_by_test_id("details-readings")).to_contain_text("EXIF")
            expect(page.get_by_test_id("details-note")).to_have_count(0)  # the note only said the source
            _shot(page.get_by_test_id("details-card"), "details-caption")
            assert errors == []
        finally:
            server.stop()
            engine.running.close()


def test_the_settings_forms_take_no_typing_until_the_saved_settings_fill_them(tmp_path, browser):
    """The settings view reads the saved settings each time it opens and fills its forms with them: an
    address typed before that read came back was overwritten (the test above, on a loaded machine, sent an
    empty address). The forms are disabled until the fill, then show the saved values and keep what is
    typed."""
    expect = playwright_api.expect
    engine, _docs = _engine(tmp_path)
    saved = "http://127.0.0.1:9/v1"
    engine.set_config(patch={"vision": {"base_url": saved, "model": "llava"}})
    gate = threading.Event()
    read = engine.get_config

    def read_when_let(*args: object, **kwargs: object) -> object:
        gate.wait(WAIT_MS / 1000)
        return read(*args, **kwargs)

    engine.get_config = read_when_let  # type: ignore[method-assign]
    server = start_server(Api(engine))
    try:
        page, errors = open_page(browser, server.url)
        page.locator(".nav-item[data-view=settings]").click()
        address = page.get_by_test_id("vision-base-url")
        expect(address).to_be_disabled()
        expect(page.locator("#vision-form button[type=submit]")).to_be_disabled()
        expect(page.get_by_test_id("reasoning-base-url")).to_be_disabled()
        gate.set()
        expect(address).to_have_value(saved, timeout=WAIT_MS)
        expect(address).to_be_enabled()
        address.fill("http://127.0.0.1:8/v1")
        page.get_by_test_id("vision-model").fill("moondream")
        expect(address).to_have_value("http://127.0.0.1:8/v1")
        expect(page.get_by_test_id("vision-model")).to_have_value("moondream")
        assert errors == []
    finally:
        gate.set()
        server.stop()
        engine.running.close()
