"""The one scoring function of ranking: a weighted sum of named per-fact features.

repomem.service.features computes, for every fact valid at the asked time, a vector of features (the
list FEATURES; docs/ranking.md says what each one is) as numpy columns over all rows at once; the
score of a fact is the dot product of its vector with the weights of a weights file.
rank_weights.json beside this module holds the weights the features had as hand rules;
bench/fit_ranker.py fits another on the training repositories' questions and task prompts only
(``rank_weights_fitted.json``).  Each surface ranks with the file that did better out of sample
for what it is judged by (docs/ranking.md): ``ask`` (an answer's first place) with the hand
weights, ``context`` (the agent's block: the needed facts within a budget) with the fitted ones.
``REPOMEM_RANK_WEIGHTS`` chooses one file for both (a path, ``hand`` or ``fitted``).  Nothing is
fitted at run time: ranking only reads a file.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import json
import os
from pathlib import Path

# In the order rank adds them (a few read the score of those before them: see features._features).
FEATURES = (
    "lexical_rrf",        # BM25 over the fact's fields, as a reciprocal rank
    "vector_rrf",         # the embedder's cosine similarity, as a reciprocal rank
    "semantic_rrf",       # a semantic embedder's part of it alone (hash+wordllama), likewise
    "kind_wanted",        # the fact's kind is one the question asks for
    "number_value",       # a number asked, the value is a number
    "duration_named",     # a time asked, the setting is named as a time is (expiry, ttl, delay)
    "shape_value",        # a file, symbol, text or style asked, the value has that shape
    "number_said",        # the value states a number the question states
    "value_said",         # a setting whose value (words, not a number) the question says
    "route_method",       # the route answers with the HTTP method the question's verb says
    "dependency_group",   # a dependency of the group the question names
    "root_dependency",    # a runtime requirement of the root project (no group named)
    "own_file",           # in the project's own files, not examples, docs or tests
    "own_code",           # ...and code of the kind asked for
    "test_code",          # a test's own function, class or constant (question not about tests)
    "private",            # a private function or class (a how-question, or no kind asked)
    "does_action",        # the function calls what the question's verb names (hash, sign)
    "summary_said",       # every word of the fact's doc summary is in the question
    "path_said",          # the question names its file by a path (complete/build.gradle)
    "path_named",         # the question names the part of its path that sets it apart
    "in_named_dir",       # it lies in a folder the question names in words
    "named_other_kind",   # the question names it, but asks for another kind
    "owner_named",        # its key's owner is a class the question names (uvicorn's Config)
    "member_named",       # a method of a class the question names ("which Server method")
    "alias_rrf",          # the question's words among those an option's help ties to it
    "parameter_unsaid",   # a function's parameter default, the function not named
    "body_value_unsaid",  # a value in a function's body, its own name not said
    "unversioned",        # a dependency asked for whose value states no version (managed, *)
    # raw signals, for fitting (zero weight in the hand file: not computed at run time then)
    "lexical_share",      # BM25 over the best fact's BM25
    "vector_sim",         # cosine similarity
    "name_share",         # BM25 of the name field alone, over the best fact's
    "purpose_share",      # BM25 of the doc comment alone, over the best fact's
)
ENV = "REPOMEM_RANK_WEIGHTS"
DEFAULT = "rank_weights.json"
FITTED = "rank_weights_fitted.json"
NAMED = {"hand": DEFAULT, "fitted": FITTED}
SURFACES = {"ask": DEFAULT, "context": FITTED}  # each surface's weights (module docstring)
_SURFACE: contextvars.ContextVar[str] = contextvars.ContextVar("rank_surface", default="ask")


@contextlib.contextmanager
def surface(name: str):
    """Rank with NAME's weights (a key of SURFACES) within the block: the context block's
    lookups go through ``ask`` like a question's, so the surface rides along with them (per
    thread: the warm answerer serves several at once)."""
    token = _SURFACE.set(name)
    try:
        yield
    finally:
        _SURFACE.reset(token)


def read_weights(name: str) -> dict[str, float]:
    """The weights of a file (a path, or a file beside this module), every feature's."""
    if os.sep in name or name.endswith(".json") and Path(name).exists():
        text = Path(name).read_text("utf-8")
    else:
        text = Path(__file__).with_name(name).read_text("utf-8")  # (not importlib.resources:
        # ~10 ms of a cold ask's CPU)
    data = json.loads(text)
    weights = {k: float(v) for k, v in data["weights"].items()}
    unknown = sorted(set(weights) - set(FEATURES))
    if unknown:
        raise ValueError(f"{name}: unknown features {unknown}")
    return {f: weights.get(f, 0.0) for f in FEATURES}


@functools.cache
def _cached(name: str) -> dict[str, float]:
    return read_weights(name)


def weights() -> dict[str, float]:
    """The weights in use: REPOMEM_RANK_WEIGHTS's file (``hand`` or ``fitted``: the files
    shipped beside this module), else the current surface's."""
    chosen = os.environ.get(ENV, "").strip()
    return _cached(NAMED.get(chosen, chosen) or SURFACES[_SURFACE.get()])


def similarities(matrix, vector, emb=None):
    """Each row's dot product with VECTOR (the embedder's vectors are unit length: the cosine);
    for an embedder EMB with a semantic part (``semantic_part``: its columns a to b, their share
    of the cosine), two columns: the cosine, and the semantic part's own cosine (ranking's
    ``semantic_rrf``).
    numpy's own summation loop, not the BLAS matrix product: a multi-threaded BLAS spins up its
    threads for every product, and on a busy machine a 2,000-row product then took 20-80 ms
    instead of 0.1 ms (single-threaded, the loop is as fast as BLAS for one vector)."""
    import numpy as np

    matrix = np.asarray(matrix, dtype=np.float32)
    if not len(matrix):
        return np.zeros(0, dtype=np.float32)
    vector = np.asarray(vector, dtype=np.float32)
    part = getattr(emb, "semantic_part", None)
    if part is None:
        return np.einsum("ij,j->i", matrix, vector)
    a, b, share = part
    n, width = matrix.shape
    if b == width == 2 * a:  # two equal halves: both dot products in one pass over the rows (a
        # column slice is strided: at 100k rows it took twice the whole product)
        halves = np.einsum("ijk,jk->ij", matrix.reshape(n, 2, a), vector.reshape(2, a))
        sims, semantic = halves.sum(axis=1), halves[:, 1]
    else:
        sims, semantic = np.einsum("ij,j->i", matrix, vector), \
            np.einsum("ij,j->i", matrix[:, a:b], vector[a:b])
    return np.stack([sims, semantic / share], axis=1)
