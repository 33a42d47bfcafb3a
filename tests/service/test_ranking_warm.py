"""A warm process (MCP, the bench) asks many questions of one HEAD: the snapshot's distance to
HEAD is read from git again only when HEAD or its branch moved (query._behind)."""

from __future__ import annotations

from repomem.service.ingest import ingest
from repomem.service.query import ask
from repomem.service.repo import Repo
from tests.conftest import commit


def test_a_warm_process_sees_every_new_commit(new_repo, tmp_path):
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"c.toml": "port = 1\n"})
    r = Repo.open(repo, store=tmp_path / "s")
    ingest(r, all_history=True)
    assert ask(r, "port?")["unindexed_commits"] == 0
    assert ask(r, "port?")["unindexed_commits"] == 0
    commit(repo, "2026-01-02T00:00:00Z", "b", {"c.toml": "port = 2\n"})
    assert ask(r, "port?")["unindexed_commits"] == 1
    commit(repo, "2026-01-03T00:00:00Z", "c", {"c.toml": "port = 3\n"})
    got = ask(r, "port?")
    assert got["unindexed_commits"] == 2 and got["answer"] == "1"
    ingest(r)
    assert ask(r, "port?")["answer"] == "3"
