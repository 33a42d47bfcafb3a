"""An offline semantic embedder beside the lexical default: WordLlama's static token vectors.

WordLlama (the PyPI package ``wordllama``, MIT) ships its default model inside the wheel: a
256-dimension vector for each of the Llama 2 tokenizer's 32,000 tokens
(``wordllama/weights/l2_supercat_256.safetensors``, 16 MB) and the tokenizer itself
(``wordllama/tokenizers/l2_supercat_tokenizer_config.json``).  A text's vector is the mean of its
tokens' vectors, as WordLlama's own inference computes it -- no transformer runs, so a question is
embedded in tens of microseconds and 100k fact versions in about five seconds.  Nothing
is downloaded: the two files are read where pip installed them (WordLlama's own loader would
look in a cache folder first and fetch from the network when it is empty, so this module reads
them itself, with ``safetensors`` and ``tokenizers``).

Identifiers are split into words first (``STARTUP_FAILURE`` is "startup failure",
``echo_via_pager`` "echo via pager") and stop words dropped, so a name meets the words a developer
uses for it: "fails to start", "a pager".

``hash+wordllama`` (repomem.adapters.embed.HybridEmbedder) sets this vector beside the default
lexical one; docs/embedders.md compares them.
"""

from __future__ import annotations

from itertools import chain
from pathlib import Path

from repomem.adapters.packaged import package_files

NAME = "wordllama-l2-256"
_WEIGHTS = "weights/l2_supercat_256.safetensors"
_TOKENIZER = "tokenizers/l2_supercat_tokenizer_config.json"


def _model_dir() -> Path | None:
    return package_files("wordllama", ".", _WEIGHTS, _TOKENIZER)


def why_not() -> str:
    try:
        import numpy  # noqa: F401
        import tokenizers  # noqa: F401
    except ImportError as e:
        return f"skipped ({e.name} is not installed)"
    if _model_dir() is None:
        return "skipped: no offline weights (pip install wordllama: the wheel ships the model)"
    return "available"


class WordLlamaEmbedder:
    name = NAME

    def __init__(self):
        from tokenizers import Tokenizer

        d = _model_dir()
        if d is None:
            from repomem.core.errors import RepomemError

            raise RepomemError(f"embedder {NAME}: no model: the wordllama package is not installed",
                               hint="pip install 'repomem[wordllama]' (its wheel ships the model)")
        from safetensors.numpy import load_file

        # float16 as stored: cast per use, since casting all 32,000 rows would cost a cold
        # question more than embedding it
        self.vectors = load_file(str(d / _WEIGHTS))["embedding.weight"]
        self.tok = Tokenizer.from_file(str(d / _TOKENIZER))
        self.tok.no_padding()
        self.tok.no_truncation()

    def matrix(self, texts: list[str]):
        """Each text's words (``tokens.words``) as the unit-length mean of their tokens'
        vectors; a text of no words gets the zero row (``HybridEmbedder`` keeps the lexical
        half; alone, ``embed`` gives it a unit first component, as the hash embedder does)."""
        import numpy as np

        from repomem.core.tokens import words

        enc = self.tok.encode_batch([" ".join(words(t)) for t in texts], add_special_tokens=False)
        ids = [e.ids for e in enc]
        counts = np.fromiter((len(i) for i in ids), dtype=np.int64, count=len(ids))
        flat = np.fromiter(chain.from_iterable(ids), dtype=np.int64, count=int(counts.sum()))
        out = np.zeros((len(texts), self.vectors.shape[1]), dtype=np.float32)
        ends = np.cumsum(counts)
        some = np.flatnonzero(counts)
        for j in range(0, some.size, 1024):  # a slice of texts' token rows at a time
            part = some[j:j + 1024]
            lo, hi = int(ends[part[0]] - counts[part[0]]), int(ends[part[-1]])
            starts = ends[part] - counts[part] - lo
            out[part] = np.add.reduceat(self.vectors[flat[lo:hi]].astype(np.float32), starts,
                                        axis=0)
        norm = np.linalg.norm(out, axis=1)
        nz = norm > 0
        out[nz] /= norm[nz, None]
        return out

    def embed(self, texts: list[str]) -> list[list[float]]:
        m = self.matrix(texts)
        m[~m.any(axis=1), 0] = 1.0  # Chroma rejects an all-zero vector under cosine distance
        return m.tolist()


_INSTANCE: WordLlamaEmbedder | None = None


def semantic() -> WordLlamaEmbedder:
    """The one instance of this process (the model's 16 MB are read once)."""
    global _INSTANCE
    if _INSTANCE is None:
        _INSTANCE = WordLlamaEmbedder()
    return _INSTANCE


def embedder(arg: str | None = None) -> WordLlamaEmbedder:
    """The factory of the embedder ``wordllama-l2-256`` (registered in
    repomem.adapters.embed): one instance per process."""
    if arg is not None:
        from repomem.core.errors import RepomemError

        raise RepomemError(f"unknown embedder: {NAME}:{arg}", hint=f"use {NAME}")
    return semantic()
