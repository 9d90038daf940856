"""API keys in the OS keyring, the settings file holding only a reference (`keyring:sensetree/reasoning`).

Where no keyring backend works (a headless Linux without a Secret Service, CI: keyring's `fail`
backend raises) the key stays in settings.json, which is 0600 in a 0700 folder (engine/privacy.py);
docs/privacy.md says so. A reference whose key cannot be read stays in the settings as the reference
itself, so saving the settings never loses it; the person is told to enter the key again.

JSON edge: the settings file's JSON, whose API keys move to and from the keyring here.
"""

from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger(__name__)

SERVICE = "sensetree"
PREFIX = "keyring:"
# The settings sections that carry an `api_key`: the one list the keyring, the key guard
# (engine/key_guard.py) and the masked view (engine/config.py) all use, so no key is left out of one
# of them (issue 31, N5: the embedding endpoint's key was outside the guard and the keyring).
SECTIONS = ("reasoning", "rerank", "embedding", "vision", "transcription")


def reference(section: str) -> str:
    return f"{PREFIX}{SERVICE}/{section}"


def is_reference(value: object) -> bool:
    return isinstance(value, str) and value.startswith(PREFIX)


def resolve(data: dict[str, Any]) -> list[str]:
    """Replace keyring references in raw settings `data` by the keys; returns a warning per key not found."""
    warnings = []
    for section in SECTIONS:
        bag = data.get(section)
        value = bag.get("api_key") if isinstance(bag, dict) else None
        if not is_reference(value):
            continue
        assert isinstance(bag, dict) and isinstance(value, str)
        service, _, user = value[len(PREFIX) :].partition("/")
        try:
            import keyring

            key = keyring.get_password(service, user)
        except Exception as exc:  # noqa: BLE001 - any backend failure means the same to the person
            key, why = None, f"the system keyring could not be read ({type(exc).__name__}: {exc})"
        else:
            why = "the system keyring has no such entry"
        if key is None:
            warnings.append(
                f"The {section} API key is kept in the system keyring, but {why}; enter the key "
                f"again in Settings → {section.capitalize()}."
            )
            continue
        bag["api_key"] = key
    return warnings


def protect(data: dict[str, Any]) -> dict[str, Any]:
    """The settings as written to disk: every key moved to the keyring where one works."""
    for section in SECTIONS:
        bag = data.get(section)
        if not isinstance(bag, dict):
            continue
        key = bag.get("api_key") or ""
        if is_reference(key):
            continue
        if not key:
            _forget(section)
            continue
        if _store(section, key):
            bag["api_key"] = reference(section)
    return data


def _store(section: str, key: str) -> bool:
    try:
        import keyring

        if keyring.get_password(SERVICE, section) != key:
            keyring.set_password(SERVICE, section, key)
        return True
    except Exception as exc:  # noqa: BLE001 - no usable backend: keep the key in the private settings file
        log.info(
            "no usable keyring (%s: %s); the %s key stays in the settings file (0600)",
            type(exc).__name__,
            exc,
            section,
        )
        return False


def _forget(section: str) -> None:
    try:
        import keyring

        if keyring.get_password(SERVICE, section) is not None:
            keyring.delete_password(SERVICE, section)
    except Exception as exc:  # noqa: BLE001 - nothing stored, or no backend: nothing to forget
        log.debug("keyring: nothing to forget for %s (%s)", section, exc)
