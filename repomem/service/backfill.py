"""The history behind a tree-first view: its state file, its lock and the detached process.

``repomem init`` makes the checked-out tree answerable first (service/current.py) and leaves
the first-parent history to one background process (``python -m repomem.integrations.worker
--backfill``, ``ingest.backfill``).  Liveness is a lock, as for the daemon: the process holds an
exclusive ``flock`` on ``<store>/backfill.lock`` while it runs, so a second ``init`` starts no
second backfill and a killed one is seen as stopped (and started again by the next ``init`` or
hook).  What it reached is in ``<store>/backfill.json`` (replaced atomically after each batch),
for ``repomem status``; what a query may answer is worked out from the store itself
(``view.coverage``), never from this file.
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from repomem.storage import atomic

STATE = "backfill.json"
LOCK = "backfill.lock"
LOG = "backfill.log"


def state_file(store: Path) -> Path:
    return Path(store) / STATE


def read_state(store: Path) -> dict:
    try:
        got = json.loads(state_file(store).read_text())
        return got if isinstance(got, dict) else {}
    except (OSError, ValueError):
        return {}


def write_state(store: Path, state: dict) -> None:
    atomic.write_text(state_file(store), json.dumps(state, sort_keys=True))


def acquire(store: Path) -> int | None:
    """Take the backfill lock for this process (the fd to keep open), or None when another
    process holds it."""
    fd = os.open(Path(store) / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode())
    return fd


def running(store: Path) -> bool:
    """Whether a backfill process holds this store's lock now."""
    try:
        fd = os.open(Path(store) / LOCK, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # closing drops a lock this probe took
    return False


def wait(store: Path, timeout: float | None = None, step: float = 0.1) -> bool:
    """Block until no backfill runs (True), or until TIMEOUT seconds passed (False)."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while running(store):
        if deadline is not None and time.monotonic() > deadline:
            return False
        time.sleep(step)
    return True


def spawn(root: Path, store: Path) -> bool:
    """Start the backfill detached from this process and its terminal.  The lock is taken here
    and handed to the child (a ``flock`` belongs to the open file, which the child inherits),
    so from this call's return a second ``init`` or hook sees it running.  False when one runs
    already."""
    fd = acquire(store)
    if fd is None:
        return False
    cmd = [sys.executable, "-m", "repomem.integrations.worker", "--backfill",
           "--repo", str(root), "--store", str(store), "--lock-fd", str(fd)]
    try:
        with open(os.devnull, "rb") as nul_in, open(os.devnull, "wb") as nul_out:
            subprocess.Popen(cmd, stdin=nul_in, stdout=nul_out, stderr=nul_out,
                             start_new_session=True, pass_fds=(fd,))
    finally:
        os.close(fd)  # the child's copy keeps the lock
    return True


def describe(st: dict, alive: bool) -> dict:
    """The state file as ``repomem status`` shows it: done, left, rate, ETA, date reached."""
    total, done = int(st.get("total", 0)), int(st.get("done", 0))
    rate = st.get("rate") or 0.0
    left = max(0, total - done)
    complete = bool(st.get("complete"))
    out = {"running": alive, "complete": complete, "commits": total, "done": done,
           "left": left, "rate": round(rate, 2),
           "eta_seconds": round(left / rate) if rate and alive and left else None,
           "history_indexed_to": st.get("reached_date"), "head": st.get("head"),
           "error": st.get("error")}
    return out
