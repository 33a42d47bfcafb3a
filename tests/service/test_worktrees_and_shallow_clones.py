"""Worktrees with their own views over one store, and shallow clones that are later unshallowed."""

from __future__ import annotations

import json

from repomem.integrations import worker
from repomem.service import viewcache
from repomem.service.ingest import ingest
from repomem.service.repo import Repo
from tests.conftest import cli, commit, git

PORT_KEY = "config:c.toml:port"


def _facts(repo, *extra) -> dict:
    got = json.loads(cli("facts", "--repo", repo, *extra, "--json")[1])
    return {f["key"]: f["value"] for f in got["facts"]}


def _ask(repo) -> str:
    return json.loads(cli("ask", "port in c.toml", "--repo", repo, "-k", "1", "--json")[1])["answer"]


def test_two_worktrees_on_different_commits_answer_each_their_own(new_repo, tmp_path):
    repo = new_repo()
    for i in range(1, 6):
        commit(repo, f"2026-01-0{i}T00:00:00Z", f"c{i}", {"c.toml": f"port = {i}\n"})
    cli("init", "--repo", repo)
    wt2 = tmp_path / "wt2"
    git(repo, "worktree", "add", "-q", "--detach", str(wt2), "HEAD~3")  # port = 2
    # In either order, and again after the other worktree was asked: each sees its own HEAD.
    for first, second in ((wt2, repo), (repo, wt2), (wt2, repo)):
        assert _ask(first) == ("2" if first == wt2 else "5")
        assert _ask(second) == ("2" if second == wt2 else "5")
    assert _facts(wt2)[PORT_KEY] == "2" and _facts(repo)[PORT_KEY] == "5"
    for tree, want, stale in ((wt2, "2", "5"), (repo, "5", "2")):
        rc, out, err = cli("context", "port in c.toml", "--repo", tree)
        assert f"port = {want}" in out or f": {want}" in out, out
        assert f"port = {stale}" not in out and "not indexed" not in err + out
    # A commit in the linked worktree reaches its view through its hook (the worker catches up
    # the work tree the hook names), not the main one's.
    store = repo / ".git" / "repomem"
    sha = commit(wt2, "2026-02-01T00:00:00Z", "wt", {"c.toml": "port = 22\n"})
    assert worker.wait_idle(store, timeout=60)
    assert viewcache.load_any(Repo.open(wt2).store)[0]["head"] == sha
    assert viewcache.load_any(Repo.open(repo).store)[0]["head"] == git(repo, "rev-parse", "HEAD")
    assert _ask(wt2) == "22" and _ask(repo) == "5"
    # One store, shared records: the linked worktree wrote no store of its own.
    assert sorted(p.name for p in store.glob("current-view*.npz")) == [
        "current-view.npz", f"current-view.{Repo.open(wt2).store.worktree}.npz"]
    assert not list(wt2.glob("**/chroma.sqlite3"))


def _build_history(repo):
    commit(repo, "2026-01-01T00:00:00Z", "c1", {"c.toml": "port = 1\n", "gone.toml": "x = 1\n"})
    commit(repo, "2026-01-02T00:00:00Z", "c2", {"c.toml": "port = 2\n", "keep.toml": "y = 1\n"})
    # c3 becomes the boundary of a depth-4 clone: it deletes gone.toml and changes keep.toml.
    commit(repo, "2026-01-03T00:00:00Z", "c3", {"gone.toml": None, "keep.toml": "y = 2\n"})
    for i in range(4, 7):
        commit(repo, f"2026-01-0{i}T00:00:00Z", f"c{i}", {"c.toml": f"port = {i}\n"})


def _ledger(repo, store) -> tuple[list, dict]:
    got = json.loads(cli("facts", "--repo", repo, "--store", store, "--json", "--as-of",
                         "2026-12-31")[1])["facts"]
    hist = {k: json.loads(cli("history", k, "--repo", repo, "--store", store, "--json")[1])
            for k in ("config:c.toml:port", "config:keep.toml:y", "config:gone.toml:x")}
    return got, hist


def test_shallow_clone_boundary_is_remined_after_unshallow(new_repo, tmp_path):
    origin = new_repo("origin")
    _build_history(origin)
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "4", f"file://{origin}", str(clone))
    assert git(clone, "rev-parse", "--is-shallow-repository") == "true"
    boundary = git(clone, "rev-parse", "HEAD~3")
    r = Repo.open(clone, tmp_path / "s")
    ingest(r, all_history=True, progress=False)
    with r.store.reader():
        assert r.store.get_meta("grafted") == [boundary]  # recorded as a graft, not a root
    git(clone, "fetch", "-q", "--unshallow")
    stats = ingest(Repo.open(clone, tmp_path / "s"), all_history=True, progress=False)
    assert stats["new"] == 2 and stats["remined"] == 1
    with r.store.reader():
        assert not r.store.get_meta("grafted")
    after = _ledger(clone, tmp_path / "s")
    cli("ingest", "--repo", clone, "--store", tmp_path / "fresh")  # the full history, afresh
    fresh = _ledger(clone, tmp_path / "fresh")
    assert after == fresh
    assert "config:gone.toml:x" not in {f["key"] for f in after[0]}
    assert [v["value"] for v in after[1]["config:keep.toml:y"]["versions"]] == ["1", "2"]


def test_worker_catches_up_every_work_tree_that_asked(new_repo, tmp_path):
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "c1", {"c.toml": "port = 1\n"})
    cli("init", "--repo", repo, "--no-hooks")
    wt2 = tmp_path / "wt2"
    git(repo, "worktree", "add", "-q", "-b", "side", str(wt2))
    sha = commit(wt2, "2026-01-02T00:00:00Z", "c2", {"c.toml": "port = 2\n"})
    store = repo / ".git" / "repomem"
    # What the hooks write: one line per request, naming the work tree (a worker started for
    # the main work tree must serve the linked one's request too).
    (store / "pending").write_text(f"{wt2}\n")
    assert worker.run(repo, store, request=False) == 0
    assert not (store / "pending").exists()
    assert viewcache.load_any(Repo.open(wt2).store)[0]["head"] == sha
    assert _ask(wt2) == "2" and _ask(repo) == "1"
