"""The stored API key goes only to the address it was entered for: changing `base_url` while the form
sends the masked key (or no key) drops the key for the new address, and test_chat_endpoint follows
that rule. Two real local endpoints record the Authorization header of every request they receive."""

from __future__ import annotations

from typing import Any

import pytest

from bridge import Api
from engine.config import MASK
from engine.embed import HashingEmbedder
from engine.engine import Engine
from engine.key_guard import origin
from tests.fake_openai import FakeOpenAI


def keys_seen(endpoint: FakeOpenAI) -> set[str | None]:
    """The Authorization headers of the requests `endpoint` received since the last look."""
    seen = {headers.get("Authorization") for headers in endpoint.headers}
    endpoint.headers.clear()
    return seen


@pytest.fixture
def endpoints():
    with FakeOpenAI() as a, FakeOpenAI() as b:
        yield a, b


@pytest.fixture
def home(tmp_path):
    return tmp_path / "home"


@pytest.fixture
def api(home):
    engine = Engine(home, embedder=HashingEmbedder())
    yield Api(engine)
    engine.running.close()


def _save(api: Api, **reasoning: Any) -> dict[str, Any]:
    envelope = api.set_config(patch={"reasoning": reasoning})
    assert envelope["ok"] is True, envelope
    return envelope["data"]


def _test_endpoint(api: Api) -> dict[str, Any]:
    envelope = api.test_chat_endpoint()
    assert envelope["ok"] is True
    return envelope["data"]


def test_the_masked_key_sent_with_a_new_address_does_not_reach_it(api, endpoints):
    a, b = endpoints
    _save(api, base_url=a.base_url, model="scripted", api_key="sk-for-a", max_retries=0)
    assert _test_endpoint(api)["ok"] is True
    assert keys_seen(a) == {"Bearer sk-for-a"}

    saved = _save(api, base_url=b.base_url, api_key=MASK)  # what the form sends when only the URL changed
    assert len(saved["save_notices"]) == 1 and b.base_url in saved["save_notices"][0]
    assert saved["reasoning"]["api_key"] == ""
    _test_endpoint(api)
    assert "Bearer sk-for-a" not in keys_seen(b)


def test_a_new_address_without_any_key_in_the_patch_drops_the_stored_key_too(api, endpoints):
    a, b = endpoints
    _save(api, base_url=a.base_url, model="scripted", api_key="sk-for-a", max_retries=0)
    assert _save(api, base_url=b.base_url)["save_notices"]
    _test_endpoint(api)
    assert "Bearer sk-for-a" not in keys_seen(b)


def test_a_key_typed_with_the_new_address_goes_there_and_the_old_one_never_follows_back(api, endpoints):
    a, b = endpoints
    _save(api, base_url=a.base_url, model="scripted", api_key="sk-for-a", max_retries=0)
    assert _save(api, base_url=b.base_url, api_key="sk-for-b")["save_notices"] == []
    _test_endpoint(api)
    assert keys_seen(b) == {"Bearer sk-for-b"}
    assert _save(api, base_url=a.base_url, api_key=MASK)["save_notices"]  # sk-for-b was entered for b only
    _test_endpoint(api)
    assert "Bearer sk-for-b" not in keys_seen(a)


def test_an_explicit_confirmation_sends_the_stored_key_to_the_new_address(api, endpoints, home):
    a, b = endpoints
    _save(api, base_url=a.base_url, model="scripted", api_key="sk-shared", max_retries=0)
    saved = _save(api, base_url=b.base_url, api_key=MASK, keep_api_key=True)
    assert saved["save_notices"] == [] and saved["reasoning"]["api_key"] == MASK
    assert (
        "keep_api_key" not in saved["reasoning"]
        and "keep_api_key" not in (home / "settings.json").read_text()
    )
    _test_endpoint(api)
    assert keys_seen(b) == {"Bearer sk-shared"}
    assert api.set_config(patch={"reasoning": {"keep_api_key": "yes"}})["error"]["code"] == "invalid_input"


def test_the_same_server_under_another_path_keeps_the_key_and_so_does_a_plain_resave(api, endpoints):
    a, _b = endpoints
    _save(api, base_url=a.base_url, model="scripted", api_key="sk-for-a", max_retries=0)
    assert _save(api, base_url=a.base_url + "/", api_key=MASK)["save_notices"] == []
    assert _save(api, model="scripted", api_key=MASK, temperature=0.1)["save_notices"] == []
    _test_endpoint(api)
    assert keys_seen(a) == {"Bearer sk-for-a"}


def test_the_address_and_key_saved_before_a_restart_are_trusted_after_it(home, endpoints):
    a, b = endpoints
    first = Engine(home, embedder=HashingEmbedder())
    Api(first).set_config(
        patch={
            "reasoning": {
                "base_url": a.base_url,
                "model": "scripted",
                "api_key": "sk-for-a",
                "max_retries": 0,
            }
        }
    )
    first.running.close()
    second = Engine(home, embedder=HashingEmbedder())
    api = Api(second)
    try:
        _test_endpoint(api)
        assert keys_seen(a) == {"Bearer sk-for-a"}
        assert second.running.live.key_guard.key_for("reasoning", second.running.settings, b.base_url) == ""
        assert (
            second.running.live.key_guard.key_for("reasoning", second.running.settings, a.base_url + "/x")
            == "sk-for-a"
        )
        assert (
            second.running.live.key_guard.key_for(
                "reasoning", second.running.settings, b.base_url, "sk-typed"
            )
            == "sk-typed"
        )
    finally:
        second.running.close()


def test_the_rerank_endpoint_follows_the_same_rule(api):
    api.set_config(patch={"rerank": {"base_url": "https://rerank.example/v1", "api_key": "rk-1"}})
    saved = api.set_config(patch={"rerank": {"base_url": "https://elsewhere.example/v1", "api_key": MASK}})[
        "data"
    ]
    assert saved["rerank"]["api_key"] == "" and "rerank endpoint" in saved["save_notices"][0]


def test_an_mcp_servers_headers_do_not_follow_its_url_to_another_server(api, home):
    token = {"Authorization": "Bearer mcp-secret", "X-Team": "t-1"}
    api.set_config(patch={"mcpServers": {"notes": {"url": "https://mcp.example/mcp", "headers": token}}})
    masked = {"Authorization": MASK, "X-Team": MASK}
    saved = api.set_config(
        patch={"mcpServers": {"notes": {"url": "https://mcp.example/v2/mcp", "headers": masked}}}
    )
    assert saved["data"]["save_notices"] == []  # same server, another path
    saved = api.set_config(
        patch={
            "mcpServers": {
                "notes": {
                    "url": "https://evil.example/mcp",
                    "headers": {"Authorization": MASK, "X-Team": "t-2"},
                }
            }
        }
    )
    assert (
        "Authorization" in saved["data"]["save_notices"][0]
        and "X-Team" not in saved["data"]["save_notices"][0]
    )
    assert api.get_config()["data"]["mcpServers"]["notes"]["headers"] == {"X-Team": MASK}
    assert "mcp-secret" not in (home / "settings.json").read_text()
    api.set_config(patch={"mcpServers": {"notes": {"url": "https://mcp.example/mcp", "headers": token}}})
    saved = api.set_config(
        patch={
            "mcpServers": {
                "notes": {"url": "https://other.example/mcp", "headers": masked, "keep_headers": True}
            }
        }
    )
    assert saved["data"]["save_notices"] == [] and "keep_headers" not in (home / "settings.json").read_text()
    assert "mcp-secret" in (home / "settings.json").read_text()


def test_a_refused_save_does_not_leave_a_header_drop_for_the_next_one(api):
    api.set_config(patch={"mcpServers": {"notes": {"url": "https://mcp.example/mcp", "headers": {"A": "1"}}}})
    bad = api.set_config(
        patch={"mcpServers": {"notes": {"url": "https://b.example/mcp", "enabled": "maybe"}}}
    )
    assert bad["ok"] is False
    api.set_config(patch={"agent": {"max_rounds": 4}})
    assert api.get_config()["data"]["mcpServers"]["notes"]["headers"] == {"A": MASK}


def test_origins_compare_scheme_host_and_port():
    assert origin("http://LocalHost:11434/v1") == origin("http://localhost:11434/api")
    assert origin("https://api.example.com/v1") == origin("https://api.example.com:443")
    assert origin("http://127.0.0.1:1234/v1") != origin("http://127.0.0.1:1235/v1")
    assert origin("http://example.com") != origin("https://example.com")


def test_the_embedding_endpoint_follows_the_same_rule(api):
    """Issue 31, N5: moving `embedding.base_url` kept the key, and the new host received it at the next
    start."""
    api.set_config(patch={"embedding": {"base_url": "https://embed.example/v1", "api_key": "ek-1"}})
    saved = api.set_config(
        patch={"embedding": {"base_url": "https://elsewhere.example/v1", "api_key": MASK}}
    )["data"]
    assert saved["embedding"]["api_key"] == "" and "embedding endpoint" in saved["save_notices"][0]


def test_test_connection_for_vision_sends_the_stored_key_only_to_the_address_it_was_entered_for(
    api, endpoints
):
    """Issue 33: the vision and transcription endpoints' Test connection reaches typed addresses."""
    a, b = endpoints
    api.set_config(patch={"vision": {"base_url": a.base_url, "api_key": "vk-1", "model": "llava"}})
    there = api.test_media_endpoint(kind="vision", base_url=a.base_url, api_key=MASK, model="llava")
    elsewhere = api.test_media_endpoint(kind="vision", base_url=b.base_url, api_key=MASK, model="llava")
    assert there["data"]["ok"] and elsewhere["data"]["ok"]
    assert a.headers[-1].get("Authorization") == "Bearer vk-1"
    assert b.headers[-1].get("Authorization") != "Bearer vk-1"
