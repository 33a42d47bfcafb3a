"""Cold `repomem ask` processes take turns (repomem/cli/slots.py): with every slot taken, an ask
says on stderr that it waits and that agents should use the MCP server or the hook, waits for a
slot, then answers.  The effect on 20 asks at once is measured by bench/concurrent_ask.py."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import threading
import time

from tests.conftest import ROOT, cli, commit, git


def test_an_ask_waits_for_a_free_slot_and_says_so(new_repo, tmp_path):
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"app.py": "PORT = 8080\n"})
    cli("init", "--repo", repo, "--no-hooks")
    tmp = tmp_path / "tmp"
    slots = tmp / f"repomem-slots-{os.getuid()}"
    slots.mkdir(parents=True)
    held = []
    for i in range(2):  # what two running asks hold
        fd = os.open(slots / f"slot-{i}", os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(fd, fcntl.LOCK_EX)
        held.append(fd)
    env = dict(os.environ, TMPDIR=str(tmp), REPOMEM_ASK_SLOTS="2")
    start = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "repomem", "ask", "which port", "--repo",
                             str(repo)], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    # the note comes once the ask reaches the slots, however long its start takes on a busy machine
    said: list[str] = []
    reader = threading.Thread(target=lambda: said.append(proc.stderr.readline()), daemon=True)
    reader.start()
    reader.join(timeout=90)
    assert said and "waiting" in said[0]
    time.sleep(0.5)
    assert proc.poll() is None  # still waiting its turn
    for fd in held:
        os.close(fd)
    out, rest = proc.communicate(timeout=120)
    err = said[0] + rest
    assert proc.returncode == 0 and "8080" in out and time.monotonic() - start >= 0.5
    assert "waiting" in err and "repomem mcp" in err and len(err.strip().splitlines()) == 1


def test_no_wait_while_a_slot_is_free(new_repo, tmp_path):
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"app.py": "PORT = 8080\n"})
    git(repo, "status")
    cli("init", "--repo", repo, "--no-hooks")
    env = dict(os.environ, TMPDIR=str(tmp_path), REPOMEM_ASK_SLOTS="2")
    proc = subprocess.run([sys.executable, "-m", "repomem", "ask", "which port", "--repo",
                           str(repo)], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0 and "8080" in proc.stdout and "waiting" not in proc.stderr
