"""Embedders.  The default runs offline, downloads nothing and is deterministic.

``hash-v1``: signed feature hashing of normalised word tokens (split on snake_case/camelCase,
lightly stemmed, with a small table of developer synonyms) plus character trigrams at a lower
weight.  It is lexical, not semantic -- fine for matching a developer's question against a
fact's subject, path and purpose text, which share its vocabulary.  The embedder's name is
recorded in the store and a store opened with another embedder is an error.
"""

from __future__ import annotations

import functools
import hashlib
import math
from typing import Callable, Protocol

from repomem.core.tokens import tokens

DIM = 256


@functools.lru_cache(maxsize=1 << 18)
def _bucket(feature: str) -> tuple[int, float]:
    h = hashlib.blake2b(feature.encode(), digest_size=8).digest()
    n = int.from_bytes(h, "little")
    return n % DIM, (1.0 if (n >> 63) & 1 else -1.0)


@functools.lru_cache(maxsize=1 << 17)  # a history repeats its words
def _token_terms(tok: str) -> tuple[tuple[int, float], ...]:
    """A token's additions to the vector, in order: its word feature, then its trigrams at a
    quarter weight."""
    terms = [_bucket("w:" + tok)]
    if len(tok) >= 5:
        for j in range(len(tok) - 2):
            i, s = _bucket("c:" + tok[j:j + 3])
            terms.append((i, 0.25 * s))
    return tuple(terms)


class Embedder(Protocol):
    name: str

    def embed(self, texts: list[str]) -> list[list[float]]: ...


class HashEmbedder:
    name = f"hash-v1-{DIM}"

    def embed_one(self, text: str) -> list[float]:
        vec = [0.0] * DIM
        for tok in tokens(text):
            for i, s in _token_terms(tok):
                vec[i] += s
        norm = math.sqrt(sum(x * x for x in vec))
        if norm == 0:
            vec[0] = 1.0  # Chroma rejects an all-zero vector under cosine distance
            return vec
        return [x / norm for x in vec]

    def embed(self, texts: list[str]) -> list[list[float]]:
        return [self.embed_one(t) for t in texts]


# -- the registry: embedders by name ---------------------------------------------------------------
# A spec is NAME or NAME:ARG (on the command line, or the name a store records).  A factory gets ARG,
# or None when the spec has no colon.  Third-party embedders are entry points of the group below
# (``[project.entry-points."repomem.embedders"] mine = "pkg.module:factory"``), loaded only when a
# spec names one, the way simonw/llm finds its model plugins.
ENTRY_POINT_GROUP = "repomem.embedders"
Factory = Callable[[str | None], Embedder]
EMBEDDERS: dict[str, Factory] = {}


def register_embedder(name: str, factory: Factory) -> None:
    """Make ``name`` (and ``name:ARG``) a spec that get_embedder resolves."""
    EMBEDDERS[name] = factory


def _unknown(spec: str) -> Exception:
    from repomem.core.errors import RepomemError

    return RepomemError(f"unknown embedder: {spec}", hint="use 'hash' or 'ollama:MODEL'")


def _factory(name: str) -> Factory | None:
    if name not in EMBEDDERS:
        from importlib.metadata import entry_points

        for ep in entry_points(group=ENTRY_POINT_GROUP, name=name):
            try:
                EMBEDDERS[name] = ep.load()
            except Exception as e:  # a broken plugin: one line naming it, not a traceback
                from repomem.core.errors import RepomemError

                raise RepomemError(f"embedder {name!r} ({ep.value}) failed to load: {e}",
                                   hint="reinstall or remove the package that provides it") from None
            break
    return EMBEDDERS.get(name)


def get_embedder(spec: str | None) -> Embedder:
    """``hash`` (default), ``ollama:MODEL``, or any registered name."""
    if not spec:
        return HashEmbedder()
    factory = _factory(spec)
    if factory is not None:
        return factory(None)
    name, sep, arg = spec.partition(":")
    factory = _factory(name) if sep else None
    if factory is None:
        raise _unknown(spec)
    return factory(arg)


def _hash(arg: str | None) -> Embedder:
    if arg is not None:
        raise _unknown(f"hash:{arg}")
    return HashEmbedder()


def _ollama(arg: str | None) -> Embedder:
    if arg is None:
        raise _unknown("ollama")
    from repomem.adapters.ollama_client import OllamaEmbedder

    return OllamaEmbedder(arg)


register_embedder("hash", _hash)
register_embedder(HashEmbedder.name, _hash)  # the name a store records
register_embedder("ollama", _ollama)
