"""`sensetree config get [KEY]` / `sensetree config set KEY VALUE`, with dotted keys (`reasoning.base_url`).

Through the running SenseTree when there is one, so a change takes effect there at once and is not
overwritten by its next save. With none running, `get` reads the settings file alone (a fraction of a
second, secrets masked as the app shows them); `set` opens the Engine, because a change can have
consequences that need it (an embedding model switch re-embeds, a new endpoint is probed, an API key
is only sent where it was entered).

JSON edge: the settings as JSON (`plain`), and the settings patch built from `key=value` arguments.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from cli.context import Context, plain


def add_parser(subparsers: Any, context: Context) -> None:
    p = subparsers.add_parser("config", help="read or change a setting (dotted keys: reasoning.base_url)")
    p.add_argument("action", choices=["get", "set"])
    p.add_argument("key", nargs="?")
    p.add_argument("value", nargs="?")
    p.set_defaults(func=lambda args: run(args, context, sys.stdout, sys.stderr))


def run(args: argparse.Namespace, context: Context, out: TextIO, err: TextIO) -> int:
    if args.action == "get":
        return _get(args.key, _current(context), out, err)
    if not args.key or args.value is None:
        print("Usage: sensetree config set KEY VALUE", file=err)
        return 2
    patch: dict[str, Any] = {}
    cursor = patch
    parts = args.key.split(".")
    for part in parts[:-1]:
        cursor = cursor.setdefault(part, {})
    cursor[parts[-1]] = parse_value(args.value)
    with context.engine() as engine:
        result = plain(engine.set_config(patch=patch))
    print(f"{args.key} set.", file=out)
    for notice in result.get("save_notices", []):  # e.g. an API key not sent to a new address
        print(notice, file=out)
    return 0


def _current(context: Context) -> dict[str, Any]:
    remote = context.running()
    if remote is not None:
        return dict(remote.get_config())
    from engine.config import load_settings, masked

    settings = load_settings(context.home())
    if settings.load_warning:
        print(f"Notice: {settings.load_warning}", file=sys.stderr)
    return masked(settings)


def _get(key: str | None, config: dict[str, Any], out: TextIO, err: TextIO) -> int:
    value: Any = config
    for part in key.split(".") if key else []:
        if not isinstance(value, dict) or part not in value:
            print(f"Unknown setting: {key}", file=err)
            return 2
        value = value[part]
    print(json.dumps(value, indent=2, ensure_ascii=False), file=out)
    return 0


def parse_value(text: str) -> Any:
    """A JSON value where the text is one (`true`, `3`, `{"a": 1}`), else the text itself."""
    try:
        return json.loads(text)
    except ValueError:
        return text
