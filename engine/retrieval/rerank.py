"""The optional rerank stage: re-score the head of the fused list with a model that reads query and
text together.

Two kinds exist: a cross-encoder loaded with transformers from a LOCAL folder (no PyPI package ships
one's weights, so nothing is downloaded), and an OpenAI-style `/rerank` endpoint (Cohere, Jina,
vLLM, llama.cpp and TEI speak it). Both return probabilities in [0, 1], which hybrid search passes
on as the result score. With `rerank.kind == "off"` (the default) there is no rerank stage at all —
never a pretend one.
"""

from __future__ import annotations

import logging
import math
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from engine.config import RerankSettings
from engine.errors import ConfigError, EndpointError, ModelError

if TYPE_CHECKING:  # httpx (with the CLI modules it imports) loads with an endpoint reranker, not at start-up
    import httpx

log = logging.getLogger(__name__)


class Reranker(Protocol):
    name: str

    def score(self, query: str, texts: list[str]) -> list[float]:
        """One relevance probability in [0, 1] per text, in the order given."""
        ...


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x)) if x >= 0 else math.exp(x) / (1.0 + math.exp(x))


class CrossEncoderReranker:
    """A transformers sequence-classification model (one logit) from a local folder, loaded on first use."""

    def __init__(
        self, model_path: str | Path, device: str = "cpu", batch_size: int = 16, max_length: int = 512
    ):
        self.path = Path(model_path).expanduser()
        if not (self.path / "config.json").exists():
            raise ConfigError(
                f"The cross-encoder folder {self.path} has no config.json; "
                "download a cross-encoder (e.g. ms-marco-MiniLM-L-6-v2) and point rerank.model_path at it."
            )
        self.name = f"cross-encoder:{self.path.name}"
        self.device = device
        self.batch_size = batch_size
        self.max_length = max_length
        self._lock = threading.Lock()
        self._model: Any = None
        self._tokenizer: Any = None

    def _load(self) -> None:
        with self._lock:
            if self._model is not None:
                return
            from transformers import AutoModelForSequenceClassification, AutoTokenizer

            try:
                self._tokenizer = AutoTokenizer.from_pretrained(str(self.path), local_files_only=True)
                model = AutoModelForSequenceClassification.from_pretrained(
                    str(self.path), local_files_only=True
                )
            except (OSError, ValueError) as exc:
                raise ModelError(f"The cross-encoder in {self.path} could not be loaded: {exc}") from exc
            self._model = model.eval().to(self.device)

    def score(self, query: str, texts: list[str]) -> list[float]:
        import torch

        self._load()
        scores: list[float] = []
        for start in range(0, len(texts), self.batch_size):
            batch = texts[start : start + self.batch_size]
            enc = self._tokenizer(
                [query] * len(batch),
                batch,
                padding=True,
                truncation=True,
                max_length=self.max_length,
                return_tensors="pt",
            ).to(self.device)
            with torch.inference_mode():
                logits = self._model(**enc).logits
            column = logits[:, -1] if logits.shape[-1] > 1 else logits[:, 0]
            scores.extend(_sigmoid(float(x)) for x in column.float().cpu())
        return scores


class EndpointReranker:
    """POST {base_url}/rerank {model, query, documents} → {results: [{index, relevance_score}]}."""

    def __init__(
        self,
        base_url: str,
        api_key: str = "",
        model: str = "",
        timeout_s: float = 30.0,
        transport: httpx.BaseTransport | None = None,
    ):
        if not base_url:
            raise ConfigError(
                "rerank.base_url is empty; set it to the endpoint's /v1 address, or turn rerank off."
            )
        self.url = base_url.rstrip("/") + "/rerank"
        self.model = model
        self.name = f"endpoint:{model or self.url}"
        import httpx

        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(timeout=timeout_s, headers=headers, transport=transport)

    def score(self, query: str, texts: list[str]) -> list[float]:
        if not texts:
            return []
        import httpx

        payload = {"model": self.model, "query": query, "documents": texts, "top_n": len(texts)}
        try:
            response = self._client.post(self.url, json=payload)
        except httpx.HTTPError as exc:
            raise EndpointError(
                f"The rerank endpoint {self.url} could not be reached ({exc}); "
                "check rerank.base_url or turn rerank off."
            ) from exc
        if response.status_code != 200:
            raise EndpointError(
                f"The rerank endpoint {self.url} answered HTTP {response.status_code}: "
                f"{response.text[:200]}; check rerank.model and rerank.api_key."
            )
        return self._parse(response, len(texts))

    def _parse(self, response: httpx.Response, count: int) -> list[float]:
        try:
            results = response.json()["results"]
            scores = [0.0] * count
            for item in results:
                scores[int(item["index"])] = float(item["relevance_score"])
        except (ValueError, KeyError, TypeError, IndexError) as exc:
            raise EndpointError(
                f"The rerank endpoint {self.url} answered in an unexpected shape ({exc}); "
                "it must return {results: [{index, relevance_score}]}."
            ) from exc
        if any(s < 0.0 or s > 1.0 for s in scores):  # some servers return raw logits
            scores = [_sigmoid(s) for s in scores]
        return scores

    def close(self) -> None:
        self._client.close()


def make_reranker(settings: RerankSettings) -> Reranker | None:
    """The reranker the settings ask for, or None when rerank is off (the default)."""
    if settings.kind == "off":
        return None
    if settings.kind == "cross-encoder":
        return CrossEncoderReranker(settings.model_path)
    return EndpointReranker(settings.base_url, settings.api_key, settings.model)
