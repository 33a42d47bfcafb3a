"""Hook shims: install never clobbers, chains and restores a foreign hook, never fails git, and
keeps the index fresh through commits made by real git subprocesses."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import time

from repomem.integrations import hooks, worker
from repomem.service.query import ask
from repomem.service.repo import Repo
from tests.conftest import cli, commit, git


def _init(repo):
    commit(repo, "2026-01-01T10:00:00+00:00", "one", {"app.py": "PORT = 8080\n"})
    cli("init", "--repo", repo)
    return repo / ".git" / "repomem"


def _port(repo) -> str:
    return ask(Repo.open(repo), "PORT in app.py", k=1)["answer"]


def test_install_chains_and_uninstall_restores_a_foreign_hook(new_repo):
    repo = new_repo()
    hook = repo / ".git" / "hooks" / "post-commit"
    hook.parent.mkdir(parents=True, exist_ok=True)
    hook.write_text("#!/bin/sh\necho ran >> \"$(git rev-parse --git-dir)/foreign.log\"\n")
    hook.chmod(0o755)
    store = _init(repo)

    assert hooks.is_ours(hook)
    assert (hook.parent / "post-commit.legacy").exists()
    head = hook.read_text().splitlines()
    assert head[0] == "#!/bin/sh" and any(ln.startswith("# ID: repomem-") for ln in head)
    status = cli("hooks", "status", "--repo", repo)[1]
    assert "post-commit: installed, chains post-commit.legacy" in status

    foreign = repo / ".git" / "foreign.log"
    foreign.unlink()
    commit(repo, "2026-01-02T10:00:00+00:00", "two", {"app.py": "PORT = 9090\n"})
    assert foreign.read_text() == "ran\n"
    assert worker.wait_idle(store, timeout=60)
    assert _port(repo) == "9090"

    # A second install is a no-op for the chained hook (it is not moved over itself).
    assert len(hooks.install(repo)) == 4
    assert (hook.parent / "post-commit.legacy").read_text().startswith("#!/bin/sh\necho ran")

    cli("hooks", "uninstall", "--repo", repo)
    assert hook.read_text().startswith("#!/bin/sh\necho ran")
    assert not (hook.parent / "post-commit.legacy").exists()
    assert not (hook.parent / "post-merge").exists()
    commit(repo, "2026-01-03T10:00:00+00:00", "three", {"app.py": "PORT = 7070\n"})
    assert foreign.read_text() == "ran\nran\n"


def test_core_hooks_path_elsewhere_is_refused_with_a_hint(new_repo, tmp_path):
    repo = new_repo()
    git(repo, "config", "core.hooksPath", str(tmp_path / "shared-hooks"))
    rc, out, err = cli("hooks", "install", "--repo", repo, check=False)
    assert rc == 1
    assert "core.hooksPath" in err and "hint:" in err
    assert not (tmp_path / "shared-hooks").exists()
    # The repository's own hooks folder, named explicitly, is fine.
    git(repo, "config", "core.hooksPath", ".git/hooks")
    cli("hooks", "install", "--repo", repo)


def test_a_missing_repomem_never_fails_git(new_repo, tmp_path):
    repo = new_repo()
    store = _init(repo)
    hooks.install(repo, python=str(tmp_path / "no-such-python"))
    env = dict(os.environ, PATH="/usr/bin:/bin")  # no repomem on PATH either
    for args in (["commit", "-q", "--allow-empty", "-m", "x"], ["checkout", "-q", "-b", "b2"],
                 ["commit", "-q", "--amend", "--allow-empty", "-m", "y"]):
        proc = subprocess.run(["git", "-C", str(repo), "-c", "user.name=T", "-c",
                               "user.email=t@example.com", *args], env=env, capture_output=True)
        assert proc.returncode == 0, proc.stderr
    assert proc.stderr == b""
    assert store.exists()


def _spy_python(tmp_path):
    """A stand-in interpreter that logs which hook asked for work."""
    spy = tmp_path / "spy-python"
    log = tmp_path / "spy.log"
    spy.write_text(f"#!/bin/sh\necho \"$3\" >> {log}\n")
    spy.chmod(spy.stat().st_mode | stat.S_IEXEC)
    return spy, log


def test_rebase_runs_no_per_commit_work_and_catches_up_once(new_repo, tmp_path):
    repo = new_repo()
    store = _init(repo)
    git(repo, "checkout", "-q", "-b", "topic")
    for i in range(3):
        commit(repo, f"2026-01-0{i + 2}T10:00:00+00:00", f"t{i}", {f"t{i}.py": f"X{i} = {i}\n"})
    git(repo, "checkout", "-q", "main")
    commit(repo, "2026-01-06T10:00:00+00:00", "m", {"m.py": "M = 1\n"})
    assert worker.wait_idle(store, timeout=60)  # a live worker would take the requests instead of the spy
    spy, log = _spy_python(tmp_path)
    hooks.install(repo, python=str(spy))
    git(repo, "rebase", "-q", "main", "topic")
    # The spy runs in the background: wait for its line with a bounded poll.
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not (log.exists() and "post-rewrite" in log.read_text()):
        time.sleep(0.02)
    calls = log.read_text().split()
    assert "post-rewrite" in calls
    assert "post-commit" not in calls
    assert calls.count("post-rewrite") == 1


def test_shim_is_small_posix_sh(new_repo):
    repo = new_repo()
    hooks.install(repo)
    text = (repo / ".git" / "hooks" / "post-merge").read_text()
    assert len(text.splitlines()) < 90
    assert sys.executable in text
    subprocess.run(["sh", "-n", str(repo / ".git" / "hooks" / "post-merge")], check=True)


def test_a_burst_of_commits_coalesces(new_repo):
    repo = new_repo()
    store = _init(repo)
    assert worker.wait_idle(store, timeout=60)
    (store / "worker.log").unlink(missing_ok=True)
    for i in range(6):
        commit(repo, f"2026-01-0{i + 2}T10:00:00+00:00", f"c{i}", {"app.py": f"PORT = {i}\n"})
    assert worker.wait_idle(store, timeout=60)
    runs = (store / "worker.log").read_text().count(" indexed ")
    assert 1 <= runs < 6
    assert _port(repo) == "5"


def test_falls_back_to_repomem_on_path(new_repo, tmp_path):
    repo = new_repo()
    store = _init(repo)
    hooks.install(repo, python=str(tmp_path / "gone" / "python"))  # that venv was deleted
    bindir = os.path.dirname(sys.executable)
    assert os.access(os.path.join(bindir, "repomem"), os.X_OK)
    env = dict(os.environ, PATH=f"{bindir}:/usr/bin:/bin")
    (repo / "app.py").write_text("PORT = 4444\n")
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=T", "-c", "user.email=t@example.com",
                    "commit", "-q", "-am", "via PATH"], env=env, check=True)
    assert worker.wait_idle(store, timeout=60)
    assert _port(repo) == "4444"
    assert "is gone: falls back to 'repomem' on PATH" in cli("hooks", "status", "--repo", repo)[1]


def _logging_git(tmp_path):
    """A `git` first on PATH that logs each call, then runs the real one."""
    real = shutil.which("git")
    bindir = tmp_path / "bin"
    bindir.mkdir()
    log = tmp_path / "git-calls.log"
    stub = bindir / "git"
    stub.write_text(f'#!/bin/sh\necho "$*" >> "{log}"\nexec "{real}" "$@"\n')
    stub.chmod(0o755)
    return bindir, log


def _run_hook(repo, env, spy_log, n):
    """The post-commit shim run as git runs it (from the top of the work tree, by the path
    git names it with); returns once the spy interpreter logged its Nth request."""
    subprocess.run([".git/hooks/post-commit"], cwd=repo, check=True,
                   env=dict(env, GIT_INDEX_FILE=".git/index"))
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not (
            spy_log.exists() and len(spy_log.read_text().split()) >= n):
        time.sleep(0.02)
    assert len(spy_log.read_text().split()) == n


def test_the_shim_finds_the_store_without_a_git_process(new_repo, tmp_path):
    repo = new_repo()
    store = _init(repo)
    assert worker.wait_idle(store, timeout=60)
    spy, spy_log = _spy_python(tmp_path)
    hooks.install(repo, python=str(spy))
    bindir, calls = _logging_git(tmp_path)
    env = dict(os.environ, PATH=f"{bindir}:/usr/bin:/bin")
    _run_hook(repo, env, spy_log, 1)
    assert not calls.exists()  # no git process on git's path
    assert (store / "pending").read_text().splitlines()[-1] == str(repo)
    # a store named in the config is read from git itself
    git(repo, "config", "repomem.store", str(store))
    _run_hook(repo, env, spy_log, 2)
    assert calls.read_text().splitlines() == ["config --get repomem.store"]
    # so is one that `git -c` may set
    git(repo, "config", "--unset", "repomem.store")
    calls.unlink()
    _run_hook(repo, dict(env, GIT_CONFIG_PARAMETERS="'user.x'='1'"), spy_log, 3)
    assert calls.read_text().splitlines() == ["config --get repomem.store"]


def test_a_commit_in_a_linked_worktree_feeds_the_shared_store(new_repo, tmp_path):
    repo = new_repo()
    store = _init(repo)
    assert worker.wait_idle(store, timeout=60)
    wt = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", "-b", "side", str(wt))
    commit(wt, "2026-01-02T10:00:00+00:00", "in the worktree", {"app.py": "PORT = 5555\n"})
    assert worker.wait_idle(store, timeout=60)
    with Repo.open(wt).store.reader() as st:
        assert st.path == store
        assert git(wt, "rev-parse", "HEAD") in st.ingested()
    assert _port(wt) == "5555"
    assert _port(repo) == "8080"


def test_the_shim_leaves_the_work_to_a_daemon_that_holds_its_lock(new_repo, tmp_path):
    from repomem.integrations import daemon

    repo = new_repo()
    store = _init(repo)
    assert worker.wait_idle(store, timeout=60)
    spy, spy_log = _spy_python(tmp_path)
    hooks.install(repo, python=str(spy))
    env = dict(os.environ, GIT_INDEX_FILE=".git/index")
    fd = daemon.acquire(store)  # this process stands for the daemon: it holds the lock
    try:
        daemon.announce(fd)
        subprocess.run([".git/hooks/post-commit"], cwd=repo, env=env, check=True)
        time.sleep(1.0)  # the worker would have been started in the background by now
        assert not spy_log.exists()
        assert (store / "pending").read_text().splitlines()[-1] == str(repo)
        # a file naming a live process that does not have the lock open there: no daemon
        (store / "daemon.lock").write_text(f"{os.getpid()} {fd + 1000}\n")
        _run_hook(repo, os.environ, spy_log, 1)
    finally:
        daemon.release(fd)
