"""The watcher: keep the index and the uncommitted overlay true while files and refs change.

watchdog (inotify/FSEvents: blocking, no polling) reports events on the work tree, the git
directory's HEAD and refs, and the store's ``pending`` marker (written by the hooks).  Events are
debounced -- a burst (a checkout rewriting 500 files, an editor's save dance) becomes one batch --
and then:

* a ref, HEAD or pending event: ``worker.run`` (ingest new commits, rebuild the view when HEAD
  moved, record the branch's HEAD), then the overlay is recomputed (HEAD changed under it);
* a work-tree event on a file git does not ignore: the overlay is recomputed.

A git event ends its batch sooner (``GIT_DELAY``) than a work-tree burst does: a ref moves by an
atomic rename, once a git command has done its work, and a hook writes the pending marker after
its commit exists, so there is nothing more of it to wait for; the commit should be answerable
while its author is still looking at the terminal.  Events that arrive while a batch is handled
make the next one, so a rebase moving HEAD fifty times still costs a few catch-ups, not fifty.

The clock is injectable so the debounce logic is tested without sleeping.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from pathlib import Path

from repomem.adapters import git
from repomem.core.termsafe import safe

log = logging.getLogger("repomem")
GIT, TREE = "git", "tree"
GIT_DELAY = 0.03  # seconds of quiet after a ref, HEAD or pending event (see the module's text)


class Debouncer:
    """Collects events; a batch is due once nothing arrived for ``delay`` seconds, or
    ``git_delay`` after its last git event, or ``max_delay`` after its first event (a tree that
    never goes quiet is still indexed)."""

    def __init__(self, delay: float = 0.3, max_delay: float = 3.0, clock=time.monotonic,
                 git_delay: float = GIT_DELAY):
        self.delay, self.max_delay, self.git_delay, self.clock = delay, max_delay, git_delay, clock
        self.batch: dict[str, set[str]] = {}
        self.first = self.last = 0.0
        self.last_git: float | None = None

    def add(self, kind: str, path: str) -> None:
        now = self.clock()
        if not self.batch:
            self.first, self.last_git = now, None
        self.last = now
        if kind == GIT:
            self.last_git = now
        self.batch.setdefault(kind, set()).add(path)

    def deadline(self) -> float | None:
        if not self.batch:
            return None
        due = min(self.last + self.delay, self.first + self.max_delay)
        return due if self.last_git is None else min(due, self.last_git + self.git_delay)

    def take(self) -> dict[str, set[str]] | None:
        """The batch when it is due (and a fresh start), else None."""
        d = self.deadline()
        if d is None or self.clock() < d:
            return None
        batch, self.batch = self.batch, {}
        return batch


def _under(path: Path, parent: Path) -> Path | None:
    try:
        return path.relative_to(parent)
    except ValueError:
        return None


class Classifier:
    """Which events matter: HEAD/refs/packed-refs in the git dir, the store's pending marker, and
    work-tree files outside git internals and the store.  (.gitignore is applied per batch.)"""

    def __init__(self, root: Path, store: Path):
        self.root = root.resolve()
        self.git_dir = git.git_dir(root).resolve()
        self.common = git.common_dir(root).resolve()
        self.store = store.resolve()

    def __call__(self, path: str, event_type: str = "modified") -> str | None:
        p = Path(path)
        if p.name.endswith(".lock"):
            return None
        if p == self.store / "pending":
            # A hook asked for work.  Its removal (by the worker taking it) is no request.
            return None if event_type == "deleted" else GIT
        if _under(p, self.store) is not None:
            return None
        for base in (self.git_dir, self.common):
            rel = _under(p, base)
            if rel is not None:
                s = rel.as_posix()
                return GIT if s in ("HEAD", "packed-refs") or s.startswith("refs/") else None
        rel = _under(p, self.root)
        if rel is None or rel.parts[:1] == (".git",):
            return None
        return TREE


def _repo_relative(root: Path, path: str) -> str | None:
    """The path relative to the work tree, or None when it is not in it: a symlink that leads
    out (``.venv/bin/python`` -> /usr/bin/python3) or a path through a linked folder."""
    p = Path(path)
    try:
        rel = p.resolve().relative_to(root)
    except (ValueError, OSError, RuntimeError):  # outside; unreadable; a symlink loop
        log.debug("watch: %s leads outside the repository: ignored", safe(path))
        return None
    # The link itself is what git knows (and may ignore); name it by its own place in the tree.
    try:
        return str(p.parent.resolve().relative_to(root) / p.name)
    except (ValueError, OSError, RuntimeError):
        return str(rel)


def not_ignored(root: Path, paths: set[str]) -> set[str]:
    """The event paths inside the work tree that git does not ignore.  One odd path is dropped
    on its own; it never takes the rest of the batch with it."""
    root = root.resolve()
    rels = {}
    for p in paths:
        rel = _repo_relative(root, p)
        if rel is not None and rel != ".":
            rels[rel] = p
    if not rels:
        return set()
    names = b"".join(os.fsencode(r) + b"\0" for r in rels)  # bytes-safe: odd names too
    out = git.git(root, "check-ignore", "--stdin", "-z", input=names, check=False)
    ignored = {x for x in out.decode("utf-8", "surrogateescape").split("\0") if x}
    return {rels[r] for r in rels if r not in ignored}


class Watcher:
    def __init__(self, r, delay: float = 0.3, max_delay: float = 3.0, clock=time.monotonic):
        self.r = r
        self.classify = Classifier(r.root, r.store.path)
        self.debounce = Debouncer(delay, max_delay, clock)
        self.cond = threading.Condition()
        self.stopping = False
        self.batches = 0  # handled so far (tests wait on this)

    # -- called from watchdog's thread -------------------------------------------------------
    def event(self, path: str, event_type: str = "modified") -> None:
        kind = self.classify(path, event_type)
        if kind:
            with self.cond:
                self.debounce.add(kind, path)
                self.cond.notify()

    def stop(self) -> None:
        with self.cond:
            self.stopping = True
            self.cond.notify()

    # -- the work ----------------------------------------------------------------------------
    def handle(self, batch: dict[str, set[str]]) -> None:
        from repomem.integrations import overlay, worker

        if GIT in batch:
            marker = worker.pending_file(self.classify.store)  # as events name it
            if TREE not in batch and all(Path(p) == marker for p in batch[GIT]) \
                    and not marker.exists():
                return  # a hook's request that the last batch's worker already took and served
            worker.run(self.r.root, self.r.store.path)
        elif not not_ignored(self.r.root, batch.get(TREE, set())):
            return
        overlay.refresh(self.r)

    def catch_up(self) -> None:
        from repomem.service.summaries import digest
        from repomem.storage import foldstate

        self.handle({GIT: {"start"}})
        # The next commit's fold starts from the ledger in memory (read from the store here
        # only if nothing was new just now: a catch-up that folded kept what it saved).
        try:
            with self.r.store.reader():
                foldstate.keep(self.r.store, digest(self.r.store.path))
        except Exception as e:  # only a head start: the first commit reads it instead
            log.info("watch: fold state not kept: %s: %s", type(e).__name__, e)

    def loop(self) -> None:
        """Block until a batch is due, handle it; return when stopped.  No polling: the wait has
        no timeout while nothing is pending."""
        while True:
            with self.cond:
                while not self.stopping:
                    batch = self.debounce.take()
                    if batch:
                        break
                    d = self.debounce.deadline()
                    self.cond.wait(None if d is None else max(0.0, d - self.debounce.clock()))
                if self.stopping:
                    return
            assert batch is not None  # the wait above ends with a batch or returns
            try:
                self.handle(batch)
            except Exception as e:  # keep watching; the next event retries
                log.warning("watch: %s: %s", type(e).__name__, e)
                if os.environ.get("REPOMEM_DEBUG"):
                    raise
            self.batches += 1

    def observe(self):
        from watchdog.events import FileSystemEventHandler
        from watchdog.observers import Observer

        watcher = self

        class Handler(FileSystemEventHandler):
            def on_any_event(self, ev):
                if ev.event_type in ("opened", "closed_no_write"):
                    return
                if ev.is_directory:
                    return
                watcher.event(os.fsdecode(ev.src_path),
                              "deleted" if ev.event_type == "moved" else ev.event_type)
                dest = getattr(ev, "dest_path", None)
                if dest:
                    watcher.event(os.fsdecode(dest), "created")

        obs = Observer()
        c = self.classify
        obs.schedule(Handler(), str(c.root), recursive=True)
        for extra, rec in ((c.git_dir, False), (c.common, False), (c.common / "refs", True),
                           (c.store, False)):
            if _under(extra, c.root) is None:
                extra.mkdir(parents=True, exist_ok=True)
                obs.schedule(Handler(), str(extra), recursive=rec)
        obs.start()
        return obs

    def run(self, ready=None) -> None:
        obs = self.observe()
        try:
            self.catch_up()
            if ready:
                ready()
            self.loop()
        finally:
            obs.stop()
            obs.join()
