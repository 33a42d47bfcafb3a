"""The record store (SQLite beside Chroma) and stores of the older format.

A store written by the code before the record store (schema 3: commit records, metadata and the
fold state in Chroma rows and a gzipped file) is built here by that code itself, exported from
git, and then opened by this code: one clear line saying how to rebuild it, never a traceback,
and the rebuilt store answers the same."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys

from repomem.service.ingest import ingest
from repomem.service.repo import Repo
from repomem.storage.recordstore import MIGRATIONS
from tests.conftest import ROOT, cli, commit
from tests.support.oldcode import old_code

OLD = "d9511ea"  # the last commit of schema 3


def test_a_store_of_the_old_format_names_its_rebuild(new_repo, tmp_path):
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"c.toml": "port = 1\n"})
    commit(repo, "2026-01-02T00:00:00Z", "b", {"c.toml": "port = 2\n"})
    store = tmp_path / "s"
    code = old_code(tmp_path, OLD, "the schema 3 code")
    # cwd elsewhere: `-m` puts the working folder first on the path, before PYTHONPATH
    subprocess.run([sys.executable, "-m", "repomem", "init", "--no-hooks", "--repo", str(repo),
                    "--store", str(store)], cwd=tmp_path, check=True, capture_output=True,
                   env=dict(os.environ, PYTHONPATH=str(code)))
    assert (store / "chroma.sqlite3").exists() and not (store / "records.sqlite3").exists()
    # (``ask`` may still answer from the old store's current-view snapshot: the same versions)
    for cmd in (["facts"], ["ingest"], ["history", "config:c.toml:port"]):
        rc, out, err = cli(*cmd, "--repo", repo, "--store", store, check=False)
        assert rc == 1 and "older format" in err and "Traceback" not in err, (cmd, err)
        assert len(err.strip().splitlines()) == 2 and "hint: rebuild it from git: mv " in err
    assert not (store / "records.sqlite3").exists()  # refusing wrote nothing
    fix = err.split("rebuild it from git: ", 1)[1].strip()
    subprocess.run(fix.replace("repomem init", f"{sys.executable} -m repomem init --no-hooks "
                                               f"--repo {repo}"),
                   shell=True, check=True, cwd=ROOT, capture_output=True)
    hist = json.loads(cli("history", "config:c.toml:port", "--repo", repo, "--store", store,
                          "--json")[1])
    assert [v["value"] for v in hist["versions"]] == ["1", "2"]


def test_records_metadata_and_fold_state_live_in_sqlite(new_repo, tmp_path):
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"c.toml": "port = 1\n"})
    commit(repo, "2026-01-02T00:00:00Z", "b", {"c.toml": "port = 2\n"})
    r = Repo.open(repo, store=tmp_path / "s")
    ingest(r, all_history=True)
    r.store.close()
    con = sqlite3.connect(tmp_path / "s" / "records.sqlite3")
    try:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert con.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
        assert con.execute("SELECT count(*) FROM records").fetchone()[0] == 2
        assert json.loads(con.execute("SELECT value FROM meta WHERE name = 'embedder'")
                          .fetchone()[0]) == "hash-v1-256"
        assert con.execute("SELECT view FROM folds").fetchall() == [("fold",)]
    finally:
        con.close()
    # no dummy-vector rows or fold files any more: Chroma holds the fact versions only
    names = {c.name for c in __import__("chromadb").PersistentClient(
        path=str(tmp_path / "s")).list_collections()}
    assert names == {"repomem_versions"}
    assert not list((tmp_path / "s").glob("fold*"))


def test_reingest_is_idempotent_and_keeps_the_first_transaction_time(new_repo, tmp_path):
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"c.toml": "port = 1\n"})
    r = Repo.open(repo, store=tmp_path / "s")
    ingest(r, all_history=True)
    with r.store.reader():
        (sha,) = r.store.record_shas()
        first = r.store.load_records([sha])[sha][1]
        rec = r.store.load_records([sha])[sha][0]
    with r.store.writer():
        r.store.put_records([rec, rec], first + 100)
        assert r.store.record_shas() == [sha]
        assert r.store.load_records([sha])[sha][1] == first
