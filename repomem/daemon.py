"""The background watcher: ``repomem daemon start|stop|status``.

One daemon per store.  ``<store>/daemon.pid`` is written by the watcher process itself once it
is watching (so ``start`` returns only when events are being seen) and removed when it exits;
its output goes to ``<store>/daemon.log``.  The hooks see a live daemon and leave the work to it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from repomem.errors import RepomemError


def pid_file(store: Path) -> Path:
    return Path(store) / "daemon.pid"


def log_file(store: Path) -> Path:
    return Path(store) / "daemon.log"


def running(store: Path) -> int | None:
    """The daemon's pid when one is alive for this store."""
    try:
        pid = int(pid_file(store).read_text().split()[0])
        os.kill(pid, 0)
    except (OSError, ValueError, IndexError):
        return None
    return pid


def write_pid(store: Path) -> None:
    tmp = pid_file(store).with_suffix(".tmp")
    tmp.write_text(f"{os.getpid()}\n")
    os.replace(tmp, pid_file(store))


def remove_pid(store: Path) -> None:
    try:
        if int(pid_file(store).read_text().split()[0]) == os.getpid():
            pid_file(store).unlink()
    except (OSError, ValueError, IndexError):
        pass


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
    pid = running(store)
    if not pid:
        return None
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except OSError:
            return pid
        time.sleep(0.05)
    raise RepomemError(f"daemon {pid} did not stop", hint=f"kill {pid} by hand")
