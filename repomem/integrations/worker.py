"""The detached indexing worker the git hooks start: ``python -m repomem.integrations.worker HOOK --repo DIR``.

A hook only writes ``<store>/pending`` and starts this process in the background.  Requests
coalesce: the worker holds ``<store>/worker.lock`` (non-blocking; a second worker exits at once)
and loops until no request is pending, so ten quick commits cost one or two catch-ups.  The
pending marker is removed *after* the lock is taken and re-checked *after* it is released, so a
request never falls between two workers.  ``idle(store)`` is the signal tests and tools wait on.
"""

from __future__ import annotations

import fcntl
import logging
import os
import sys
import time
from pathlib import Path

log = logging.getLogger("repomem")
LOG_LIMIT = 1_000_000  # bytes; the log is cut back when it grows past this
LOCK_TRIES = 20  # x 10 ms: how long a request without a marker waits for a busy worker lock


def pending_file(store: Path) -> Path:
    return Path(store) / "pending"


def _try_lock(store: Path) -> int | None:
    fd = os.open(Path(store) / "worker.lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


def idle(store: str | Path) -> bool:
    """No request pending and no worker running."""
    store = Path(store)
    if pending_file(store).exists():
        return False
    if not store.is_dir():
        return True
    fd = _try_lock(store)
    if fd is None:
        return False
    os.close(fd)
    return not pending_file(store).exists()


def wait_idle(store: str | Path, timeout: float = 10.0, step: float = 0.05) -> bool:
    deadline = time.monotonic() + timeout
    while not idle(store):
        if time.monotonic() > deadline:
            return False
        time.sleep(step)
    return True


def is_ancestor(root: Path, a: str, b: str) -> bool:
    from repomem.adapters import git

    if not git.git(root, "rev-parse", "--verify", "-q", f"{a}^{{commit}}", check=False).strip():
        return False  # the commit is gone (gc'd after a rewrite)
    return not git.git(root, "rev-list", "-n1", a, f"^{b}", check=False).strip()


def catch_up(r) -> dict:
    """Ingest whatever HEAD's history has that the store lacks, rebuild the view if HEAD moved,
    and record the indexed HEAD of the current branch.  A branch whose last indexed HEAD is no
    longer in its history was rewritten (amend, rebase, reset, forced pull): the view is rebuilt
    from the new history, and the old commits' facts stop being current."""
    from repomem.adapters import git
    from repomem.service.ingest import ingest

    if r.store.remote is not None:  # a Chroma server (repomem/storage/remote.py)
        return hook_catch_up(r)
    with r.store.writer():
        stats = ingest(r, all_history=True, create=False, progress=False)
        head = git.head(r.root)
        branch = git.current_branch(r.root) or "(detached)"
        heads = r.store.get_meta(r.store.view_name("heads")) or {}
        prev = heads.get(branch)
        stats["rewritten"] = bool(prev and head and prev != head
                                  and not is_ancestor(r.root, prev, head))
        if stats["rewritten"] and prev:
            log.warning("history of %s was rewritten: %s is no longer on it; view rebuilt",
                        branch, prev[:10])
        if head and prev != head:
            heads[branch] = head
            r.store.set_meta(r.store.view_name("heads"), heads)
        stats.update(branch=branch, head=head)
        resume = bool((r.store.get_meta("tree") or {}).get("head"))
    if resume:
        resume_backfill(r)
    return stats


def resume_backfill(r) -> None:
    """A tree view whose history is not indexed and no backfill running (it was killed, or
    the machine rebooted): start it again, detached."""
    from repomem.service import backfill

    if backfill.spawn(r.root, r.store.path):  # none when one runs
        log.warning("history behind the tree view is incomplete: backfill started again")


def hook_catch_up(r) -> dict:
    """The git hooks' worker in server mode: on the default branch it publishes (what the hook
    could not publish while the server was down goes with it: publishing adds every commit the
    server lacks); on any other branch it only refreshes the local branch view, since the
    server holds the default branch's ledger."""
    from repomem.adapters import git
    from repomem.service.publish import publish
    from repomem.service.serverview import default_branch
    from repomem.service.view import published

    head = git.head(r.root)
    if git.current_branch(r.root) == default_branch(r.root):
        return dict(publish(r, create=False), head=head)
    published(r)
    return {"new": 0, "head": head}


def run(root: str | Path, store: str | Path, request: bool = True) -> int:
    """Serve pending requests until none is left; returns at once if another worker is on it.
    request: add one (the watcher's own; it must not write the marker it watches)."""
    from repomem.service.repo import Repo

    store = Path(store)
    while True:
        fd = _try_lock(store)
        # A probe (idle(), below) holds the lock for microseconds; the watcher's own request has
        # no marker for a running worker to see, so it waits that out rather than be dropped.
        for _ in range(LOCK_TRIES if request else 0):
            if fd is not None:
                break
            time.sleep(0.01)
            fd = _try_lock(store)
        if fd is None:
            return 0  # the running worker will see our pending marker
        # While this file names a live worker the hooks start none; it goes before the lock is
        # released and the pending marker is re-checked after, so no request is left behind.
        pid_path = store / "worker.pid"
        pid_path.write_text(f"{os.getpid()}\n")
        try:
            repos: dict[str, object] = {}
            # (HEAD, branch) each work tree was last indexed at by this run: the hook of the
            # commit just indexed writes its request a moment after git moved the ref, and
            # serving it again would cost a whole catch-up (~0.15 s on click) for nothing.
            done: dict[str, tuple] = {}
            while request or pending_file(store).exists():
                roots = [str(root)] if request else []
                request = False
                roots += [x for x in _take_pending(store) if x not in roots]
                for one in roots or [str(root)]:
                    try:
                        where = _where(one)  # before: a commit landing meanwhile is not done
                        if done.get(one) == where:
                            continue
                        r = repos.get(one) or repos.setdefault(one, Repo.open(one, store))
                        stats = catch_up(r)
                        done[one] = where
                        log.warning("%s indexed %s (%d new commit(s))", time.strftime("%H:%M:%S"),
                                    (stats.get("head") or "")[:10], stats.get("new", 0))
                    except Exception as e:  # logged, never raised into git's face
                        log.warning("indexing %s failed: %s: %s", one, type(e).__name__, e)
                        if os.environ.get("REPOMEM_DEBUG"):
                            raise
        finally:
            pid_path.unlink(missing_ok=True)
            os.close(fd)
        if not pending_file(store).exists():
            return 0


def run_backfill(root: Path, store: Path | None, foreground: bool = False,
                 lock_fd: int | None = None) -> int:
    """The detached backfill (service/ingest.py ``index_history``): progress lines and errors
    go to ``<store>/backfill.log``."""
    from repomem.service.ingest import index_history
    from repomem.service.progress import Progress
    from repomem.service.repo import Repo

    r = Repo.open(root, store)
    if not foreground:
        _detach_and_log(r.store.path, "backfill.log")
    logging.basicConfig(level=logging.WARNING, format="repomem backfill: %(message)s")
    try:
        stats = index_history(r, Progress("lines"), lock_fd)
    except Exception as e:  # logged (and in backfill.json); the next init or hook resumes it
        log.warning("%s failed: %s: %s", time.strftime("%H:%M:%S"), type(e).__name__, e)
        if os.environ.get("REPOMEM_DEBUG"):
            raise
        return 1
    if not stats.get("running"):
        log.warning("%s history indexed: %d commits", time.strftime("%H:%M:%S"),
                    stats.get("commits", 0))
    return 0


def _where(root: str) -> tuple:
    """(HEAD's commit, its branch or "HEAD" when detached) of a work tree, in one git call: it
    runs before every catch-up, on the post-commit path."""
    from repomem.adapters import git

    return tuple(git.git(root, "rev-parse", "HEAD", "--abbrev-ref", "HEAD", check=False).split())


def _take_pending(store: Path) -> list[str]:
    """The work trees that asked for indexing (one line each, written by the hooks), taking the
    marker away atomically so a request written meanwhile starts a new one."""
    taken = store / f"pending.taken{os.getpid()}"
    try:
        os.replace(pending_file(store), taken)
    except FileNotFoundError:
        return []
    try:
        lines = taken.read_text(errors="surrogateescape").splitlines()
    finally:
        taken.unlink(missing_ok=True)
    return [x for x in dict.fromkeys(lines) if x and os.path.isdir(x)]


def _detach_and_log(store: Path, name: str = "worker.log") -> None:
    try:
        os.setsid()  # survive the hook's process group (Ctrl-C on the git command)
        os.nice(10)  # background work: the user's own git commands come first
    except OSError:
        pass
    path = store / name
    try:
        if path.stat().st_size > LOG_LIMIT:
            path.write_text("")
    except OSError:
        pass
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)


def main(argv: list[str] | None = None) -> int:
    import argparse

    p = argparse.ArgumentParser(prog="python -m repomem.integrations.worker")
    p.add_argument("hook", nargs="?", default="manual")
    p.add_argument("--repo", default=".")
    p.add_argument("--store", default=None)
    p.add_argument("--foreground", action="store_true", help="keep the terminal; no log file")
    p.add_argument("--backfill", action="store_true",
                   help="index the history behind the tree view (repomem init starts it)")
    p.add_argument("--lock-fd", type=int, default=None, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.backfill:
        return run_backfill(Path(args.repo), Path(args.store) if args.store else None,
                            args.foreground, args.lock_fd)
    try:
        if args.store:  # the hooks pass it: no git call, no heavy import before the lock
            root, store = Path(args.repo), Path(args.store)
        else:
            from repomem.adapters import git
            from repomem.storage.storepath import resolve_store_path

            where = git.discover(args.repo)
            root, store = where.root, resolve_store_path(where, None)
        if not (store / "chroma.sqlite3").exists():
            return 0  # never create a store from a hook
        if args.hook != "manual":
            from repomem.integrations import daemon

            if daemon.running(store):
                return 0  # the daemon (it holds its lock) watches the pending marker
        if not args.foreground:
            _detach_and_log(store)
        logging.basicConfig(level=logging.WARNING, format="repomem worker: %(message)s")
        return run(root, store)
    except Exception as e:
        print(f"repomem worker: {type(e).__name__}: {e}", file=sys.stderr)
        return 0


if __name__ == "__main__":
    sys.exit(main())
