"""The watcher: debounce logic with a fake clock, the uncommitted overlay, and a real daemon
that sees an edit and then the commit of it.  (How fast is the freshness benchmark's business,
not a unit test's: the waits below are generous liveness bounds, not speed claims.)"""

from __future__ import annotations

import time

from conftest import cli, cli_proc, commit, git

from repomem.integrations import daemon, overlay, worker
from repomem.integrations.watch import GIT, TREE, Classifier, Debouncer
from repomem.service.query import ask
from repomem.service.repo import Repo


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
        d.add(GIT, "refs/heads/main")
        c.t += 0.1
        if d.take():
            break
    assert c.t - 100.5 <= 1.11


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


def test_overlay_keys_match_the_committed_keys(new_repo):
    repo = new_repo()
    commit(repo, "2026-01-01T10:00:00+00:00", "one",
           {"app.py": SRC, "config.toml": "[server]\nport = 1\n", ".gitignore": "build/\n"})
    cli("init", "--no-hooks", "--repo", repo)
    r = Repo.open(repo)
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
