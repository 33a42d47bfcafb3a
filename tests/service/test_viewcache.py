"""The current-view snapshot: a fresh process answers without importing Chroma, and answers
exactly what the Chroma view answers; it is never used for another HEAD or after a failed sync."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from repomem.adapters import git
from repomem.service import samples, snapfile, viewcache
from repomem.service.ingest import ingest
from repomem.service.query import ask, iso
from repomem.service.repo import Repo
from tests.conftest import ROOT, commit
from tests.conftest import git as git_cmd

QUESTIONS = [e["question"] for e in samples.load("payments").EXPECTED if not e.get("as_of")]


def test_fresh_process_answers_without_chroma(payments):
    repo, _, _ = payments
    code = ("import sys, json; from repomem.service.repo import Repo; from repomem.service.query import ask; "
            f"res = ask(Repo.open({str(repo)!r}), 'what port does production listen on?'); "
            "print(json.dumps([res['answer'], 'chromadb' in sys.modules]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         check=True).stdout
    assert out.strip() == '["8080", false]'


@pytest.mark.parametrize("question", QUESTIONS)
def test_snapshot_answers_equal_chroma_answers(payments, question):
    repo, _, _ = payments
    r = Repo.open(repo)
    fast = ask(r, question, k=8)
    slow = ask(r, question, as_of=iso(int(time.time())), k=8)
    assert [(f["key"], f["value"], f["score"]) for f in fast["facts"]] == \
        [(f["key"], f["value"], f["score"]) for f in slow["facts"]]


def test_snapshot_follows_head_and_is_dropped_before_a_view_change(new_repo, tmp_path,
                                                                  monkeypatch):
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"c.toml": "port = 1\n"})
    r = Repo.open(repo, store=tmp_path / "s")
    ingest(r, all_history=True)
    assert viewcache.exists(r.store.path, git.head(repo))
    commit(repo, "2026-01-02T00:00:00Z", "b", {"c.toml": "port = 2\n"})
    # HEAD moved: the snapshot is not used; the query path indexes nothing by itself, but the
    # view answers for what is ingested and says so.
    res = ask(r, "port?")
    assert res["answer"] == "1" and res["unindexed_commits"] == 1

    from repomem.storage.store import Store

    def boom(*a, **k):
        raise RuntimeError("crash in the middle of a view sync")

    monkeypatch.setattr(Store, "sync_versions", boom)
    with pytest.raises(RuntimeError):
        ingest(r, all_history=True)
    # What is left is no stale snapshot: the post-commit one, of the view being written (the
    # fold of the same records), which the next writer writes again from Chroma.
    state = viewcache.state(r.store)
    assert state["head"] == git.head(repo) and state["provisional"]
    assert ask(r, "port?")["answer"] == "2"
    # A view change that is not that snapshot's (a reset) drops it before the view changes.
    git_cmd(repo, "reset", "-q", "--hard", "HEAD~1")
    with pytest.raises(RuntimeError):
        ingest(r, all_history=True)
    assert not (r.store.path / viewcache.SNAPSHOT).exists()
    monkeypatch.undo()
    assert ask(r, "port?")["answer"] == "1"  # the next reader redoes the view


def test_a_snapshot_indexed_by_an_older_tokenizer_is_written_again(new_repo, tmp_path):
    """A snapshot whose lexical index another tokenizer built is not read (its tokens would not
    meet the question's): every fresh process indexed the rows itself (~0.35 s a cold ask on
    httpx) until a commit came.  The next ingest writes it again, though nothing is new."""
    import json

    import numpy as np

    from repomem.core.tokens import TOKENIZER

    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"c.toml": "port = 1\n"})
    r = Repo.open(repo, store=tmp_path / "s")
    ingest(r, all_history=True)
    path = r.store.path / viewcache.SNAPSHOT
    with snapfile.load(path) as z:
        members = {k: z[k] for k in z.files}
    members["lex_tokenizer"] = np.frombuffer(json.dumps("an-older-tokenizer").encode(), np.uint8)
    with open(path, "wb") as fh:
        snapfile.save(fh, members)
    assert not viewcache.exists(r.store.path, git.head(repo))
    ingest(r, all_history=True)
    with snapfile.load(path) as z:
        assert json.loads(z["lex_tokenizer"].tobytes()) == TOKENIZER
    assert ask(r, "port?")["answer"] == "1"


def test_provisional_snapshot_answers_before_chroma_and_matches_the_final(new_repo, tmp_path):
    import json as _json

    import numpy as np

    from repomem.service.view import provisional_snapshot

    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"app.py": "PORT = 1\n\n\ndef f(x):\n    return x\n"})
    r = Repo.open(repo, store=tmp_path / "s")
    ingest(r, all_history=True)
    commit(repo, "2026-01-02T00:00:00Z", "b", {"app.py": "PORT = 2\n\n\ndef g(x):\n    return x\n"})
    with r.store.writer():
        early = provisional_snapshot(r)
    assert list(early) == [git.head(repo)]
    code = ("import sys, json; from repomem.service.repo import Repo; from repomem.service.query import ask; "
            f"res = ask(Repo.open({str(repo)!r}, store={str(tmp_path / 's')!r}), 'PORT', k=3); "
            "print(json.dumps([res['answer'], sorted(f['value'] for f in res['facts']), "
            "'chromadb' in sys.modules]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         check=True).stdout
    answer, values, chroma = _json.loads(out)
    assert answer == "2" and "g" in values and "f" not in values and chroma is False
    prov = viewcache.load_any(r.store.path)
    ingest(r, all_history=True)
    final = viewcache.load_any(r.store.path)
    assert prov[0]["provisional"] and not final[0].get("provisional")
    assert prov[0]["id"] == final[0]["id"]
    def by_id(snap):
        return {row["id"]: (row, vec) for row, vec in zip(snap[1], snap[2])}

    p, f = by_id(prov), by_id(final)
    assert p.keys() == f.keys()
    # Transaction time may differ: this test drops the provisional records, so the ingest mines
    # them again (a writer reuses them, as after a crash the next writer would not).
    def same(row):
        return {k: v for k, v in row.items() if k != "recorded_at"}

    for k in p:
        assert same(p[k][0]) == same(f[k][0]) and np.allclose(p[k][1], f[k][1], atol=1e-6)


def _facts_state(f) -> dict:
    """Everything a _Facts holds about its rows, comparable."""
    return {k: (v.tolist() if hasattr(v, "tolist") else json_like(v))
            for k, v in vars(f).items() if k != "rows"}


def json_like(v):
    import json

    return json.loads(json.dumps(v, default=sorted))


def test_ranking_columns_are_loaded_from_the_snapshot_and_equal_computed_ones(payments):
    """The snapshot carries what ranking computes about each row (rank.facts_columns): a fresh
    process loads it instead of looping over every row, and what it loads is what it would
    have computed; columns of other code, or of other rows, are not used."""
    from repomem.service import rank, rowindex

    repo, _, _ = payments
    r = Repo.open(repo)
    viewcache._LOADED.clear()
    state, rows, _, _ = viewcache.load_search(r.store)
    loaded = rank.offered_columns(rows)
    assert loaded is not None and loaded["code"] == rank.columns_code()
    assert rank.offered_columns(list(rows)) is None  # other rows (a filtered copy)
    computed = rowindex._Facts(rows)
    assert _facts_state(rowindex._Facts(rows, loaded)) == _facts_state(computed)
    assert any(computed.names) and computed.kind.size == len(rows)
    # a snapshot's columns of other code are recomputed, not trusted
    other = dict(loaded, code="0" * 16, names={})
    assert _facts_state(rowindex._Facts(rows, other)) == _facts_state(computed)
    rowindex._CACHE[0] = None
    assert rowindex._facts(rows).names == loaded["names"]


def test_a_snapshot_without_ranking_columns_is_read_and_written_again(new_repo, tmp_path):
    """A snapshot of an older repomem (no ranking columns) still answers, the columns computed
    in the process; the next ingest writes it again with them."""
    import json


    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"c.toml": "port = 1\n"})
    r = Repo.open(repo, store=tmp_path / "s")
    ingest(r, all_history=True)
    path = r.store.path / viewcache.SNAPSHOT
    with snapfile.load(path) as z:
        members = {k: z[k] for k in z.files if k != "facts"}
    with open(path, "wb") as fh:
        snapfile.save(fh, members)
    assert not viewcache.exists(r.store.path, git.head(repo))
    assert ask(r, "port?")["answer"] == "1"
    ingest(r, all_history=True)
    assert viewcache.exists(r.store.path, git.head(repo))
    with snapfile.load(path) as z:
        assert json.loads(z["facts"].tobytes())["rows"] == len(json.loads(z["rows"].tobytes()))
    assert ask(r, "port?")["answer"] == "1"


def test_the_ranking_columns_fingerprint_is_the_same_in_every_process():
    """rank.columns_code is what a fresh process compares the snapshot's columns with: it must
    not depend on the process (string hashing is salted per process: sets are in hash order)."""
    code = "from repomem.service.rank import columns_code; print(columns_code())"
    got = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONHASHSEED=seed),
                          check=True).stdout.strip() for seed in ("1", "2")}
    from repomem.service.rank import columns_code

    assert got == {columns_code()}


def test_removed_names_are_read_from_the_snapshot_index_as_from_the_whole_list(new_repo,
                                                                               tmp_path):
    """A question naming removed facts reads, from the snapshot's index of removed names, the
    facts that bore those names only (a cold ask parsed the whole removed list: ~20 ms on
    httpx); the notes are those the whole list gives, which a snapshot of an older repomem
    (no index) still gives, and the next ingest writes the index."""

    from tests.conftest import indexed

    helpers = "".join(f"def helper_{i}():\n    return {i}\n\n\n" for i in range(6))
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"app/util.py": helpers + "PORT = 1\n",
                                                      "requirements.txt": "colorama==0.4\n"}))
    commit(r.root, "2024-05-02T09:30:00Z", "drop them",
           {"app/util.py": "PORT = 1\n", "requirements.txt": "click==8\n"})
    ingest(r, progress=False)
    questions = ("Where did `helper_3` go?", "Is colorama still a dependency?",
                 "When was util.helper_5 removed?")
    notes = {q: ask(r, q)["lineage"] for q in questions}
    assert {n["name"] for n in notes[questions[0]]} == {"helper_3"}
    assert {n["name"] for n in notes[questions[1]]} == {"colorama"}
    assert {n["name"] for n in notes[questions[2]]} == {"util.helper_5"}
    listed = viewcache.load_removed(r.store)
    named = viewcache.removed_named(r.store, {"helper_3", "colorama", "no_such_name"})
    assert set(named) == {"helper_3", "colorama"}
    assert [x["key"] for x in named["helper_3"]] == \
        [x["key"] for x in listed if "helper_3" in viewcache.removed_names(x)]

    path = r.store.snapshot_file  # as an older repomem wrote it: no index
    with snapfile.load(path) as z:
        members = {k: z[k] for k in z.files if k not in ("removed_names", "removed_at")}
    with open(path, "wb") as fh:
        snapfile.save(fh, members)
    assert viewcache.removed_named(r.store, {"helper_3"}) is None
    assert not viewcache.exists(r.store, git.head(r.root))
    viewcache._LOADED.clear()
    assert {q: ask(r, q)["lineage"] for q in questions} == notes
    ingest(r, progress=False)
    assert viewcache.exists(r.store, git.head(r.root))
    assert viewcache.removed_named(r.store, {"helper_3"}) is not None
