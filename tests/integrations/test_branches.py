"""Branches and rewritten history, through real git subprocesses with the hooks installed:
the answer is always the one for the checked-out history, and facts that only unreachable
commits stated stop being current."""

from __future__ import annotations

import time

from repomem.integrations import worker
from repomem.service.query import ask, history
from repomem.service.repo import Repo
from tests.conftest import cli_json, cli_proc, commit, git


def _port(repo, store) -> str:
    assert worker.wait_idle(store, timeout=60)
    return ask(Repo.open(repo), "PORT in app.py", k=1)["answer"]


def test_branch_checkout_merge_amend_reset_rebase(new_repo):
    repo = new_repo()
    store = repo / ".git" / "repomem"
    commit(repo, "2026-01-01T10:00:00+00:00", "base", {"app.py": "PORT = 8080\n"})
    from tests.conftest import cli

    cli("init", "--repo", repo)
    # The hooks hand their requests to a running daemon (which has chroma loaded already): the
    # same pending-marker path as a detached worker, at a fraction of the start-up cost.
    # test_hooks.py covers the detached worker itself.
    cli_proc("daemon", "start", "--repo", repo)
    try:
        _scenario(repo, store)
    finally:
        cli_proc("daemon", "stop", "--repo", repo)


def _scenario(repo, store):

    # A value committed on an unmerged branch is never current on another branch.
    git(repo, "checkout", "-q", "-b", "feature")
    commit(repo, "2026-01-02T10:00:00+00:00", "feature port", {"app.py": "PORT = 9090\n"})
    assert _port(repo, store) == "9090"
    git(repo, "checkout", "-q", "main")
    assert cli_json("ask", "PORT in app.py", "--repo", repo)["answer"] == "8080"

    # Merge (a real merge commit): the branch's value is current from the merge commit's time.
    commit(repo, "2026-01-03T10:00:00+00:00", "main work", {"other.py": "DEBUG = False\n"})
    git(repo, "merge", "-q", "--no-ff", "-m", "merge feature", "feature",
        date="2026-01-04T10:00:00+00:00")
    assert _port(repo, store) == "9090"
    r = Repo.open(repo)
    before = ask(r, "PORT in app.py", as_of="2026-01-03T12:00:00+00:00", k=1)
    assert before["answer"] == "8080"  # on main, the feature's value was not yet current
    merged = ask(r, "PORT in app.py", k=1)["facts"][0]
    assert merged["valid_from"].startswith("2026-01-04T10:00:00")

    # Amend: the amended-away value stops being current.
    commit(repo, "2026-01-05T10:00:00+00:00", "port 7070", {"app.py": "PORT = 7070\n"})
    assert _port(repo, store) == "7070"
    (repo / "app.py").write_text("PORT = 7171\n")
    git(repo, "commit", "-q", "-a", "--amend", "-m", "port 7171", date="2026-01-05T11:00:00+00:00")
    amended = git(repo, "rev-parse", "HEAD")
    assert _port(repo, store) == "7171"
    hist = history(Repo.open(repo), "constant:app.py:PORT")["versions"]
    assert "7070" not in [v["value"] for v in hist]

    # reset --hard drops the amended commit from the history.
    git(repo, "reset", "-q", "--hard", "HEAD~1")
    after_reset = git(repo, "rev-parse", "HEAD")
    assert _port(repo, store) == "9090"

    # Rebase: a topic branch's commits are replayed onto new main; only the new commits count.
    git(repo, "checkout", "-q", "-b", "topic")
    commit(repo, "2026-01-06T10:00:00+00:00", "topic", {"app.py": "PORT = 6060\n"})
    old_topic = git(repo, "rev-parse", "HEAD")
    git(repo, "checkout", "-q", "main")
    commit(repo, "2026-01-07T10:00:00+00:00", "main 2", {"other.py": "DEBUG = True\n"})
    git(repo, "checkout", "-q", "topic")
    git(repo, "rebase", "-q", "main", date="2026-01-08T10:00:00+00:00")
    assert _port(repo, store) == "6060"
    fact = ask(Repo.open(repo), "PORT in app.py", k=1)["facts"][0]
    assert fact["commit"] != old_topic and fact["commit"] == git(repo, "rev-parse", "HEAD")
    assert ask(Repo.open(repo), "DEBUG in other.py", k=1)["answer"] == "True"

    # The per-branch record of the last indexed HEAD follows.
    from repomem.storage.store import Store

    s = Store(store)
    with s.reader():
        heads = s.get_meta("heads")
    assert heads["topic"] == git(repo, "rev-parse", "HEAD")
    # main's record is a HEAD main had while the daemon handled one of its events there: the
    # amended commit that reset dropped, or -- the daemon handles git events within 30 ms --
    # the reset's or "main 2"'s. It sees the rewrite (at the reset, or back on main) and
    # records main's HEAD.
    assert heads["main"] in (amended, after_reset, git(repo, "rev-parse", "main"))
    git(repo, "checkout", "-q", "main")
    assert _port(repo, store) == "9090"
    deadline = time.monotonic() + 60
    while True:  # the checkout's own batch may still be on its way to the daemon
        with s.reader():
            if s.get_meta("heads")["main"] == git(repo, "rev-parse", "main"):
                break
        assert time.monotonic() < deadline, "main's HEAD not recorded"
        time.sleep(0.05)
    logs = "".join(p.read_text() for p in (store / "worker.log", store / "daemon.log")
                   if p.exists())
    assert "history of main was rewritten" in logs


def test_forced_pull_drops_facts_of_rewritten_upstream(new_repo, tmp_path):
    up = new_repo("upstream")
    commit(up, "2026-02-01T10:00:00+00:00", "base", {"app.py": "PORT = 1000\n"})
    commit(up, "2026-02-02T10:00:00+00:00", "bad", {"app.py": "PORT = 6666\n"})
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(up), str(clone))
    from tests.conftest import cli

    cli("init", "--repo", clone)
    store = clone / ".git" / "repomem"
    assert _port(clone, store) == "6666"
    # Upstream rewrites its history (the bad commit is replaced), the clone force-pulls.
    git(up, "reset", "-q", "--hard", "HEAD~1")
    commit(up, "2026-02-03T10:00:00+00:00", "good", {"app.py": "PORT = 2000\n"})
    git(clone, "fetch", "-q", "origin")
    git(clone, "reset", "-q", "--hard", "origin/main")
    # reset fires no hook: the next query already drops the unreachable commit's value ...
    res = cli_json("ask", "PORT in app.py", "--repo", clone)
    assert res["answer"] == "1000"
    # ... and the next hook (here a checkout) or the daemon ingests what reset brought in.
    git(clone, "checkout", "-q", "main")
    assert _port(clone, store) == "2000"
    values = [v["value"] for v in history(Repo.open(clone), "constant:app.py:PORT")["versions"]]
    assert values == ["1000", "2000"]
    # A record of a HEAD that no longer exists (gc'd) is recovered from, not trusted.
    git(clone, "reflog", "expire", "--expire=now", "--all")
    git(clone, "gc", "-q", "--prune=now")
    git(clone, "commit", "-q", "--allow-empty", "-m", "after gc", date="2026-02-04T10:00:00+00:00")
    assert _port(clone, store) == "2000"
