"""Settings → Reasoning model against a real local OpenAI-compatible server: the model list, and a test of
what is typed that saves nothing and names the common URL slips."""

from __future__ import annotations

import pytest

from engine.agent.endpoints import fix_base_url, slip_hint
from engine.errors import InvalidInput
from tests.fake_openai import FakeOpenAI, Reply


def test_list_models_reads_the_typed_endpoint_and_the_saved_one(engine):
    with FakeOpenAI([]) as endpoint:
        assert engine.list_models(base_url=endpoint.base_url) == ["scripted"]
        engine.set_config({"reasoning": {"base_url": endpoint.base_url, "max_retries": 0}})
        assert engine.list_models() == ["scripted"]


def test_testing_what_is_typed_saves_nothing(engine):
    saved = engine.running.settings.reasoning.model_dump()
    with FakeOpenAI([Reply(tool_calls=[("ping", {})])]) as endpoint:
        verdict = engine.test_chat_endpoint(base_url=endpoint.base_url, model="scripted")
    assert verdict.ok is True and verdict.tools_supported is True
    assert engine.running.settings.reasoning.model_dump() == saved
    settings_file = engine.running.home / "settings.json"
    assert not settings_file.exists() or endpoint.base_url not in settings_file.read_text()


def test_a_url_without_http_or_v1_gets_a_specific_hint_and_the_url_that_answers(engine):
    with FakeOpenAI([]) as endpoint:
        bare = endpoint.base_url.removeprefix("http://").removesuffix("/v1")
        verdict = engine.test_chat_endpoint(base_url=bare, model="scripted")
        no_v1 = engine.test_chat_endpoint(base_url=endpoint.base_url.removesuffix("/v1"), model="scripted")
        assert engine.list_models(base_url=bare) == ["scripted"]  # read at the URL the hint names
        unnamed = engine.test_chat_endpoint(base_url=bare, model="")
    assert verdict.ok is False and "has no http://" in verdict.message
    assert verdict.suggested_base_url == endpoint.base_url and "It answers there" in verdict.message
    assert no_v1.ok is False and "missing the /v1" in no_v1.message
    assert no_v1.suggested_base_url == endpoint.base_url
    assert unnamed.message.startswith(f"The base URL {bare!r} has no http://")  # the slip first
    assert "No model is set" in unnamed.message and unnamed.suggested_base_url == endpoint.base_url


def test_a_url_without_http_is_not_saved_and_chat_is_not_switched_on(engine):
    before = engine.running.settings.reasoning.model_dump()
    with pytest.raises(InvalidInput, match="Not saved: .*http://localhost:18911/v1"):
        engine.set_config({"reasoning": {"enabled": True, "base_url": "localhost:18911", "model": "m"}})
    assert engine.running.settings.reasoning.model_dump() == before
    engine.set_config({"reasoning": {"base_url": "http://localhost:18911/v1"}})
    assert engine.running.settings.reasoning.base_url == "http://localhost:18911/v1"


def test_url_fixes_cover_the_slips_and_leave_good_urls_alone():
    assert fix_base_url("localhost:1234") == "http://localhost:1234/v1"
    assert fix_base_url("http://localhost:1234/") == "http://localhost:1234/v1"
    assert fix_base_url("http://127.0.0.1:11434/v1") is None
    assert fix_base_url("https://api.example.com/openai/v1beta") is None
    assert fix_base_url("https://openrouter.ai/api/v1") is None
    assert slip_hint("http://127.0.0.1:8080/v1") is None
