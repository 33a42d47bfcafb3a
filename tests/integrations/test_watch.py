"""The watcher: debounce logic with a fake clock, the uncommitted overlay, and a real daemon
that sees an edit and then the commit of it.  (How fast is the freshness benchmark's business,
not a unit test's: the waits below are generous liveness bounds, not speed claims.)"""

from __future__ import annotations

import os
import time

import pytest

from repomem.integrations import daemon, overlay, worker
from repomem.integrations.watch import GIT, TREE, Classifier, Debouncer
from repomem.service.query import ask
from repomem.service.repo import Repo
from tests.conftest import cli, cli_proc, commit, git


class Clock:
    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


def test_debounce_waits_for_quiet_and_caps_a_busy_stream():
    c = Clock()
    d = Debouncer(delay=0.3, max_delay=1.0, clock=c)
    assert d.take() is None and d.deadline() is None
    d.add(TREE, "a")
    c.t += 0.2
    d.add(TREE, "b")
    c.t += 0.2
    assert d.take() is None  # still within 0.3 s of the last event
    c.t += 0.1
    assert d.take() == {TREE: {"a", "b"}}
    assert d.take() is None
    for _ in range(20):  # an event every 0.1 s never goes quiet: due after max_delay
        d.add(TREE, "c")
        c.t += 0.1
        if d.take():
            break
    assert 1.0 <= c.t - 100.5 <= 1.11


def test_a_git_event_ends_its_batch_without_waiting_for_the_tree_to_go_quiet():
    # A commit moves a ref and its hook writes the pending marker: nothing more will come, so
    # the batch is due GIT_DELAY after it, not after the work tree's quiet time.
    c = Clock()
    d = Debouncer(delay=0.3, max_delay=3.0, clock=c, git_delay=0.03)
    d.add(TREE, "a.py")
    c.t += 0.1
    d.add(GIT, "refs/heads/main")
    c.t += 0.02
    assert d.take() is None
    d.add(GIT, "pending")  # the hook's marker, just after the ref
    c.t += 0.02
    assert d.take() is None  # within GIT_DELAY of the last git event
    c.t += 0.015
    assert d.take() == {TREE: {"a.py"}, GIT: {"refs/heads/main", "pending"}}
    d.add(TREE, "b.py")  # the next batch is a work-tree one again: the full quiet time
    c.t += 0.1
    assert d.take() is None
    c.t += 0.25
    assert d.take() == {TREE: {"b.py"}}


def test_classifier(new_repo):
    repo = new_repo()
    commit(repo, "2026-01-01T10:00:00+00:00", "one", {"a.py": "A = 1\n"})
    c = Classifier(repo, repo / ".git" / "repomem")
    g = repo / ".git"
    assert c(str(g / "HEAD")) == GIT
    assert c(str(g / "refs" / "heads" / "main")) == GIT
    assert c(str(g / "refs" / "heads" / "main.lock")) is None
    assert c(str(g / "objects" / "ab" / "cdef")) is None
    assert c(str(g / "index")) is None
    assert c(str(g / "repomem" / "pending")) == GIT
    # The worker removing the marker is no new request (that loop once cost 16% idle CPU).
    assert c(str(g / "repomem" / "pending"), "deleted") is None
    assert c(str(g / "repomem" / "chroma.sqlite3")) is None
    assert c(str(repo / "a.py")) == TREE


SRC = '''PORT = 8080


def lookup_user(user_id):
    """Find a user by id."""
    return user_id
'''


@pytest.mark.parametrize("fold_state", [True, False], ids=["through-ledger", "per-file"])
def test_overlay_keys_match_the_committed_keys(new_repo, fold_state):
    repo = new_repo()
    commit(repo, "2026-01-01T10:00:00+00:00", "one",
           {"app.py": SRC, "config.toml": "[server]\nport = 1\n", ".gitignore": "build/\n"})
    cli("init", "--no-hooks", "--repo", repo)
    r = Repo.open(repo)
    if not fold_state:  # as a reader without HEAD's fold state: each file against HEAD's alone
        r.store.records.drop_folds()
    keys = {f["subject"]: f["key"] for f in ask(r, "lookup_user function", k=10)["facts"]}
    (repo / "app.py").write_text(SRC.replace("8080", "9999").replace("lookup_user(user_id)",
                                                                     "find_user(user_id, db)"))
    (repo / "build").mkdir()
    (repo / "build" / "x.py").write_text("IGNORED = 1\n")
    got = {f["value"]: f for f in overlay.refresh(r)["facts"]}
    assert got["9999"]["key"] == "constant:app.py:PORT" and got["9999"]["uncommitted"]
    # The renamed function shadows the committed function's key (found by anchor and body).
    assert got["find_user"]["key"] == keys["function lookup_user"]
    assert not any(f["path"].startswith("build/") for f in got.values())
    assert {f["value"] for f in overlay.load(r)} == {"9999", "find_user"}
    # The context block shows the uncommitted value, flagged.
    out = cli("context", "what port does the app use", "--repo", repo)[1]
    assert "`9999`" in out and "UNCOMMITTED" in out
    # Once the file changes again, the stale overlay facts of it are not served.
    (repo / "app.py").write_text(SRC)
    assert overlay.load(r) == []


@pytest.mark.parametrize("fold_state", [True, False], ids=["through-ledger", "per-file"])
def test_a_fact_deleted_in_the_work_tree_is_not_served_as_current(new_repo, fold_state):
    # The agent deleted the setting (and, in another file, the whole file): the committed value
    # is no longer true, so the context says the setting is gone instead of serving it.
    repo = new_repo()
    commit(repo, "2026-01-01T10:00:00+00:00", "one",
           {"app.py": SRC, "settings.py": "MAIL_PORT = 2525\n"})
    cli("init", "--no-hooks", "--repo", repo)
    r = Repo.open(repo)
    if not fold_state:
        r.store.records.drop_folds()
    (repo / "app.py").write_text(SRC.replace("PORT = 8080\n", ""))
    (repo / "settings.py").unlink()
    got = overlay.refresh(r)["facts"]
    assert {(f["key"], f["removed"]) for f in got} == \
        {("constant:app.py:PORT", True), ("constant:settings.py:MAIL_PORT", True)}
    assert {f["key"] for f in overlay.load(r) if f["removed"]} == \
        {"constant:app.py:PORT", "constant:settings.py:MAIL_PORT"}
    out = cli("context", "what port does the app use", "--repo", repo)[1]
    assert "removed in the work tree" in out and "8080" not in out
    out = cli("context", "which MAIL_PORT do we send mail on", "--repo", repo)[1]
    assert "removed in the work tree" in out and "2525" not in out
    # Restored: nothing is removed any more, and the committed value is served again.
    git(repo, "checkout", "app.py", "settings.py")
    overlay.refresh(r)
    assert overlay.load(r) == []
    assert "`8080`" in cli("context", "what port does the app use", "--repo", repo)[1]


APP_JS = """const express = require('express');
const users = require('./users');
const app = express();
app.use('/api/users', users);
"""
USERS_JS = """const express = require('express');
const router = express.Router();
router.get('/login', function login(req, res) { res.send('x'); });
router.get('/logout', function logout(req, res) { res.send('y'); });
module.exports = router;
"""


def test_overlay_composes_routes_across_files_as_a_commit_would(new_repo):
    # A route of a router mounted in another file: the uncommitted value is its full path, and
    # an edited mount prefix changes the routes of an unmodified file.
    repo = new_repo()
    commit(repo, "2026-01-01T10:00:00+00:00", "one", {"app.js": APP_JS, "users.js": USERS_JS})
    cli("init", "--no-hooks", "--repo", repo)
    r = Repo.open(repo)
    (repo / "users.js").write_text(USERS_JS.replace("'/login'", "'/signin'"))
    assert {(f["value"], f["path"], f["removed"]) for f in overlay.refresh(r)["facts"]} == \
        {("GET /api/users/signin", "users.js", False), ("GET /api/users/login", "users.js", True)}
    git(repo, "checkout", "users.js")
    (repo / "app.js").write_text(APP_JS.replace("/api/users", "/api/v2/users"))
    got = overlay.refresh(r)["facts"]
    assert sorted(f["value"] for f in overlay.load(r)) == \
        ["GET /api/v2/users/login", "GET /api/v2/users/logout"]
    committed = {f["value"]: f["key"] for f in ask(r, "login route", k=10)["facts"]}
    assert {f["key"] for f in got} == {committed["GET /api/users/login"],
                                       committed["GET /api/users/logout"]}
    out = cli("context", "which path serves the login route", "--repo", repo)[1]
    assert "`GET /api/v2/users/login`" in out and "UNCOMMITTED" in out
    # Facts composed from an edit elsewhere are served only while every edited file is as mined.
    (repo / "app.js").write_text(APP_JS.replace("/api/users", "/api/v3/users"))
    assert overlay.load(r) == []


def test_overlay_resolves_build_values_from_an_edited_properties_file(new_repo):
    repo = new_repo()
    build = ('plugins { id "java" }\ndependencies {\n'
             '    implementation("org.springframework.boot:spring-boot-starter-web:$springBootVersion")\n}\n')
    commit(repo, "2026-01-01T10:00:00+00:00", "one",
           {"build.gradle": build, "gradle.properties": "springBootVersion=3.1.5\n"})
    cli("init", "--no-hooks", "--repo", repo)
    r = Repo.open(repo)
    (repo / "gradle.properties").write_text("springBootVersion=3.3.0\n")
    web = "dependency:gradle:.:main:org.springframework.boot:spring-boot-starter-web"
    got = {f["key"]: f for f in overlay.refresh(r)["facts"]}
    assert got[web]["value"] == "3.3.0" and got[web]["path"] == "build.gradle"
    assert [f["value"] for f in overlay.load(r) if f["key"] == web] == ["3.3.0"]


def _wait(pred, timeout=60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = pred()
        if got:
            return got
        time.sleep(0.02)
    raise AssertionError("timed out")


def test_daemon_sees_an_edit_then_its_commit(new_repo):
    repo = new_repo()
    store = repo / ".git" / "repomem"
    commit(repo, "2026-01-01T10:00:00+00:00", "one", {"app.py": SRC})
    cli("init", "--repo", repo)
    cli_proc("daemon", "start", "--repo", repo)
    try:
        assert "running" in cli_proc("daemon", "status", "--repo", repo)[1]
        r = Repo.open(repo)
        (repo / "app.py").write_text(SRC.replace("8080", "4321"))
        f = _wait(lambda: [x for x in overlay.load(r) if x["value"] == "4321"])[0]
        assert f["key"] == "constant:app.py:PORT" and f["uncommitted"]

        git(repo, "commit", "-q", "-am", "port 4321", date="2026-01-02T10:00:00+00:00")
        assert worker.wait_idle(store, timeout=60)
        _wait(lambda: not overlay.load(r))
        fact = ask(r, "PORT in app.py", k=1)["facts"][0]
        assert fact["value"] == "4321" and fact["commit"] == git(repo, "rev-parse", "HEAD")
        # A commit made behind the hooks' back (no hook runs for update-ref) is ingested too.
        (repo / "app.py").write_text(SRC.replace("8080", "5555"))
        git(repo, "add", "app.py")
        new = git(repo, "commit-tree", git(repo, "write-tree"), "-p", "HEAD", "-m", "plumbing",
                  date="2026-01-03T10:00:00+00:00")
        git(repo, "update-ref", "refs/heads/main", new)
        _wait(lambda: _indexed(repo, new))
        assert ask(Repo.open(repo), "PORT in app.py", k=1)["answer"] == "5555"
    finally:
        cli_proc("daemon", "stop", "--repo", repo)
    assert daemon.running(store) is None


def _indexed(repo, sha) -> bool:
    from repomem.storage.store import Store

    s = Store(repo / ".git" / "repomem")
    with s.reader():
        return sha in s.ingested()


def test_a_request_for_the_head_just_indexed_is_not_served_twice(new_repo, monkeypatch):
    """The post-commit hook writes its request a moment after git moved the ref, which the
    daemon may already be indexing: the worker serves it only if HEAD has moved since, and the
    watcher drops the marker's own event once the request was taken."""
    from repomem.integrations.watch import Watcher

    repo = new_repo()
    commit(repo, "2026-01-01T10:00:00+00:00", "one", {"app.py": SRC})
    cli("init", "--no-hooks", "--repo", repo)
    r = Repo.open(repo)
    store = r.store.path
    calls, real = [], worker.catch_up

    def counting(rr, then=None):
        calls.append(git(repo, "rev-parse", "HEAD").strip())
        out = real(rr)
        if then:
            then()
        return out

    # the hook's request arrives while the commit it is about is being indexed: one catch-up
    commit(repo, "2026-01-02T10:00:00+00:00", "two", {"app.py": SRC.replace("8080", "1")})
    monkeypatch.setattr(worker, "catch_up", lambda rr: counting(
        rr, None if calls else lambda: worker.pending_file(store).write_text(f"{repo}\n")))
    worker.run(repo, store)
    assert len(calls) == 1 and not worker.pending_file(store).exists()
    # a commit that lands while the previous one is indexed (after its history was read), and
    # its hook's request, are served
    import repomem.service.ingest as ingest_mod

    calls.clear()
    monkeypatch.setattr(worker, "catch_up", lambda rr: counting(rr))
    real_ingest = ingest_mod.ingest

    def ingest_then_commit(*a, **k):
        out = real_ingest(*a, **k)
        if len(calls) == 1:
            commit(repo, "2026-01-03T10:00:00+00:00", "three", {"app.py": SRC.replace("8080", "2")})
            worker.pending_file(store).write_text(f"{repo}\n")
        return out
    monkeypatch.setattr(ingest_mod, "ingest", ingest_then_commit)
    worker.run(repo, store)
    assert len(calls) == 2 and calls[0] != calls[1]
    assert ask(r, "PORT", k=1)["facts"][0]["value"] == "2"
    # the watcher: the marker's event after its request was taken is no work; before, it is
    runs = []
    monkeypatch.setattr(worker, "run", lambda *a, **k: runs.append(a))
    w = Watcher(r)
    marker = str(worker.pending_file(w.classify.store))
    w.handle({GIT: {marker}})
    assert runs == []
    worker.pending_file(store).write_text(f"{repo}\n")
    w.handle({GIT: {marker}})
    assert len(runs) == 1
    w.handle({GIT: {str(w.classify.git_dir / "HEAD")}})  # a ref event is always served
    assert len(runs) == 2


def test_the_watchers_request_outlasts_a_probe_of_the_worker_lock(new_repo):
    """``idle()`` takes the worker lock for a moment to see whether a worker runs.  The
    watcher's own request writes no marker that a running worker would see, so a batch that
    met a probe's lock would leave the commit unindexed until the next event."""
    import threading

    repo = new_repo()
    commit(repo, "2026-01-01T10:00:00+00:00", "one", {"app.py": SRC})
    cli("init", "--no-hooks", "--repo", repo)
    r = Repo.open(repo)
    commit(repo, "2026-01-02T10:00:00+00:00", "two", {"app.py": SRC.replace("8080", "7")})
    probe = worker._try_lock(r.store.path)  # as idle() does
    assert probe is not None
    threading.Timer(0.03, os.close, [probe]).start()
    worker.run(repo, r.store.path)
    assert ask(r, "PORT", k=1)["facts"][0]["value"] == "7"
