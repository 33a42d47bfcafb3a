"""scorer.similarities: the cosine of every row, and for an embedder with a semantic part, that
part's own cosine beside it (the feature semantic_rrf)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from repomem.service.scorer import similarities


def _unit(m):
    return m / np.linalg.norm(m, axis=-1, keepdims=True)


def test_one_column_without_a_semantic_part():
    m = _unit(np.random.default_rng(1).normal(size=(5, 4)).astype(np.float32))
    assert np.allclose(similarities(m, m[0]), m @ m[0], atol=1e-6)
    assert similarities(m, m[0], SimpleNamespace()).shape == (5,)


def test_the_semantic_part_beside_the_whole_cosine():
    rng = np.random.default_rng(2)
    for lexical, semantic in ((4, 4), (3, 5)):  # equal halves (one pass), and unequal parts
        share = 0.25
        lex = _unit(rng.normal(size=(6, lexical)))
        sem = _unit(rng.normal(size=(6, semantic)))
        m = np.hstack([lex * (1 - share) ** 0.5, sem * share ** 0.5]).astype(np.float32)
        emb = SimpleNamespace(semantic_part=(lexical, lexical + semantic, share))
        got = similarities(m, m[0], emb)
        assert got.shape == (6, 2)
        assert np.allclose(got[:, 0], m @ m[0], atol=1e-5)
        assert np.allclose(got[:, 1], sem @ sem[0], atol=1e-5)
