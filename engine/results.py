"""The base of typed IPC results: a frozen pydantic model whose unset optional keys stay absent.

The page and the CLI were written against dicts in which an optional key (`rollback`, `committed_at`)
is missing rather than null. A result model keeps that JSON byte for byte: an optional field (one
with a default) left `None` is dropped when `bridge.to_jsonable` dumps it (it calls
`model_dump(mode="json")`), while a required field is always sent, null included; so converting a
dict to a model changes the engine's types, not what the page receives.

JSON edge: the serializer's output is a command result's JSON, which the bridge sends as it is.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, SerializerFunctionWrapHandler, model_serializer


class Result(BaseModel):
    """A typed result; declare optional keys as `X | None = None` and they are absent when None
    (a required `X | None` field is sent as null)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    @model_serializer(mode="wrap")
    def _absent_when_none(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        fields = type(self).model_fields
        return {
            key: value
            for key, value in handler(self).items()
            if value is not None or (key in fields and fields[key].is_required())
        }


class Done(Result):
    """`{ok: true}`: what a command that only acts answers when it acted (discard, delete, stop, approve…);
    a refusal is an error, never `ok: false`."""

    ok: bool = True


class GpuInfo(Result):
    """`gpu_available`: whether CUDA can embed, and the device's name when it can."""

    cuda: bool
    device_name: str | None = None
