"""Embedders turn chunk text into unit vectors.

`TransformerEmbedder` runs a transformers model with torch (CUDA when present, else CPU, fp32 under
`inference_mode`: the fastest CPU path measured here), mean-pools and normalises, batching texts of
similar length together so padding is not wasted. It loads lazily, so start-up never waits on it.
`HashingEmbedder` is a deterministic bag-of-words hash for fast tests: distinct texts get distinct
vectors and shared words raise cosine, so rankings still mean something.
`embed_endpoint.EndpointEmbedder` asks an OpenAI-compatible `/v1/embeddings` server instead
(`embedding.provider = "endpoint"`); `embedder_for(settings)` picks between them.
All count the texts they embedded (`embedded`), which is how tests and benchmarks prove that a
rename or an unchanged file costs zero embeddings.
"""

from __future__ import annotations

import hashlib
import itertools
import logging
import re
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np

if TYPE_CHECKING:  # torch and transformers load lazily, on the first embedding; the settings (pydantic,
    # ~0.1 CPU-s) with whoever holds them, not with this module's constants (the cold keyword peek reads
    # DEFAULT_MODEL through retrieval/relevance.py and must print within a second, issue 30)
    import torch
    from transformers import PreTrainedTokenizerBase

    from engine.config import EmbeddingSettings

log = logging.getLogger(__name__)

DEFAULT_MODEL = "all-MiniLM-L6-v2"


class Embedder(Protocol):
    name: str
    embedded: int

    @property
    def dim(self) -> int: ...  # read-only: an endpoint learns its size from its first answer

    def embed(self, texts: list[str]) -> np.ndarray: ...


class HashingEmbedder:
    """Feature-hashed word unigrams and bigrams, L2-normalised. No model, no randomness."""

    def __init__(self, dim: int = 384):
        self.name = f"hashing-{dim}"
        self.dim = dim
        self.embedded = 0

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            words = re.findall(r"\w+", text.lower())
            for feature in words + [a + " " + b for a, b in itertools.pairwise(words)]:
                digest = hashlib.blake2b(feature.encode(), digest_size=8).digest()
                idx = int.from_bytes(digest[:4], "little") % self.dim
                out[row, idx] += 1.0 if digest[4] & 1 else -1.0
            norm = np.linalg.norm(out[row])
            if norm == 0:
                out[row, row % self.dim] = 1.0
            else:
                out[row] /= norm
        self.embedded += len(texts)
        return out


def pick_device(preference: str = "auto") -> str:
    import torch

    if preference == "cuda" or (preference == "auto" and torch.cuda.is_available()):
        return "cuda" if torch.cuda.is_available() else "cpu"
    return "cpu"


def resolve_model_dir(model: str) -> Path:
    """The packaged default by name, or a local folder holding a transformers model (never a hub id)."""
    if model in (DEFAULT_MODEL, "sentence-transformers/" + DEFAULT_MODEL):
        from engine.resources import default_model_dir

        return default_model_dir()
    path = Path(model).expanduser()
    if not (path / "config.json").exists():
        raise FileNotFoundError(
            f"Embedding model {model!r} is not a local model folder (no config.json). "
            f"Use {DEFAULT_MODEL!r} or the path of a downloaded transformers model."
        )
    return path


class TransformerEmbedder:
    """A sentence-embedding transformer with mean pooling; loaded on first use, thread-safe."""

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        device: str = "auto",
        quantize: str = "none",
        batch_size: int = 32,
        max_length: int = 256,
    ):
        self.name = model if quantize == "none" else f"{model}+{quantize}"
        self.model_ref = model
        self.device_pref = device
        self.quantize = quantize
        self.batch_size = batch_size
        self.max_length = max_length
        self.embedded = 0
        self.dim = _configured_dim(model)
        self._lock = threading.Lock()
        self._model: torch.nn.Module | None = None
        self._tokenizer: PreTrainedTokenizerBase | None = None
        self.device = "cpu"

    def load(self) -> None:
        with self._lock:
            if self._model is not None:
                return
            import torch
            from transformers import AutoModel, AutoTokenizer
            from transformers.utils import logging as hf_logging

            hf_logging.disable_progress_bar()  # a console progress bar is noise in a desktop app's output

            path = resolve_model_dir(self.model_ref)
            self.device = pick_device(self.device_pref)
            tokenizer = AutoTokenizer.from_pretrained(str(path), local_files_only=True)
            model = AutoModel.from_pretrained(str(path), local_files_only=True).eval()
            if self.quantize == "int8" and self.device == "cpu":
                model = torch.ao.quantization.quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8)
            model.to(self.device)
            self.dim = int(model.config.hidden_size)
            self._tokenizer, self._model = tokenizer, model
            log.info("embedding model %s loaded on %s", path, self.device)

    def embed(self, texts: list[str]) -> np.ndarray:
        self.load()
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))  # similar lengths share a batch
        for start in range(0, len(order), self.batch_size):
            idx = order[start : start + self.batch_size]
            out[idx] = self._forward([texts[i] for i in idx])
        self.embedded += len(texts)
        return out

    def _forward(self, batch: list[str]) -> np.ndarray:
        import torch

        assert self._tokenizer is not None and self._model is not None
        enc = self._tokenizer(
            batch, padding=True, truncation=True, max_length=self.max_length, return_tensors="pt"
        ).to(self.device)
        with torch.inference_mode():
            hidden = self._model(**enc).last_hidden_state
            mask = enc["attention_mask"].unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            pooled = torch.nn.functional.normalize(pooled, p=2, dim=1)
        return pooled.float().cpu().numpy()


def _configured_dim(model: str) -> int:
    """The model's output size from its config.json, read without loading the weights."""
    import json

    try:
        config = json.loads((resolve_model_dir(model) / "config.json").read_text(encoding="utf-8"))
        return int(config.get("hidden_size", 384))
    except (OSError, ValueError, ImportError):
        return 384


def make_embedder(
    model: str = DEFAULT_MODEL, device: str = "auto", quantize: str = "none", batch_size: int = 32
) -> Embedder:
    if model.startswith("hashing"):
        return HashingEmbedder(int(model.split("-")[1]) if "-" in model else 384)
    return TransformerEmbedder(model, device, quantize, batch_size)


def embedder_named(name: str, settings: EmbeddingSettings, dims_file: Path | None = None) -> Embedder:
    """The embedder an index was built with, from its name (the ACTIVE marker) and the settings."""
    from engine.embed_endpoint import ENDPOINT_PREFIX, EndpointEmbedder

    if name.startswith(ENDPOINT_PREFIX):
        return EndpointEmbedder(
            settings.base_url,
            name.removeprefix(ENDPOINT_PREFIX),
            settings.api_key,
            dims_file=dims_file,
            batch_size=max(settings.batch_size, 1),
        )
    model, _, quantize = name.partition("+")
    return make_embedder(model, settings.device, quantize or "none", settings.batch_size)


def embedder_for(settings: EmbeddingSettings, dims_file: Path | None = None) -> Embedder:
    """The embedder the settings ask for: the local model, or the endpoint's (`embedding.provider`)."""
    if settings.provider == "endpoint":
        from engine.embed_endpoint import endpoint_name

        return embedder_named(endpoint_name(settings.model), settings, dims_file)
    return make_embedder(settings.model, settings.device, settings.quantize, settings.batch_size)
