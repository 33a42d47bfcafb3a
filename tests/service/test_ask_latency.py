"""Ask latency's parts: the ordering shortcuts of ranking give what a sort of every row gives,
and the generated store of bench/asklatency is a snapshot that answers like its source."""

from __future__ import annotations

import numpy as np

from bench import asklatency
from repomem.service import features, rank, viewcache
from repomem.service.ingest import ingest
from repomem.service.query import ask
from repomem.service.repo import Repo
from tests.conftest import commit


def _tied(rng, n: int):
    """Scores with many ties (a few distinct values) and many zeros, as BM25's are."""
    return np.round(rng.random(n) * 4) * (rng.random(n) < 0.6)


def test_best_is_a_stable_sort_of_every_row():
    rng = np.random.default_rng(5)
    for n in (1, 7, 50, 3000, 40000):
        for score in (_tied(rng, n), rng.random(n).astype(np.float32)):
            for m in (1, 5, 30, n + 3):
                want = np.argsort(-score, kind="stable")[:m]
                assert features._best(score, m).tolist() == want.tolist()


def test_order_is_the_full_lexsort():
    rng = np.random.default_rng(9)
    for n in (3, 40, 2000, 30000):
        for named in (0, 2, 12):
            tier = np.zeros(n, dtype=np.int32)
            tier[rng.choice(n, min(named, n), replace=False)] = 1
            level = tier * rng.integers(1, 3, n)
            aside = tier * (rng.random(n) < 0.3)
            fused = _tied(rng, n)
            key_order = rng.permutation(n)
            for k in (1, 5, 8):
                want = np.lexsort((key_order, -fused, -level, aside, -tier))[:k]
                got = rank._order(tier, level, aside, fused, key_order, k)
                assert got.tolist() == want.tolist()


def test_reciprocal_ranks_stop_at_the_depth():
    rng = np.random.default_rng(2)
    n = features.RRF_DEPTH + 500
    score = rng.random(n)
    got = features._rrf(score, 1.0)
    order = np.argsort(-score, kind="stable")
    assert got[order[0]] == 1.0 / (features.RRF_K + 1)
    assert got[order[features.RRF_DEPTH - 1]] == 1.0 / (features.RRF_K + features.RRF_DEPTH)
    assert not got[order[features.RRF_DEPTH:]].any()
    small = rng.random(100)
    assert np.allclose(features._rrf(small, 2.0)[np.argsort(-small, kind="stable")],
                       2.0 / (features.RRF_K + 1 + np.arange(100)))


def test_generated_store_answers_like_its_source(new_repo, tmp_path):
    repo = new_repo("svc")
    commit(repo, "2024-02-01T10:00:00+00:00", "start",
           {"config.py": "PORT = 8000\nPAGE_SIZE = 25\nTIMEOUT_SECONDS = 30\n",
            "requirements.txt": "flask==3.0.0\nredis==5.0.1\n"})
    commit(repo, "2024-03-01T10:00:00+00:00", "port", {"config.py": "PORT = 8080\nPAGE_SIZE = 25\n"
                                                       "TIMEOUT_SECONDS = 30\n"})
    r = Repo.open(repo, store=tmp_path / "s")
    ingest(r, all_history=True, progress=False)
    source = viewcache.load_search(r.store.path)
    r.store.close()
    want = 7 * len(source[1]) + 2
    gen = asklatency.generate(r.store.path, tmp_path / "gen", want)
    assert gen["rows"] == want and gen["copies"] == 8
    state, rows, emb, lex = viewcache.load_search(tmp_path / "gen")
    assert len(rows) == want and emb.shape == (want, source[2].shape[1]) and lex is not None
    assert len({x["key"] for x in rows}) == want  # every copy is its own fact
    assert any(x["path"].startswith("services/") for x in rows)
    g = Repo.open(repo, store=tmp_path / "gen")
    try:
        got = ask(g, "Which port does the service listen on?")
        assert got["answer"] == "8080" and not got["unindexed_commits"]
        qs = [{"question": "Which flask version is pinned?", "as_of": None}]
        timing = asklatency.warm(g, qs)
        assert timing["asks"] == 1 and timing["p50_ms"] > 0
    finally:
        g.store.close()


def test_cold_cli_asks_are_timed_with_and_without_the_warm_answerer(new_repo, tmp_path):
    """bench/asklatency's cold figures: real CLI processes, no chromadb import; through a real
    warm answerer, every ask of a family is the answerer's (its count says so), and it is
    stopped afterwards."""
    from repomem.integrations import answerer

    repo = new_repo("svc")
    commit(repo, "2024-02-01T10:00:00+00:00", "start",
           {"config.py": "PORT = 8000\n", "requirements.txt": "flask==3.0.0\n"})
    r = Repo.open(repo, store=tmp_path / "s")
    ingest(r, all_history=True, progress=False)
    r.store.close()
    qs = [{"question": "Which port does the service listen on?", "as_of": None,
           "family": "constant"},
          {"question": "Which flask version is pinned?", "as_of": None, "family": "dependency"}]
    got = asklatency.cold(repo, tmp_path / "s", qs, per=1)
    assert set(got) == {"constant", "dependency"}
    assert all(c["runs"] == 1 and not c["chromadb_imported"] and c["p50_s"] > 0
               and "answered" not in c for c in got.values())
    through = asklatency.cold(repo, tmp_path / "s", qs, per=1, through_answerer=True)
    assert [c["answered"] for c in through.values()] == [1, 1]
    assert answerer.request(str(tmp_path / "s"), "status") is None  # stopped
    assert "| svc | constant | 1 | 1 |" in "\n".join(asklatency.markdown(
        {"warm": {}, "cold": {"svc": got}, "answerer": {"svc": through},
         "floor": {"python": 0, "python cpu": 0, "python + numpy": 0,
                   "python + numpy cpu": 0}}))
