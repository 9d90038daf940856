"""The NumPy query encoder gives the torch model's vectors, and embedding a query with it needs no torch."""

from __future__ import annotations

import json

import numpy as np
import pytest

from engine.indexing.embed import TransformerEmbedder
from engine.indexing.light_bert import LightBert, supports
from engine.resources import default_model_dir
from tests.cli.helpers import run_python

QUERIES = [
    "orchard budget",
    "vitamin K deficiency in newborns",
    "Ünïcödé café naïve résumé 東京",  # the tokenizer's normaliser and Chinese-character splitting
    "word " * 400,  # past max_length: truncated like transformers truncates
]


@pytest.mark.model
def test_the_numpy_encoder_gives_the_torch_models_vectors():
    light = LightBert(default_model_dir())
    torch_model = TransformerEmbedder()
    for query in QUERIES:
        ours, theirs = light.embed([query])[0], torch_model.embed([query])[0]
        assert float(ours @ theirs) > 0.99999, query
        assert np.abs(ours - theirs).max() < 1e-5, query


def test_a_model_that_is_not_a_plain_bert_gets_no_light_path(tmp_path):
    assert supports(default_model_dir())
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "xlm-roberta", "hidden_act": "gelu"}))
    (tmp_path / "model.safetensors").write_bytes(b"")
    (tmp_path / "tokenizer.json").write_text("{}")
    assert not supports(tmp_path)
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "bert", "hidden_act": "gelu"}))
    assert supports(tmp_path)
    (tmp_path / "tokenizer.json").unlink()
    assert not supports(tmp_path)


NO_TORCH = """
import json, sys
from engine.indexing.embed import TransformerEmbedder
from engine.retrieval.query_embedding import QueryEmbedder
embedder, queries = TransformerEmbedder(), QueryEmbedder()
vector = queries.embed(embedder, "orchard budget")
queries.close()
print(json.dumps({"dim": len(vector), "norm": float((vector ** 2).sum()), "embedded": embedder.embedded,
                  "loaded": sorted({m.split(".")[0] for m in sys.modules} & {"torch", "transformers"})}))
"""


@pytest.mark.model
def test_a_process_that_never_loaded_the_model_embeds_its_query_without_torch():
    done = run_python(NO_TORCH)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.splitlines()[-1])
    assert report["loaded"] == [] and report["dim"] == 384 and report["embedded"] == 1
    assert abs(report["norm"] - 1.0) < 1e-5


@pytest.mark.model
def test_once_the_model_is_loaded_queries_go_through_it():
    embedder = TransformerEmbedder()
    embedder.load()
    vector = embedder.embed_query("orchard budget")
    assert embedder._light is None  # never built: the warm torch model answered
    assert float(vector @ embedder.embed(["orchard budget"])[0]) > 0.99999
