"""Where fact versions live in an embedded store: current ones in Chroma, closed ones in the
record store's SQLite file (repomem/storage/closedversions.py).  As-of answers and histories read
both halves and are the same as when every version was a Chroma row; a store of the previous
format (schema 4, written here by that code itself) is read as it is and moved by its first
writer."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys

import numpy as np

from repomem.service.ingest import ingest
from repomem.service.query import ask, facts, history
from repomem.service.repo import Repo
from repomem.storage.store import FOREVER, SCHEMA, Store, version_document
from tests.conftest import commit, git
from tests.support.history import build_history, ledger_snapshot
from tests.support.oldcode import old_code

OLD = "5403aad"  # the last commit of schema 4: every version a Chroma row
TIMES = ["2026-03-02", "2026-03-06", "2026-03-09", "2026-03-12T10:30:00Z"]


def _layout(store) -> tuple[dict, int, int]:
    """(Chroma's rows by id, closed rows in SQLite, schema) of the main work tree's view."""
    s = Store(store)
    try:
        with s.reader():
            got = s._col("versions").get(include=["metadatas"])
            schema = s.get_meta("schema")
    finally:
        s.close()
    con = sqlite3.connect(store / "records.sqlite3")
    try:
        n = con.execute("SELECT count(*) FROM versions").fetchone()[0]
    finally:
        con.close()
    return dict(zip(got["ids"], got["metadatas"])), n, schema


def _answers(repo, store) -> dict:
    """Everything a reader gets from the whole ledger: current facts, every key's history, the
    facts and the best answers as of several times."""
    out = ledger_snapshot(repo, store)
    r = Repo.open(repo, store)
    out["as_of"] = {t: facts(r, as_of=t)["facts"] for t in TIMES}
    out["asked"] = {t: [(f["key"], f["value"]) for f in ask(r, "server port", as_of=t)["facts"]]
                    for t in TIMES}
    r.store.close()
    return out


def test_closed_versions_are_read_back_from_sqlite(new_repo, tmp_path):
    repo = new_repo()
    build_history(repo, n=14)
    store = tmp_path / "s"
    r = Repo.open(repo, store)
    ingest(r, all_history=True, progress=False)
    with r.store.reader():
        rows = r.store.rows()
        at_t, vectors = r.store.valid_rows(int(git(repo, "log", "-1", "--format=%ct",
                                                    "HEAD~10")))
        emb = r.store.get_meta("embedder")
    r.store.close()
    current = [x for x in rows if x["valid_to"] == FOREVER]
    closed = [x for x in rows if x["valid_to"] != FOREVER]
    in_chroma, in_sqlite, schema = _layout(store)
    assert schema == SCHEMA and closed and current
    assert set(in_chroma) == {x["id"] for x in current}  # Chroma: the current versions only
    assert in_sqlite == len(closed) and len(rows) == len({x["id"] for x in rows})
    # a superseded key's whole history, oldest first: its closed versions came from SQLite
    port = history(Repo.open(repo, store), "constant:app.py:PORT")["versions"]
    assert [v["value"] for v in port] == [str(8000 + i) for i in range(14)]
    assert [v["end_reason"] for v in port[:-1]] == ["superseded"] * 13 and port[-1]["valid_to"] is None
    # as of an old commit, the values of then, each with the vector of its document
    values = {x["key"]: x["value"] for x in at_t}
    assert values["constant:app.py:PORT"] == "8003" and values["config:config.toml:server.workers"] == "4"
    assert any(x["valid_to"] != FOREVER for x in at_t) and len(vectors) == len(at_t)
    from repomem.adapters.embed import get_embedder

    want = get_embedder(emb).embed([version_document_of(x) for x in at_t])
    assert np.allclose(np.asarray(vectors), np.asarray(want), atol=1e-6)


def version_document_of(row: dict) -> str:
    """The document a row's embedding was made from (store.version_document of its version)."""
    from types import SimpleNamespace

    return version_document(SimpleNamespace(**row))  # type: ignore[arg-type]


def test_a_closing_commit_moves_the_version_and_a_reset_moves_it_back(new_repo, tmp_path):
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"c.toml": "port = 1\nhost = \"a\"\n"})
    commit(repo, "2026-01-02T00:00:00Z", "b", {"c.toml": "port = 2\nhost = \"a\"\n"})
    store = tmp_path / "s"
    r = Repo.open(repo, store)
    ingest(r, all_history=True, progress=False)
    r.store.close()
    before, n_closed, _ = _layout(store)
    assert n_closed == 1 and len(before) == 2
    commit(repo, "2026-01-03T00:00:00Z", "c", {"c.toml": "port = 3\nhost = \"a\"\n"})
    r = Repo.open(repo, store)
    ingest(r, progress=False)  # the post-commit path: only what the commit changed is written
    r.store.close()
    after, n_closed, _ = _layout(store)
    assert n_closed == 2 and len(after) == 2 and set(after) != set(before)
    got = history(Repo.open(repo, store), "config:c.toml:port")["versions"]
    assert [v["value"] for v in got] == ["1", "2", "3"]
    # HEAD back by one: the version the last commit closed is current again, in Chroma
    git(repo, "reset", "-q", "--hard", "HEAD~1")
    r = Repo.open(repo, store)
    assert {f["key"]: f["value"] for f in facts(r)["facts"]}["config:c.toml:port"] == "2"
    r.store.close()
    back, n_closed, _ = _layout(store)
    assert set(back) == set(before) and n_closed == 1
    assert ask(Repo.open(repo, store), "port", as_of="2026-01-01T12:00:00Z")["facts"][0]["value"] == "1"


def test_a_store_of_the_previous_format_is_read_and_moved_by_its_first_writer(new_repo, tmp_path):
    repo = new_repo()
    build_history(repo, n=12)
    old_store, new_store = tmp_path / "old", tmp_path / "new"
    # cwd elsewhere: `-m` puts the working folder first on the path, before PYTHONPATH
    subprocess.run([sys.executable, "-m", "repomem", "ingest", "--all", "-q", "--repo", str(repo),
                    "--store", str(old_store)], cwd=tmp_path, check=True, capture_output=True,
                   env=dict(os.environ, PYTHONPATH=str(old_code(tmp_path, OLD, "the schema 4 code"))))
    in_chroma, in_sqlite, schema = _layout(old_store)
    assert schema == 4 and in_sqlite == 0
    assert any(m["valid_to"] != FOREVER for m in in_chroma.values())  # closed ones in Chroma
    r = Repo.open(repo, new_store)
    ingest(r, all_history=True, progress=False)
    r.store.close()
    want = _answers(repo, new_store)
    # read as it is: the same answers, and nothing moved by a reader
    assert _answers(repo, old_store) == want
    assert _layout(old_store) == (in_chroma, 0, 4)
    # the first writer moves its closed versions to SQLite; answers stay the same
    commit(repo, "2026-03-20T10:00:00+00:00", "more", {"extra.toml": "retries = 3\n"})
    for store in (old_store, new_store):
        r = Repo.open(repo, store)
        ingest(r, progress=False)
        r.store.close()
    moved, n_closed, schema = _layout(old_store)
    assert schema == SCHEMA and all(m["valid_to"] == FOREVER for m in moved.values())
    assert n_closed == sum(1 for m in in_chroma.values() if m["valid_to"] != FOREVER)
    assert _answers(repo, old_store) == _answers(repo, new_store)
