"""Embedders.  The default runs offline, downloads nothing and is deterministic.

``hash-v1``: signed feature hashing of normalised word tokens (split on snake_case/camelCase,
lightly stemmed, with a small table of developer synonyms) plus character trigrams at a lower
weight.  It is lexical, not semantic -- fine for matching a developer's question against a
fact's subject, path and purpose text, which share its vocabulary.  The embedder's name is
recorded in the store and a store opened with another embedder is an error.
"""

from __future__ import annotations

import hashlib
import math
from typing import Protocol

from repomem.core.tokens import tokens

DIM = 256


def _bucket(feature: str) -> tuple[int, float]:
    h = hashlib.blake2b(feature.encode(), digest_size=8).digest()
    n = int.from_bytes(h, "little")
    return n % DIM, (1.0 if (n >> 63) & 1 else -1.0)


class Embedder(Protocol):
    name: str

    def embed(self, texts: list[str]) -> list[list[float]]: ...


class HashEmbedder:
    name = f"hash-v1-{DIM}"

    def __init__(self) -> None:
        self._memo: dict[str, tuple[int, float]] = {}

    def _feat(self, f: str) -> tuple[int, float]:
        hit = self._memo.get(f)
        if hit is None:
            hit = self._memo[f] = _bucket(f)
        return hit

    def embed_one(self, text: str) -> list[float]:
        vec = [0.0] * DIM
        for tok in tokens(text):
            i, s = self._feat("w:" + tok)
            vec[i] += s
            if len(tok) >= 5:
                for j in range(len(tok) - 2):
                    i, s = self._feat("c:" + tok[j:j + 3])
                    vec[i] += 0.25 * s
        norm = math.sqrt(sum(x * x for x in vec))
        if norm == 0:
            vec[0] = 1.0  # Chroma rejects an all-zero vector under cosine distance
            return vec
        return [x / norm for x in vec]

    def embed(self, texts: list[str]) -> list[list[float]]:
        return [self.embed_one(t) for t in texts]


def get_embedder(spec: str | None):
    """``hash`` (default) or ``ollama:MODEL``."""
    if not spec or spec in ("hash", HashEmbedder.name):
        return HashEmbedder()
    if spec.startswith("ollama:"):
        from repomem.adapters.ollama_client import OllamaEmbedder

        return OllamaEmbedder(spec.split(":", 1)[1])
    from repomem.core.errors import RepomemError

    raise RepomemError(f"unknown embedder: {spec}", hint="use 'hash' or 'ollama:MODEL'")
