"""The checked-out tree first, the history behind it: `repomem init` answers current questions
from HEAD's tree, an as-of question only up to the date the history has reached (and says so
past it), and once the backfill is done the ledger equals a plain full ingest's.  Real git
repositories, real Chroma, a real detached backfill process killed with SIGKILL."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from repomem.service import backfill
from repomem.service.ingest import index_history, ingest, tree_first
from repomem.service.query import ask
from repomem.service.repo import Repo
from tests.conftest import ROOT, cli, cli_proc, commit, git
from tests.support.history import build_history, ledger_snapshot

# as the benchmarks find them (bench.real.default_sources): ../shared/realrepos beside the checkout
REALREPOS = Path(os.environ.get("REPOMEM_REALREPOS") or ROOT.parent / "shared" / "realrepos")


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    """A 24-commit history and the ledger a plain full ingest gives."""
    repo = tmp_path_factory.mktemp("tree") / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    shas = build_history(repo, n=24)
    ref = repo.parent / "ref-store"
    ingest(Repo.open(repo, ref), all_history=True, progress=False)
    return repo, shas, ref, ledger_snapshot(repo, ref)


def _current(repo, store) -> set:
    """The current facts as a user sees them (a function's key holds its birth commit, which
    only the history knows)."""
    from repomem.service.query import facts

    return {(f["kind"], f["subject"], f["value"], f["path"], f["line"])
            for f in facts(Repo.open(repo, store))["facts"]}


def test_current_first_then_history(history, tmp_path):
    repo, shas, ref, expected = history
    store = tmp_path / "store"
    r = Repo.open(repo, store)
    tree_first(r)
    # current questions: right at once, from the tree, with the last commit that touched the file
    got = ask(r, "what port does the app listen on?")
    assert got["answer"] == "8023" and not got["unindexed_commits"]
    assert got["facts"][0]["commit"] == shas[-1]
    assert _current(repo, store) == _current(repo, ref)
    # the history has reached nothing yet: an as-of question says so, plain and JSON
    rc, out, _ = cli("ask", "PORT", "--as-of", "2026-03-03", "--repo", repo, "--store", store,
                     "--json")
    got = json.loads(out)
    assert got["complete"] is False and got["history_indexed_to"] is None and not got["facts"]
    _, out, _ = cli("ask", "PORT", "--as-of", "2026-03-03", "--repo", repo, "--store", store)
    assert "not answered" in out and "indexed up to no date yet" in out
    # the first 8 commits (2026-03-01 .. 03-04) indexed: a date they cover is answered like a
    # full ingest answers it; a later one is not
    ingest(r, revs=shas[:8], progress=False)
    for day, indexed in (("2026-03-02", True), ("2026-03-04", True), ("2026-03-06", False)):
        got = ask(r, "PORT", as_of=day)
        want = ask(Repo.open(repo, ref), "PORT", as_of=day)
        if indexed:
            assert got["complete"] is True and got["answer"] == want["answer"], day
            assert got["history_indexed_to"].startswith("2026-03-04T11:00:00")
        else:
            assert got["complete"] is False and got["answer"] is None, day
    # after HEAD's day the tree answers
    assert ask(r, "PORT", as_of="2026-03-20")["answer"] == "8023"
    # facts --as-of and history say the same, never a partial list in silence
    from repomem.service.query import facts, history

    def then(got):  # what held then (how long it went on holding is past what is indexed)
        return [{k: v for k, v in f.items() if k not in ("valid_to", "superseded_by",
                                                          "end_reason")} for f in got["facts"]]

    assert then(facts(r, "2026-03-02")) == then(facts(Repo.open(repo, ref), "2026-03-02"))
    assert facts(r, "2026-03-02")["complete"] is True
    got = facts(r, "2026-03-06")
    assert got["complete"] is False and got["facts"] == []
    assert history(r, "constant:app.py:PORT")["complete"] is False
    st = backfill.describe(backfill.read_state(store), False)
    assert (st["commits"], st["complete"]) == (24, False)
    index_history(r)
    assert ledger_snapshot(repo, store) == expected
    st = backfill.describe(backfill.read_state(store), False)
    assert (st["done"], st["left"], st["complete"]) == (24, 0, True)
    assert "complete" not in ask(r, "PORT", as_of="2026-03-06")  # a plain as-of answer again
    assert "complete" not in history(r, "constant:app.py:PORT")


def test_init_runs_one_backfill_in_the_background(history, tmp_path):
    repo, shas, ref, expected = history
    store = tmp_path / "store"
    env = dict(os.environ, REPOMEM_TREE_FIRST_MIN="5")
    proc = subprocess.run([sys.executable, "-m", "repomem", "init", "--no-hooks", "-q", "--json",
                           "--repo", str(repo), "--store", str(store)], env=env,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["history"] == "indexing" and out["versions"] > 0 and out["head"] == shas[-1]
    assert backfill.wait(store, timeout=120)
    assert ledger_snapshot(repo, store) == expected
    _, out, _ = cli("status", "--repo", repo, "--store", store, "--json")
    assert json.loads(out)["complete"] is True
    # a second init while a backfill holds the lock starts none
    other = tmp_path / "other"
    r = Repo.open(repo, other)
    tree_first(r)
    fd = backfill.acquire(other)
    assert fd is not None
    try:
        before = backfill.read_state(other)
        proc = subprocess.run([sys.executable, "-m", "repomem", "init", "--no-hooks", "--repo",
                               str(repo), "--store", str(other)], env=env, capture_output=True,
                              text=True)
        assert proc.returncode == 0 and "being indexed in the background" in proc.stdout
        time.sleep(0.5)  # a second backfill, had one started, would have rewritten the state
        assert backfill.read_state(other) == before
    finally:
        os.close(fd)
    _, out, _ = cli("status", "--repo", repo, "--store", other)
    assert "0 of 24 commits indexed" in out and "not running" in out
    # --wait resumes it in the foreground and returns once it is done
    cli("init", "--no-hooks", "--wait", "-q", "--repo", repo, "--store", other)
    assert ledger_snapshot(repo, other) == expected


def _backfill_proc(repo, store, crash_at=None):
    env = dict(os.environ, REPOMEM_BACKFILL_BATCH="3")
    if crash_at:
        env["REPOMEM_CRASH_AT"] = crash_at
    return subprocess.Popen([sys.executable, "-m", "repomem.integrations.worker", "--backfill",
                             "--foreground", "--repo", str(repo), "--store", str(store)],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def test_kill_9_backfill_at_random_points(history, tmp_path):
    """SIGKILL at a crash point (after a batch is stored, inside the view's fold) and from
    outside at random moments; each time the next run completes to the full ingest's ledger."""
    repo, shas, ref, expected = history
    rng = random.Random(38)
    for point in (f"records:{rng.randint(1, 7)}", "view:1", "view:2"):
        store = tmp_path / point.replace(":", "-")
        tree_first(Repo.open(repo, store))
        proc = _backfill_proc(repo, store, point)
        assert proc.wait(120) == -signal.SIGKILL, proc.stderr.read()
        assert not backfill.running(store)
        index_history(Repo.open(repo, store))
        assert ledger_snapshot(repo, store) == expected, point
    store = tmp_path / "timing"
    tree_first(Repo.open(repo, store))
    t0 = time.monotonic()
    assert _backfill_proc(repo, store).wait(120) == 0
    full = time.monotonic() - t0
    for i in range(3):
        store = tmp_path / f"outside{i}"
        tree_first(Repo.open(repo, store))
        proc = _backfill_proc(repo, store)
        time.sleep(full * rng.uniform(0.3, 0.95))
        proc.send_signal(signal.SIGKILL)
        proc.wait(60)
        index_history(Repo.open(repo, store))
        assert ledger_snapshot(repo, store) == expected, i


def test_hook_during_backfill_neither_blocks_nor_double_indexes(tmp_path):
    """A commit made while the backfill runs: the hooks' catch-up indexes that commit alone
    (the history is the backfill's) and answers it at once; the backfill then completes to the
    ledger of a plain full ingest of the new HEAD."""
    from repomem.integrations.worker import catch_up

    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    build_history(repo, n=24)
    store = tmp_path / "store"
    r = Repo.open(repo, store)
    tree_first(r)
    proc = _backfill_proc(repo, store)
    try:
        deadline = time.monotonic() + 60
        while not backfill.running(store):
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.02)
        with r.store.writer():  # the backfill waits to store its next batch meanwhile
            before = r.store.ingested()
            new = commit(repo, "2026-03-20T10:00:00+00:00", "port", {"app.py": "PORT = 9999\n"})
            t0 = time.monotonic()
            catch_up(r)
            spent = time.monotonic() - t0
            assert r.store.ingested() - before == {new}  # nothing of the backfill's history
        assert ask(r, "PORT")["answer"] == "9999"
        assert spent < 30
        assert proc.wait(120) == 0, proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
    ref = tmp_path / "ref"
    ingest(Repo.open(repo, ref), all_history=True, progress=False)
    Repo.open(repo, store)
    ingest(Repo.open(repo, store), all_history=True, progress=False)  # nothing left: a no-op
    assert ledger_snapshot(repo, store) == ledger_snapshot(repo, ref)


@pytest.mark.parametrize("name", ["microblog", "golang-gin-realworld-example-app", "mini-redis"])
def test_tree_facts_equal_the_history_on_real_repos(name, tmp_path):
    """The tree view's current facts are the full history's (bench/tree_vs_history.py
    runs every training history)."""
    bundle = REALREPOS / f"{name}.bundle"
    if not bundle.exists():
        pytest.skip(f"{REALREPOS} is absent")
    repo = tmp_path / name
    subprocess.run(["git", "clone", "-q", str(bundle), str(repo)], check=True)
    tree_first(Repo.open(repo, tmp_path / "tree"))
    ingest(Repo.open(repo, tmp_path / "full"), all_history=True, progress=False)
    assert _current(repo, tmp_path / "tree") == _current(repo, tmp_path / "full")


# -- progress ------------------------------------------------------------------------------------
def test_progress_bar_on_a_terminal(history, tmp_path):
    import pty

    repo = history[0]
    env = dict(os.environ, REPOMEM_TREE_FIRST_MIN="5", COLUMNS="120")
    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "repomem", "init", "--no-hooks", "--wait",
                             "--repo", str(repo), "--store", str(tmp_path / "store")], env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=follower)
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    proc.wait(120)
    os.close(leader)
    text = seen.decode("utf-8", "replace")
    assert proc.returncode == 0
    assert "━" in text  # rich's bar
    assert "current tree" in text and "history" in text and "24/24" in text


def test_progress_lines_off_a_terminal(history, tmp_path):
    repo = history[0]
    env = dict(os.environ, REPOMEM_PROGRESS_INTERVAL="0", REPOMEM_TREE_FIRST_MIN="5")
    proc = subprocess.run([sys.executable, "-m", "repomem", "init", "--no-hooks", "--wait",
                           "--json", "--repo", str(repo), "--store", str(tmp_path / "store")],
                          env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["history"] == "complete"  # stdout is the JSON alone
    lines = [ln for ln in proc.stderr.splitlines() if ln.startswith("repomem: ")]
    assert any(ln.startswith("repomem: current tree: ") and "files (" in ln for ln in lines)
    assert any(ln.startswith("repomem: history: ") and "/24 commits" in ln and "/s, ETA" in ln
               for ln in lines), proc.stderr
    assert "\r" not in proc.stderr and "━" not in proc.stderr
    # -q: nothing at all
    proc = subprocess.run([sys.executable, "-m", "repomem", "init", "--no-hooks", "-q", "--wait",
                           "--repo", str(repo), "--store", str(tmp_path / "quiet")],
                          env=dict(env, REPOMEM_TREE_FIRST_MIN="5"), capture_output=True,
                          text=True)
    assert proc.returncode == 0 and proc.stderr == "" and proc.stdout == ""


def test_status_without_a_backfill(history, tmp_path):
    repo, _, ref, _ = history
    rc, out, _ = cli_proc("status", "--repo", repo, "--store", ref)
    assert rc == 0 and out.strip() == "history: complete"


# -- the tree's mining workers --------------------------------------------------------------------
def _check_tree_workers(repo: Path, method: str | None) -> None:
    """HEAD's tree of REPO mined by two workers started by ``start_pool`` (by METHOD, when
    given) gives the record one process gives."""
    from repomem.adapters import git as gitlib
    from repomem.service import current

    head = gitlib.first_parent_chain(repo)[-1]
    listed = current.tree_files(repo, head.sha)
    pool = current.start_pool(repo, len(listed), 2)
    assert pool is not None
    if method is not None:
        assert pool._mp_context.get_start_method() == method
    forked = current.mine_tree(repo, head, 2, pool=pool, files=listed)
    alone = current.mine_tree(repo, head, 1, files=listed)
    assert forked.files == alone.files and len(forked.files) == 161
    assert all(forked.files[f"pkg/m{i:03}.py"] for i in range(160))  # each module's facts


def test_tree_workers_mine_as_one_process_does(tmp_path):
    """Forked (a fresh process, no other thread) and spawned (this one, whose earlier tests
    left threads behind) tree workers both mine what one process mines."""
    repo = tmp_path / "wide"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    files = {f"pkg/m{i:03}.py": f'"""Module {i}."""\nLIMIT_{i} = {i}\n\n\ndef handle_{i}(x):\n'
                                f'    """Handle {i}."""\n    return x + {i}\n' for i in range(160)}
    files["pyproject.toml"] = '[project]\nname = "wide"\nversion = "1.2.3"\n'
    commit(repo, "2024-01-01T00:00:00Z", "wide", files)
    code = ("import sys; from pathlib import Path; sys.path.insert(0, sys.argv[1]); "
            "from test_tree_first import _check_tree_workers; "
            "_check_tree_workers(Path(sys.argv[2]), 'fork')")
    got = subprocess.run([sys.executable, "-c", code, str(Path(__file__).parent), str(repo)],
                         capture_output=True, text=True, timeout=300)
    assert got.returncode == 0, got.stderr
    _check_tree_workers(repo, None)
