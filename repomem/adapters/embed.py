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


@functools.lru_cache(maxsize=1 << 17)
def _token_columns(tok: str) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """``_token_terms`` as two columns (buckets, weights), for ``HashEmbedder.embed``."""
    terms = _token_terms(tok)
    return tuple(i for i, _ in terms), tuple(s for _, s in terms)


class HashEmbedder:
    name = f"hash-v1-{DIM}"

    def embed_one(self, text: str) -> list[float]:
        return self.embed([text])[0]

    def embed(self, texts: list[str]) -> list[list[float]]:
        return self._rows(texts).tolist()

    def matrix(self, texts: list[str]):
        """``embed`` as a float32 numpy array (one row a text), without a million floats in
        Python lists in between."""
        import numpy as np

        return self._rows(texts).astype(np.float32)

    def _rows(self, texts: list[str]):
        """Each text's terms summed into its row by one ``bincount`` over all of them (in the
        order they come, as a loop adding them one by one would: the same sums), then each row
        scaled to unit length.  A tree's thousands of facts take a fraction of a Python loop's
        time."""
        import numpy as np

        buckets: list[int] = []
        weights: list[float] = []
        counts = []
        for text in texts:
            n = len(buckets)
            for tok in tokens(text):
                b, w = _token_columns(tok)
                buckets += b
                weights += w
            counts.append(len(buckets) - n)
        where = np.repeat(np.arange(len(texts), dtype=np.int64) * DIM, counts) + \
            np.asarray(buckets, dtype=np.int64)
        m = np.bincount(where, weights=np.asarray(weights, dtype=np.float64),
                        minlength=len(texts) * DIM)
        m = m.reshape(len(texts), DIM)
        norm = np.sqrt(np.einsum("ij,ij->i", m, m))
        empty = norm == 0
        m[empty, 0] = 1.0  # Chroma rejects an all-zero vector under cosine distance
        norm[empty] = 1.0
        return m / norm[:, None]


def embed_matrix(emb: Embedder, texts: list[str]):
    """TEXTS embedded as a float32 numpy array (one row a text), by ``matrix`` when the
    embedder has one (the hash embedder: no Python lists of a million floats in between)."""
    import numpy as np

    direct = getattr(emb, "matrix", None)
    got = direct(texts) if direct is not None else emb.embed(texts)
    return np.asarray(got, dtype=np.float32).reshape(len(texts), -1) if texts else \
        np.zeros((0, 1), dtype=np.float32)


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

    return RepomemError(f"unknown embedder: {spec}",
                        hint="use 'hash', 'hash+wordllama' or 'ollama:MODEL' (docs/embedders.md)")


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


class HybridEmbedder:
    """A lexical and a semantic embedder's vectors side by side, each unit-length and scaled by
    the square root of its share (``LEXICAL`` and ``1 - LEXICAL``): the cosine of two such vectors
    is the weighted sum of the two cosines, so one similarity ranks by both the repository's own
    spelling and the meaning of its words.  ``semantic_part`` lets ranking read the semantic
    cosine on its own (scorer.similarities, the feature ``semantic_rrf``)."""

    LEXICAL = 0.5

    def __init__(self, name: str, lexical, semantic, dims: tuple[int, int]):
        self.name = name
        self.lexical = lexical
        self.semantic = semantic
        self.semantic_part = (dims[0], dims[0] + dims[1], 1 - self.LEXICAL)  # columns, share

    def matrix(self, texts: list[str]):
        import numpy as np

        lex, sem = self.lexical.matrix(texts), self.semantic.matrix(texts)
        return np.hstack([lex * np.float32(self.LEXICAL ** 0.5),
                          sem * np.float32((1 - self.LEXICAL) ** 0.5)])

    def embed(self, texts: list[str]) -> list[list[float]]:
        return self.matrix(texts).tolist()


HYBRID = "hash+wordllama"


def _no_arg(name: str, arg: str | None) -> None:
    if arg is not None:
        raise _unknown(f"{name}:{arg}")


def _hybrid(arg: str | None) -> Embedder:
    from repomem.adapters import wordllama

    _no_arg(HYBRID, arg)
    semantic = wordllama.semantic()
    return HybridEmbedder(HYBRID, HashEmbedder(), semantic, (DIM, semantic.vectors.shape[1]))


def _wordllama(arg: str | None) -> Embedder:
    from repomem.adapters import wordllama

    return wordllama.embedder(arg)


register_embedder(HYBRID, _hybrid)
register_embedder("wordllama-l2-256", _wordllama)
