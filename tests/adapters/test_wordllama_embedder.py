"""The static semantic embedder (repomem/adapters/wordllama.py: WordLlama's token vectors, read
from the wheel) and the hybrid of it with the lexical default, as options of ``repomem init
--embedder``."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from repomem.adapters import wordllama
from repomem.adapters.embed import HYBRID, HashEmbedder, HybridEmbedder, get_embedder
from repomem.service import scorer
from tests.conftest import cli, cli_json, commit, git

pytestmark = pytest.mark.skipif(wordllama.why_not() != "available", reason=wordllama.why_not())


def test_names_meet_the_words_said_for_them():
    emb = get_embedder(wordllama.NAME)
    assert emb.name == wordllama.NAME
    q = np.asarray(emb.embed(["the app fails to start", "sends output through a pager"]))
    d = np.asarray(emb.embed(["STARTUP_FAILURE", "echo_via_pager", "read_timeout"]))
    assert q.shape == (2, 256) and np.allclose(np.linalg.norm(q, axis=1), 1.0, atol=1e-5)
    sims = q @ d.T
    assert sims[0].argmax() == 0 and sims[1].argmax() == 1, sims
    # the split words carry it: the identifiers as written, unsplit, do not meet the question
    raw = emb.tok.encode("STARTUP_FAILURE", add_special_tokens=False).ids
    split = emb.tok.encode("startup failure", add_special_tokens=False).ids
    assert raw != split


def test_the_hybrid_cosine_is_the_weighted_sum_of_both():
    hyb = get_embedder(HYBRID)
    texts = ["which port does the server listen on", "Config.port: 8000", "def echo_via_pager"]
    m = np.asarray(hyb.embed(texts))
    lex = HashEmbedder().matrix(texts)
    sem = get_embedder(wordllama.NAME).matrix(texts)
    assert m.shape == (3, 512)
    want = HybridEmbedder.LEXICAL * (lex @ lex.T) + (1 - HybridEmbedder.LEXICAL) * (sem @ sem.T)
    assert np.allclose(m @ m.T, want, atol=1e-5)


def test_a_text_of_no_words_is_a_valid_vector():
    emb = get_embedder(wordllama.NAME)
    for v in emb.embed(["", "the of", "..."]):
        assert abs(float(np.linalg.norm(v)) - 1.0) < 1e-6  # never all zeros: Chroma refuses them
    h = np.asarray(get_embedder(HYBRID).embed([""]))
    assert np.isfinite(h).all() and np.linalg.norm(h) > 0


def test_an_argument_is_refused_in_one_line():
    rc, _, err = cli("init", "--repo", ".", "--no-hooks", "--embedder", f"{HYBRID}:x",
                     check=False)
    assert rc != 0 and "unknown embedder" in err and "Traceback" not in err, err


def test_a_store_built_with_the_hybrid_ranks_by_meaning(tmp_path, monkeypatch):
    """semantic_rrf, with the weight fit-ranker gives it over the hybrid's stores: "could not
    start" is STARTUP_FAILURE, which no word of the question spells; without it (the hand file
    gives it none), the lexical signals put another exit code first."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "2026-01-01T10:00:00+00:00", "settings", {
        "app/errors.py": "STARTUP_FAILURE = 3\nBAD_INPUT = 2\nSEND_FAILED = 4\n",
        "app/config.py": "REQUEST_TIMEOUT = 30\nTHUMBNAIL_FORMATS = ['png', 'jpeg']\n"})
    cli("init", "--repo", repo, "--no-hooks", "--embedder", HYBRID)
    question = "which code means the app could not start"
    hand = json.loads((Path(scorer.__file__).with_name(scorer.DEFAULT)).read_text())
    hand["weights"]["semantic_rrf"] = 1.5
    (tmp_path / "w.json").write_text(json.dumps(hand))
    monkeypatch.setenv(scorer.ENV, str(tmp_path / "w.json"))
    top = cli_json("ask", "--repo", repo, question)["facts"][0]["key"]
    assert top == "constant:app/errors.py:STARTUP_FAILURE", top
    monkeypatch.setenv(scorer.ENV, "hand")
    assert cli_json("ask", "--repo", repo, question)["facts"][0]["key"] != top
    # the store records its embedder: another one is refused rather than mixed in
    rc, _, err = cli("init", "--repo", repo, "--no-hooks", "--embedder", "hash", check=False)
    assert rc != 0 and "embedder" in err, err


def test_ranking_reads_the_semantic_part_on_its_own():
    from repomem.service.scorer import similarities

    hyb = get_embedder(HYBRID)
    docs = ["STARTUP_FAILURE = 3", "def echo_via_pager(text)", "REQUEST_TIMEOUT = 30"]
    q = "which code means it failed to start"
    matrix, vec = hyb.matrix(docs), np.asarray(hyb.embed([q])[0], dtype=np.float32)
    sims = similarities(matrix, vec, hyb)
    assert sims.shape == (3, 2)
    assert np.allclose(sims[:, 0], similarities(matrix, vec), atol=1e-6)  # the whole cosine
    sem = get_embedder(wordllama.NAME)
    assert np.allclose(sims[:, 1], sem.matrix(docs) @ sem.matrix([q])[0], atol=1e-5)
    # an embedder without a semantic part: one column, as before
    lex = HashEmbedder()
    assert similarities(lex.matrix(docs), lex.matrix([q])[0], lex).ndim == 1
