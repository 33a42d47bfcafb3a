"""Cold `repomem ask` processes take turns: at most one per core runs at a time.

A new process pays Python's and numpy's start-up before it answers (~0.2 s of CPU; the warm MCP
server and the hook's daemon do not).  Twenty agents asking at once through the command line on
two cores all ran together and each waited for all the others (14-16 s).  Here each takes one of
``cpu_count`` slots (a file lock per slot in a per-user temporary folder, released by the
kernel when the process ends, even on SIGKILL); a process that finds every slot taken says
once, on stderr, that it waits and that agents should use the MCP server or the hook, then
waits for a slot -- at most MAX_WAIT seconds, after which it runs anyway (never a hang).
REPOMEM_ASK_SLOTS sets the number of slots (0: no turns)."""

from __future__ import annotations

import contextlib
import fcntl
import os
import sys
import time
from pathlib import Path

from repomem.core.termsafe import echo

MAX_WAIT = 60.0  # seconds
POLL = 0.02


def _slot_dir() -> Path:
    path = Path(_temp_root()) / f"repomem-slots-{os.getuid()}"
    path.mkdir(mode=0o700, exist_ok=True)
    return path


def _temp_root() -> str:
    """The temporary folder as tempfile.gettempdir() names it on a POSIX system ($TMPDIR,
    $TEMP, $TMP, else /tmp), without importing tempfile (with shutil, bz2, lzma and random:
    ~6 ms of a cold ask's CPU).  A folder that cannot be written makes the slots' folder fail
    to be made: the ask then runs at once (see turn)."""
    for var in ("TMPDIR", "TEMP", "TMP"):
        if os.environ.get(var):
            return os.environ[var]
    return "/tmp"


def _try(fds: list[int]) -> bool:
    for fd in fds:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except OSError:
            continue
    return False


@contextlib.contextmanager
def turn(slots: int | None = None):
    """Hold one of SLOTS (default: $REPOMEM_ASK_SLOTS, else one per core) while the block
    runs; REPOMEM_ASK_SLOTS=0 turns the turns off."""
    env = os.environ.get("REPOMEM_ASK_SLOTS", "")
    if slots is None and env.isdigit():
        slots = int(env)
        if slots == 0:
            yield
            return
    n = max(1, slots or os.cpu_count() or 1)
    try:
        where = _slot_dir()
        fds = [os.open(where / f"slot-{i}", os.O_RDWR | os.O_CREAT, 0o600) for i in range(n)]
    except OSError:  # no writable temporary folder: run at once, as before
        yield
        return
    try:
        start = os.getpid() % n  # spread first tries over the slots
        order = fds[start:] + fds[:start]
        if not _try(order):
            echo(f"repomem: note: {n} other repomem asks are running; waiting for one to finish "
                 "(agents: use the MCP server 'repomem mcp' or the hook, which stay warm)",
                 file=sys.stderr)
            deadline = time.monotonic() + MAX_WAIT
            while not _try(order) and time.monotonic() < deadline:
                time.sleep(POLL)
        yield
    finally:
        for fd in fds:
            os.close(fd)  # closing releases the lock
