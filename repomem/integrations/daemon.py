"""The background watcher: ``repomem daemon start|stop|status``.

One daemon per store.  Liveness is a lock, not a pid: the watcher process holds an exclusive
``flock`` on ``<store>/daemon.lock`` for as long as it runs (the kernel drops it when the process
dies, however it dies) and writes its pid into that file once it is watching, so ``start``
returns only when events are being seen.  A pid file alone cannot say whether its pid is still
the daemon: after a crash and pid reuse it names some other process, which ``stop`` would then
kill and the hooks would wait on.  So a pid is trusted only while the lock is held, and, where
the kernel lists lock owners (``/proc/locks``), only if that pid is the one holding it.
Output goes to ``<store>/daemon.log``.  The hooks' worker sees a live daemon and leaves the work
to it.
"""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from repomem.core.errors import RepomemError

ACQUIRE_TRIES = 40  # a status probe holds the lock for microseconds; retry past it


def lock_file(store: Path) -> Path:
    return Path(store) / "daemon.lock"


def log_file(store: Path) -> Path:
    return Path(store) / "daemon.log"


def _drop_legacy_pid(store: Path) -> None:
    """Older versions wrote ``daemon.pid`` and their hook shims still skip indexing while it
    names a live process; no daemon writes it any more, so a leftover one only misleads."""
    (Path(store) / "daemon.pid").unlink(missing_ok=True)


def _lock_holders(path: Path) -> set[int] | None:
    """Pids holding a flock on ``path`` per /proc/locks; None where the kernel does not say."""
    try:
        ino = os.stat(path).st_ino
        lines = Path("/proc/locks").read_text().splitlines()
    except OSError:
        return None
    out = set()
    for line in lines:
        # "1: FLOCK  ADVISORY  WRITE 12345 fd:01:123456 0 EOF" (blocked waiters have "->")
        parts = line.split()
        if "->" in parts or len(parts) < 6 or parts[1] != "FLOCK":
            continue
        try:
            if int(parts[5].rsplit(":", 1)[-1]) == ino:
                out.add(int(parts[4]))
        except ValueError:
            continue
    return out


def running(store: Path) -> int | None:
    """The daemon's pid when one holds this store's lock, else None (a stale file is ignored)."""
    path = lock_file(store)
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        try:
            # Shared and non-blocking: two probes never block each other; the daemon's
            # exclusive lock makes this fail.
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            pass
        else:
            fcntl.flock(fd, fcntl.LOCK_UN)
            return None  # nobody holds it: whatever pid the file names is not our daemon
        try:
            pid = int(os.read(fd, 64).split()[0])
        except (ValueError, IndexError):
            return None  # held, but the pid is not written yet: still starting
    finally:
        os.close(fd)
    holders = _lock_holders(path)
    if holders is not None and pid not in holders:
        return None
    return pid


def acquire(store: Path) -> int:
    """Take the daemon lock for this process; returns the fd to keep open for its lifetime.
    Raises when another daemon holds it.  The pid is written later, by ``announce``."""
    fd = os.open(lock_file(store), os.O_RDWR | os.O_CREAT, 0o644)  # not inherited by children
    for _ in range(ACQUIRE_TRIES):
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            other = running(store)
            if other:
                os.close(fd)
                raise RepomemError(f"a repomem daemon ({other}) is already watching this store",
                                   hint="'repomem daemon stop' first") from None
            time.sleep(0.05)
    else:
        os.close(fd)
        raise RepomemError("the daemon lock is busy", hint=f"try again; see {lock_file(store)}")
    os.ftruncate(fd, 0)
    _drop_legacy_pid(store)
    return fd


def announce(fd: int) -> None:
    """Write our pid into the held lock file: from now on ``running`` (and ``start``) see us.
    The lock's fd number follows it, so the hook shim can check that this pid still has the
    file open (``/proc/PID/fd/FD``) with one stat, not a byte-by-byte read of /proc/locks."""
    os.pwrite(fd, f"{os.getpid()} {fd}\n".encode(), 0)


def release(fd: int) -> None:
    """Let go of the lock (closing the fd drops it); the file stays, it names no live holder."""
    try:
        os.ftruncate(fd, 0)
    except OSError:
        pass
    os.close(fd)


def start(root: Path, store: Path, timeout: float = 20.0) -> int:
    pid = running(store)
    if pid:
        return pid
    if not (store / "chroma.sqlite3").exists():
        raise RepomemError(f"no repomem store at {store}", hint="run 'repomem init' first")
    log = open(log_file(store), "ab")
    proc = subprocess.Popen([sys.executable, "-m", "repomem", "watch", "--repo", str(root),
                             "--store", str(store)], stdin=subprocess.DEVNULL, stdout=log,
                            stderr=log, start_new_session=True, close_fds=True)
    log.close()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if running(store) == proc.pid:
            return proc.pid
        if proc.poll() is not None:
            raise RepomemError("the daemon exited at start", hint=f"see {log_file(store)}")
        time.sleep(0.05)
    proc.terminate()
    raise RepomemError("the daemon did not start in time", hint=f"see {log_file(store)}")


def stop(store: Path, timeout: float = 10.0) -> int | None:
    """SIGTERM the process holding the lock; wait until the lock is free.  None: none held it."""
    pid = running(store)
    if not pid:
        _drop_legacy_pid(store)
        return None
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if running(store) != pid:
            return pid
        time.sleep(0.05)
    raise RepomemError(f"daemon {pid} did not stop", hint=f"kill {pid} by hand")
