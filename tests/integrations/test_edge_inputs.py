"""Hardening at the edges (issue 9): the daemon trusts its lock and not a pid file (case 5), the
watcher drops an odd event and not its batch (7), nothing is read through a symlink out of the
work tree (9), and control characters from the repository never reach the terminal raw (11).
Real repositories with fixed dates, real stores, the real CLI."""

from __future__ import annotations

import json
import os
import pwd
import subprocess
import sys

import pytest

from repomem.core.errors import RepomemError
from repomem.core.termsafe import safe
from repomem.integrations import daemon, overlay, worker
from repomem.integrations.watch import TREE, Watcher, not_ignored
from repomem.service.repo import Repo
from tests.conftest import cli, cli_json, cli_proc, commit, git


def _indexed(repo, sha) -> bool:
    got = cli_json("ask", "server port", "--repo", repo, "-k", "1")["facts"]
    return bool(got) and got[0]["commit"] == sha


# -- case 5: the daemon ------------------------------------------------------------------------
def test_daemon_lock_is_the_liveness_not_the_pid(tmp_path):
    store = tmp_path / "store"
    store.mkdir()
    assert daemon.running(store) is None
    fd = daemon.acquire(store)
    try:
        assert daemon.running(store) is None  # held but not announced yet: still starting
        daemon.announce(fd)
        assert daemon.running(store) == os.getpid()
        with pytest.raises(RepomemError, match="already watching"):
            daemon.acquire(store)
        # The file rewritten to name another process while we hold the lock: the kernel's list
        # of lock holders (Linux) says that pid holds nothing, so it is not "the daemon".
        if os.path.exists("/proc/locks"):
            daemon.lock_file(store).write_text("1\n")
            assert daemon.running(store) is None
    finally:
        daemon.release(fd)
    assert daemon.running(store) is None
    assert daemon.stop(store) is None


def test_stale_pid_file_naming_a_live_process(new_repo):
    repo = new_repo()
    store = repo / ".git" / "repomem"
    commit(repo, "2026-01-01T10:00:00+00:00", "one", {"app.toml": "[server]\nport = 8000\n"})
    cli("init", "--repo", repo)  # with the hooks
    sleeper = subprocess.Popen(["sleep", "300"])
    try:
        # What a crash and pid reuse leave behind: the old file names some other live process.
        for name in ("daemon.pid", "daemon.lock"):
            (store / name).write_text(f"{sleeper.pid}\n")
        rc, out, _ = cli_proc("daemon", "status", "--repo", repo, check=False)
        assert (rc, out.strip()) == (1, "not running")
        assert cli_proc("daemon", "stop", "--repo", repo)[1].strip() == "no daemon running"
        assert sleeper.poll() is None, "stop signalled a process that is not the daemon"
        # The leftover pid file of an older version (whose hook shims still read it) is gone.
        assert not (store / "daemon.pid").exists()

        # The hooks do not take the stale file for a daemon: the commit is indexed.
        sha = commit(repo, "2026-01-02T10:00:00+00:00", "9000", {"app.toml":
                                                                 "[server]\nport = 9000\n"})
        assert worker.wait_idle(store, timeout=60)
        assert not (store / "pending").exists()
        assert _indexed(repo, sha)

        # start runs a real daemon and reports its own pid; stop stops that one only.
        out = cli_proc("daemon", "start", "--repo", repo)[1]
        pid = daemon.running(store)
        assert pid and pid != sleeper.pid and out.startswith(f"daemon {pid} watching")
        assert cli_proc("daemon", "status", "--repo", repo)[1].startswith(f"daemon {pid} running")
        # With the daemon up, a hook leaves the work to it, and the work gets done.
        sha = commit(repo, "2026-01-03T10:00:00+00:00", "9100", {"app.toml":
                                                                 "[server]\nport = 9100\n"})
        assert worker.wait_idle(store, timeout=60)
        assert _indexed(repo, sha)
        assert cli_proc("daemon", "stop", "--repo", repo)[1].strip() == f"stopped daemon {pid}"
        assert daemon.running(store) is None
        assert sleeper.poll() is None
    finally:
        cli_proc("daemon", "stop", "--repo", repo, check=False)
        sleeper.kill()
        sleeper.wait()


# -- case 7: the watcher -----------------------------------------------------------------------
def test_an_event_outside_the_repository_does_not_drop_the_batch(new_repo, tmp_path):
    repo = new_repo()
    commit(repo, "2026-01-01T10:00:00+00:00", "one",
           {"app.toml": "[server]\nport = 8000\n", ".gitignore": ".venv/\n"})
    cli("init", "--no-hooks", "--repo", repo)
    venv_python = repo / ".venv" / "bin" / "python"
    venv_python.parent.mkdir(parents=True)
    venv_python.symlink_to(sys.executable)  # resolves outside the repository
    outside = tmp_path / "elsewhere.toml"
    outside.write_text("x = 1\n")
    (repo / "link.toml").symlink_to(outside)  # not ignored, and leads outside too
    (repo / "app.toml").write_text("[server]\nport = 8123\n")
    edited = str(repo / "app.toml")

    assert not_ignored(repo, {str(venv_python), str(repo / "link.toml"), edited}) == {edited}

    r = Repo.open(repo)
    clock = [100.0]
    w = Watcher(r, clock=lambda: clock[0])
    for path in (venv_python, repo / "link.toml", repo / "app.toml"):
        w.event(str(path))
    clock[0] += 10
    batch = w.debounce.take()
    assert batch == {TREE: {str(venv_python), str(repo / "link.toml"), edited}}
    w.handle(batch)
    assert [f["value"] for f in overlay.load(r)] == ["8123"]


# -- case 9: no reads outside the repository ---------------------------------------------------
CONFIG_V1 = "[server]\nport = 8000\n"
CONFIG_V2 = "[server]\nport = 8080\n"
STALE_NOTE = "The production server port is 8000, says the note outside.\n"


def test_check_follows_no_symlink_out_of_the_work_tree(new_repo, tmp_path):
    repo = new_repo()
    outside = tmp_path / "outside-note.md"
    outside.write_text(STALE_NOTE)
    commit(repo, "2026-01-01T10:00:00+00:00", "v1",
           {"config/production.toml": CONFIG_V1, "README.md": "# App\n",
            "AGENTS.md": "Ops: the production server port is 8000.\n"})
    (repo / "NOTES.md").symlink_to(outside)
    (repo / "passwd.md").symlink_to("/etc/passwd")
    (repo / "CLAUDE.md").symlink_to("AGENTS.md")  # inside: AGENTS.md is scanned on its own
    git(repo, "add", "NOTES.md", "passwd.md", "CLAUDE.md")
    commit(repo, "2026-01-02T10:00:00+00:00", "v2 and links", {"config/production.toml": CONFIG_V2})
    # A tracked file replaced by a symlink in the work tree (not committed).
    (repo / "README.md").unlink()
    (repo / "README.md").symlink_to(outside)
    cli("ingest", "--repo", repo)

    rc, out, err = cli("check", "--repo", repo, check=False)
    assert rc == 1
    assert [ln.split(":")[0] for ln in out.splitlines()[:-2]] == ["`AGENTS.md`"]
    assert "outside" not in out and "root:" not in out
    for name in ("NOTES.md", "passwd.md", "README.md"):
        assert f"skipped {name}: a symlink that leads outside the repository" in err
    found = json.loads(cli("check", "--json", "--repo", repo, check=False)[1])
    assert {f["path"] for f in found["findings"]} == {"AGENTS.md"}


def test_overlay_follows_no_symlink_out_of_the_work_tree(new_repo, tmp_path):
    repo = new_repo()
    commit(repo, "2026-01-01T10:00:00+00:00", "v1",
           {"app.toml": CONFIG_V1, "config/db.toml": "[db]\npool = 5\n"})
    cli("init", "--no-hooks", "--repo", repo)
    out_file = tmp_path / "evil.toml"
    out_file.write_text("[server]\nport = 6666\n")
    (repo / "app.toml").unlink()
    (repo / "app.toml").symlink_to(out_file)  # a tracked file replaced by a link
    out_dir = tmp_path / "evil-config"
    out_dir.mkdir()
    (out_dir / "db.toml").write_text("[db]\npool = 7777\n")
    (repo / "config" / "db.toml").unlink()
    (repo / "config").rmdir()
    (repo / "config").symlink_to(out_dir)  # a tracked folder replaced by a link
    r = Repo.open(repo)
    assert overlay.refresh(r)["facts"] == []
    ctx = cli("context", "server port and db pool", "--repo", repo)[1]
    assert "6666" not in ctx and "7777" not in ctx and "UNCOMMITTED" not in ctx
    # An edit inside the tree still shows.
    (repo / "app.toml").unlink()
    (repo / "app.toml").write_text("[server]\nport = 8111\n")
    assert [f["value"] for f in overlay.refresh(r)["facts"]] == ["8111"]


# -- case 11: control characters in plain-text output ------------------------------------------
EVIL_NAME = "evil\x1b]0;pwned\x07\x1b[2J.toml"
NL_NAME = "two\nlines.toml"


def test_control_characters_are_escaped_in_every_plain_text_output(new_repo):
    repo = new_repo()
    commit(repo, "2026-01-01T10:00:00+00:00", "one",
           {EVIL_NAME: '[ui]\ncolor = "\\u001b[31mred"\n', NL_NAME: "[nl]\nport = 1\n",
            "app.toml": "[server]\nport = 8000\n"})
    commit(repo, "2026-01-02T10:00:00+00:00", "two",
           {EVIL_NAME: '[ui]\ncolor = "\\u001b[32mgreen\\u009b"\n', NL_NAME: "[nl]\nport = 2\n"})
    cli("init", "--no-hooks", "--repo", repo)

    facts = cli_json("facts", "--repo", repo)["facts"]
    color = next(f for f in facts if f["subject"].startswith("ui.color"))
    assert color["path"] == EVIL_NAME and color["value"] == "\x1b[32mgreen\x9b"  # JSON: exact
    nl = next(f for f in facts if f["path"] == NL_NAME)

    outputs = {
        "facts": cli("facts", "--repo", repo)[1],
        "ask": cli("ask", "ui color", "--repo", repo)[1],
        "history": cli("history", color["key"], "--repo", repo)[1],
        "changes": cli("changes", "--since", "2026-01-01T12:00:00+00:00", "--repo", repo)[1],
        "context": cli("context", "ui color", "--repo", repo)[1],
    }
    for name, out in outputs.items():
        assert "\x1b" not in out and "\x07" not in out and "\x9b" not in out, name
    assert "evil\\x1b]0;pwned\\x07\\x1b[2J.toml" in outputs["facts"]
    assert "\\x1b[32mgreen\\x9b" in outputs["facts"]
    assert "two\\nlines.toml" in outputs["facts"]
    # One fact, one line: a newline in a file name does not split it into two.
    assert len(outputs["facts"].splitlines()) == len(facts)
    nl_lines = [ln for ln in outputs["facts"].splitlines() if "nl.port in two\\nlines" in ln]
    assert len(nl_lines) == 1 and nl_lines[0].endswith("(two\\nlines.toml:2)")
    hist = cli("history", nl["key"], "--repo", repo)[1].splitlines()
    assert len(hist) == 3 and all("two\\nlines.toml" in ln for ln in hist[1:])


def test_safe_escapes_controls_and_undecodable_bytes():
    assert safe("a\x1b[31mb\x00\x7f\x85\u202e\u2028\t\r\n") == \
        "a\\x1b[31mb\\x00\\x7f\\x85\\u202e\\u2028\\t\\r\\n"
    assert safe("lat\udce9.py") == "lat\\xe9.py"  # a non-UTF-8 name, as os.fsdecode gives it
    assert safe("para\none\x1b", keep="\n") == "para\none\\x1b"
    assert safe("C:\\dir\\ café → ok") == "C:\\dir\\ café → ok"  # printable text is untouched


# -- tests hygiene: HOME is isolated for wider-scoped fixtures too ---------------------------
@pytest.fixture(scope="module")
def module_env():
    return {k: os.environ.get(k) for k in ("HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM")}


def test_module_fixtures_run_with_an_isolated_home(module_env, tmp_path_factory):
    real_home = pwd.getpwuid(os.getuid()).pw_dir
    assert module_env["HOME"] != real_home
    assert module_env["HOME"].startswith(str(tmp_path_factory.getbasetemp()))
    assert module_env["GIT_CONFIG_GLOBAL"] == os.devnull
    assert module_env["GIT_CONFIG_NOSYSTEM"] == "1"
