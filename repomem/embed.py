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
import re
from typing import Protocol

DIM = 256

_STOP = set("""a an the of to in on for and or is are was be been what which who whom whose how
does do did it its this that these those there here we our us you your i me my with by at as from
into about now then than any some can could should would will shall may might tell give show
please s t""".split())

# Words a developer uses in a question -> words that appear in code facts.  Both sides map to one
# canonical token so "listen" meets "port" and "endpoint" meets "route".
_SYNONYMS = {
    "listen": "port", "listens": "port", "listening": "port",
    "endpoint": "route", "url": "route", "uri": "route", "path": "route", "api": "route",
    "routes": "route", "endpoints": "route", "urls": "route", "http": "route",
    "package": "dependency", "library": "dependency", "lib": "dependency", "pin": "dependency",
    "pinned": "dependency", "requirement": "dependency", "requirements": "dependency",
    "dependencies": "dependency", "deps": "dependency", "dep": "dependency",
    "expire": "timeout", "expiry": "timeout", "expiration": "timeout", "ttl": "timeout",
    "called": "name", "named": "name", "function": "func", "method": "func", "def": "func",
    "fetch": "get", "retrieve": "get", "lookup": "look", "find": "look",
    "db": "database", "env": "environment", "prod": "production", "stage": "staging",
    "interpreter": "python", "py": "python", "versions": "version", "supported": "support",
    "supports": "support", "max": "maximum", "min": "minimum", "cfg": "config",
    "configuration": "config", "settings": "config", "setting": "config",
}

_SPLIT = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+(?:\.\d+)*")


def tokens(text: str) -> list[str]:
    out = []
    for raw in _SPLIT.findall(text):
        w = raw.lower()
        if w in _STOP:
            continue
        w = _SYNONYMS.get(w, w)
        if len(w) > 4 and not w[0].isdigit():
            for suf in ("ing", "ed", "es", "s"):
                if w.endswith(suf) and len(w) - len(suf) >= 3:
                    w = w[: -len(suf)]
                    break
        out.append(_SYNONYMS.get(w, w))
    return out


def norm_ident(word: str) -> str:
    """One spelling of an identifier: lower case, runs of - _ . as one underscore (PEP 503-like,
    so typing-extensions, typing_extensions and typing.extensions meet), edges trimmed."""
    return re.sub(r"[-_.]+", "_", word.lower()).strip("_")


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
        from repomem.ollama_client import OllamaEmbedder

        return OllamaEmbedder(spec.split(":", 1)[1])
    from repomem.errors import RepomemError

    raise RepomemError(f"unknown embedder: {spec}", hint="use 'hash' or 'ollama:MODEL'")
