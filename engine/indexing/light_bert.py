"""A BERT sentence encoder in NumPy, for embedding one query without torch and transformers.

Why: `sensetree search` with no SenseTree running embeds one short query and exits. Importing torch and
transformers and building the model costs most of that command's time (issue 12: ~13 s on 2 cores, of
which the model libraries are the larger part), while the forward pass of a 10-token query through
MiniLM-L6 is a few small matrix products. This module does exactly the arithmetic of transformers'
`BertModel` (absolute positions, exact erf GELU, post-layer-norm) followed by the mean pooling and L2
normalisation of `TransformerEmbedder`, reading the same `model.safetensors` and `tokenizer.json`, so
its vectors equal the torch model's to float32 rounding (tests/indexing/test_light_bert.py compares
them). Batches for the index still go through torch, which is faster for many texts; a model this
module does not support (not a BERT, no safetensors or tokenizer.json) simply does not get it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

FILES = ("config.json", "model.safetensors", "tokenizer.json")


def supports(model_dir: Path) -> bool:
    """True when the model in `model_dir` is a plain BERT this encoder computes exactly."""
    if not all((model_dir / name).is_file() for name in FILES):
        return False
    try:
        config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return (
        config.get("model_type") == "bert"
        and config.get("hidden_act") == "gelu"
        and config.get("position_embedding_type", "absolute") == "absolute"
    )


def _erf(x: np.ndarray) -> np.ndarray:
    """erf to ~1e-7 absolute (Abramowitz & Stegun 7.1.26), below float32's resolution near 1."""
    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    return sign * (1.0 - poly * np.exp(-a * a))


def _gelu(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1.0 + _erf(x / np.sqrt(2.0)))


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


class LightBert:
    """`embed(texts)`: mean-pooled, L2-normalised BERT vectors, one text at a time."""

    def __init__(self, model_dir: Path, max_length: int = 256):
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
        self._heads = int(config["num_attention_heads"])
        self._layers = int(config["num_hidden_layers"])
        self._eps = float(config.get("layer_norm_eps", 1e-12))
        self.dim = int(config["hidden_size"])
        self._w: dict[str, Any] = {
            k.removeprefix("bert."): v.astype(np.float32, copy=False)
            for k, v in load_file(str(model_dir / "model.safetensors")).items()
        }
        self._tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self._tokenizer.no_padding()  # one text: no padding, as transformers' padding=True gives
        self._tokenizer.enable_truncation(max_length)

    def embed(self, texts: list[str]) -> np.ndarray:
        return np.stack([self._one(text) for text in texts]).astype(np.float32)

    def _one(self, text: str) -> np.ndarray:
        w = self._w
        enc = self._tokenizer.encode(text)
        ids, types = np.array(enc.ids), np.array(enc.type_ids)
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][: len(ids)]
            + w["embeddings.token_type_embeddings.weight"][types]
        )
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], self._eps)
        for layer in range(self._layers):
            x = self._block(x, f"encoder.layer.{layer}.")
        pooled = x.mean(0)  # every token is real (no padding), so the masked mean is the plain mean
        return pooled / max(float(np.linalg.norm(pooled)), 1e-12)

    def _dense(self, x: np.ndarray, name: str) -> np.ndarray:
        return x @ self._w[name + ".weight"].T + self._w[name + ".bias"]

    def _block(self, x: np.ndarray, p: str) -> np.ndarray:
        n, d = x.shape
        h = self._heads

        def heads(t: np.ndarray) -> np.ndarray:
            return t.reshape(n, h, d // h).transpose(1, 0, 2)

        q = heads(self._dense(x, p + "attention.self.query"))
        k = heads(self._dense(x, p + "attention.self.key"))
        v = heads(self._dense(x, p + "attention.self.value"))
        scores = q @ k.transpose(0, 2, 1) / np.sqrt(d // h)
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        context = (scores / scores.sum(-1, keepdims=True)) @ v
        attended = self._dense(context.transpose(1, 0, 2).reshape(n, d), p + "attention.output.dense")
        x = _layer_norm(
            attended + x,
            self._w[p + "attention.output.LayerNorm.weight"],
            self._w[p + "attention.output.LayerNorm.bias"],
            self._eps,
        )
        inner = _gelu(self._dense(x, p + "intermediate.dense"))
        out = self._dense(inner, p + "output.dense")
        return _layer_norm(
            out + x, self._w[p + "output.LayerNorm.weight"], self._w[p + "output.LayerNorm.bias"], self._eps
        )
