"""A damaged chroma.sqlite3 (the store of fact versions) is named at open with the rebuild
command, never read as "no facts" (Chroma would start it afresh without a word), and the
snapshot built before the damage does not go on answering as if nothing happened."""

from __future__ import annotations

import json

import pytest

from repomem.storage.integrity import sqlite_damage
from tests.conftest import cli, commit, git


@pytest.fixture
def store(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "2026-01-01T00:00:00Z", "a", {"c.toml": "port = 1\n"})
    commit(repo, "2026-01-02T00:00:00Z", "b", {"c.toml": "port = 2\n"})
    cli("init", "--repo", repo, "--no-hooks")
    return repo, repo / ".git" / "repomem" / "chroma.sqlite3"


def one_line(rc, out, err, *texts):
    lines = err.strip().splitlines()
    assert rc == 1 and out == "" and len(lines) == 2, (rc, out, err)
    assert all(t in lines[0] for t in texts) and "repomem rebuild --repo" in lines[1], err


@pytest.mark.parametrize("size", [0, "half"])
def test_a_truncated_versions_database_is_named_with_the_rebuild_command(store, size):
    repo, db = store
    assert sqlite_damage(db) is None
    with open(db, "r+b") as f:
        f.truncate(0 if size == 0 else db.stat().st_size // 2)
    what = "is empty" if size == 0 else "is truncated"
    for args in (["facts"], ["ingest"], ["ask", "which port"], ["history", "port"],
                 ["changes", "--since", "2026-01-01"], ["context", "which port"]):
        one_line(*cli(*args, "--repo", repo, check=False), "chroma.sqlite3", what)
    cli("rebuild", "--repo", repo, "-q")
    assert json.loads(cli("ask", "which port", "--repo", repo, "--json")[1])["answer"] == "2"
    assert sqlite_damage(db) is None


def test_sqlite_damage_reads_the_header(tmp_path):
    assert sqlite_damage(tmp_path / "none") == "is missing"
    (tmp_path / "x").write_bytes(b"not sqlite" * 20)
    assert sqlite_damage(tmp_path / "x") == "is not a SQLite database"
