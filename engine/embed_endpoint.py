"""Embeddings from an OpenAI-compatible `/v1/embeddings` endpoint (Ollama's `nomic-embed-text` or `bge-m3`
for multilingual folders, LM Studio, llama.cpp server, a hosted API) instead of the packaged model.

The vector index needs the dimension before the first chunk is stored, so it is probed once (one
short text) and remembered in `dims.json` beside the vector indexes: a restart with the endpoint down
still opens the index, and the endpoint is only needed again when something is embedded. Vectors are
L2-normalised here, because not every server normalises them and search uses cosine. Failures raise
`EndpointError` naming the endpoint and what to do; the indexer records them on the file like any
other failure and retries it later.
"""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path

import httpx
import numpy as np

from engine.errors import EndpointError

log = logging.getLogger(__name__)

BATCH = 64
PROBE_TEXT = "SenseTree dimension probe"


ENDPOINT_PREFIX = "endpoint:"


def endpoint_name(model: str) -> str:
    """The embedder's name: what the vectors folder and the ACTIVE marker are keyed by (the model, not
    the URL, so moving the server to another port does not re-embed everything)."""
    return ENDPOINT_PREFIX + model


class EndpointEmbedder:
    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str = "",
        *,
        dims_file: Path | None = None,
        timeout_s: float = 60.0,
        batch_size: int = BATCH,
    ):
        if not model:
            raise EndpointError("Embedding from an endpoint needs a model name (Settings → Embedding).")
        self.name = endpoint_name(model)
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.batch_size = max(1, batch_size)
        self.embedded = 0
        self._dims_file = dims_file
        self._dim: int | None = self._remembered_dim()
        self._lock = threading.Lock()
        self._timeout_s = timeout_s
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}

    @property
    def dim(self) -> int:
        if self._dim is None:
            with self._client() as client:
                self._dim = int(self._request(client, [PROBE_TEXT]).shape[1])
            self._remember_dim(self._dim)
        return self._dim

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._client() as client:  # one connection per call: nothing is left open between calls
            blocks = [
                self._request(client, texts[i : i + self.batch_size])
                for i in range(0, len(texts), self.batch_size)
            ]
        if len({block.shape[1] for block in blocks}) > 1:
            raise EndpointError(
                f"The embedding endpoint {self.base_url} returned vectors of different sizes for "
                f"{self.model!r} in one request; check the model on the server."
            )
        out = np.concatenate(blocks)
        self.embedded += len(texts)
        return out

    # ---- internals ----------------------------------------------------------------------------
    def _client(self) -> httpx.Client:
        return httpx.Client(timeout=self._timeout_s, headers=self._headers)

    def _request(self, client: httpx.Client, texts: list[str]) -> np.ndarray:
        url = f"{self.base_url}/embeddings"
        try:
            response = client.post(url, json={"model": self.model, "input": texts})
        except httpx.HTTPError as exc:
            raise EndpointError(
                f"Cannot reach the embedding endpoint at {self.base_url} ({type(exc).__name__}). "
                f"Is the server running? Check Settings → Embedding."
            ) from exc
        if response.status_code != 200:
            raise EndpointError(
                f"The embedding endpoint {self.base_url} refused model {self.model!r} "
                f"({response.status_code}): {response.text[:200]}. Check Settings → Embedding."
            )
        try:
            rows = sorted(response.json()["data"], key=lambda d: d.get("index", 0))
            vectors = np.asarray([row["embedding"] for row in rows], dtype=np.float32)
        except (ValueError, KeyError, TypeError) as exc:
            raise EndpointError(
                f"The embedding endpoint {self.base_url} did not answer in the OpenAI "
                f"/v1/embeddings format. Check its base URL in Settings → Embedding."
            ) from exc
        if vectors.ndim != 2 or len(vectors) != len(texts):
            raise EndpointError(
                f"The embedding endpoint {self.base_url} returned {len(vectors)} vectors for "
                f"{len(texts)} texts."
            )
        if self._dim is not None and vectors.shape[1] != self._dim:
            raise EndpointError(
                f"The embedding endpoint {self.base_url} now returns {vectors.shape[1]}-d vectors for "
                f"{self.model!r}, but the index holds {self._dim}-d ones. Pick the model the index "
                f"was built with, or switch models in Settings → Embedding to re-embed."
            )
        if not np.isfinite(vectors).all():  # NaN or infinity: no distance means anything (issue 31, N6)
            raise EndpointError(
                f"The embedding endpoint {self.base_url} returned vectors with missing values (NaN or "
                f"infinity) for {self.model!r}; SenseTree does not store them. Check the model on the server."
            )
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.where(norms == 0, 1.0, norms)

    def _remembered_dim(self) -> int | None:
        try:
            return (
                int(json.loads(self._dims_file.read_text(encoding="utf-8"))[self.name])
                if self._dims_file
                else None
            )
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def _remember_dim(self, dim: int) -> None:
        if self._dims_file is None:
            return
        with self._lock:
            try:
                known = json.loads(self._dims_file.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                known = {}
            known[self.name] = dim
            self._dims_file.parent.mkdir(parents=True, exist_ok=True)
            tmp = self._dims_file.with_suffix(".tmp")
            tmp.write_text(json.dumps(known), encoding="utf-8")
            tmp.replace(self._dims_file)
