"""Turn commits into commit records: for every file a commit touches, the complete set of facts
in the file's new version, plus the renames/moves of functions seen in that commit.

A record depends on the commit alone (its tree and its first parent's), never on what was
ingested before -- which is what makes ingestion idempotent and order independent.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict

from repomem.adapters import git
from repomem.core.identity import match_moves
from repomem.core.model import CLASS, FUNCTION, Fact
from repomem.core.records import CommitRecord
from repomem.miners import MineError, mine_file, wants

log = logging.getLogger("repomem")


_MOVABLE = (FUNCTION, CLASS)  # kinds whose identity follows a rename or move


def _may_move(path: str) -> bool:
    """Whether the file's facts may hold functions or classes: only then are its old version's
    facts needed (to match moves).  A worker whose batch starts mid-history would otherwise
    mine the old version of every settings file its first commits touch, for nothing."""
    from repomem.miners import accepting

    return any(m.name in _MOVABLE_MINERS for m in accepting(path))


_MOVABLE_MINERS = ("python", "lang")  # the miners that emit FUNCTION and CLASS facts


class _FactCache:
    """Facts by blob id: the blob a commit adds is the old blob of a later commit.

    The latest version of each path is always kept (the next change of that path reads it as
    its old version, however long ago the path last changed); other versions (the one before,
    for a revert) in a small LRU.  Keeping the last 4096 file versions instead held the facts of
    every version of a whole history in memory (2,685 for click), a third of the peak."""

    def __init__(self, size: int = 256):
        self.size = size
        self.latest: dict[str, tuple[str, list[Fact] | MineError]] = {}
        self.data: OrderedDict[tuple[str, str], list[Fact] | MineError] = OrderedDict()

    def get(self, key):
        path, blob = key
        last = self.latest.get(path)
        if last is not None and last[0] == blob:
            return last[1]
        hit = self.data.get(key)
        if hit is not None:
            self.data.move_to_end(key)
        return hit

    def put(self, key, value, latest: bool = True) -> None:
        """latest: the version a commit adds (an old version read back is not the latest)."""
        path, blob = key
        last = self.latest.get(path)
        if latest:
            self.latest[path] = (blob, value)
            if last is None or last[0] == blob:
                return
            key, value = (path, last[0]), last[1]
        self.data[key] = value
        if len(self.data) > self.size:
            self.data.popitem(last=False)


class _Prefetch:
    """The blobs a batch will mine, read in order by a second ``git cat-file --batch`` in a
    thread while this process mines the ones before: git inflates blobs and resolves deltas on
    another core instead of between two parses.  At most AHEAD blobs wait in memory; a blob the
    miner did not ask for (its facts were cached) is dropped when a later one is taken."""

    AHEAD = 64
    LOW = 32  # a full queue is refilled once this few are left, not after each blob taken

    def __init__(self, repo, shas: list[str]):
        self.sequence = list(dict.fromkeys(shas))  # the thread's; order: the miner's
        self.order = {s: i for i, s in enumerate(self.sequence)}
        self.ready: dict[str, bytes | None] = {}
        self.cond = threading.Condition()
        self.stop = self.done = False
        self.reader = git.BlobReader(repo)
        self.thread = threading.Thread(target=self._run, name="repomem-prefetch", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            for sha in self.sequence:
                with self.cond:
                    while len(self.ready) >= self.AHEAD and not self.stop:
                        self.cond.wait()
                    if self.stop:
                        return
                data = self.reader.read(sha)
                with self.cond:
                    self.ready[sha] = data
                    self.cond.notify_all()
        except (OSError, ValueError) as e:  # git went away: the miner reads for itself
            log.debug("prefetch stopped: %s", e)
        finally:
            with self.cond:
                self.done = True
                self.cond.notify_all()

    def take(self, sha: str) -> tuple[bool, bytes | None]:
        """(True, the blob or None when git has no such object), or (False, None): not
        prefetched, read it directly."""
        pos = self.order.pop(sha, None)
        if pos is None:
            return False, None
        with self.cond:
            while True:
                for s in [s for s in self.ready if self.order.get(s, pos) < pos]:
                    del self.ready[s]  # skipped by the miner (cached): read directly if asked
                    del self.order[s]
                if sha in self.ready or self.done:
                    break
                self.cond.notify_all()
                self.cond.wait()
            # Waking the reader for every blob taken from a full queue cost two thread switches
            # per blob (~4% of mining a history under load): it is woken when half is left.
            if len(self.ready) <= self.LOW + 1:
                self.cond.notify_all()
            if sha in self.ready:
                return True, self.ready.pop(sha)
            return False, None

    def close(self) -> None:
        with self.cond:
            self.stop = True
            self.cond.notify_all()
        self.thread.join()
        self.reader.close()


class MissingObject(MineError):
    """A blob git does not have (a partial clone, a failed LFS fetch, a damaged mirror)."""


class CommitMiner:
    def __init__(self, repo):
        self.repo = repo
        self.blobs = git.BlobReader(repo)
        self.cache = _FactCache()
        self.ahead: _Prefetch | None = None

    def prefetch(self, infos: list[git.CommitInfo], changes: dict) -> None:
        """Start reading the blobs these commits add (in mining order) in the background."""
        if self.ahead is not None:
            self.ahead.close()
        shas = [ch.new_blob for c in infos for ch in changes.get(c.sha, [])
                if ch.new_blob is not None and wants(ch.path)
                and self.cache.get((ch.path, ch.new_blob)) is None]
        self.ahead = _Prefetch(self.repo, shas) if len(shas) > 1 else None

    def close(self) -> None:
        if self.ahead is not None:
            self.ahead.close()
            self.ahead = None
        self.blobs.close()

    def __enter__(self) -> "CommitMiner":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _facts(self, path: str, blob: str, latest: bool = True) -> list[Fact]:
        """Facts of one blob at one path; raises MineError when it cannot be mined.  latest:
        the version the commit adds (else its old version, read back to match moves)."""
        hit = self.cache.get((path, blob))
        if hit is None:
            # only the versions commits add were prefetched, in mining order; an old version
            # read back is asked for out of that order
            got, data = self.ahead.take(blob) if latest and self.ahead is not None \
                else (False, None)
            if not got:
                data = self.blobs.read(blob)
            if data is None:
                # A partial clone or mirror, a failed LFS fetch: that file version is skipped
                # (its earlier facts stay current) and the rest of the commit is indexed.
                hit = MissingObject(f"object {blob} is missing from the repository")
            else:
                try:
                    hit = mine_file(path, data)
                except MineError as e:
                    hit = e
                except RecursionError:
                    hit = MineError("too deeply nested to parse")
            self.cache.put((path, blob), hit, latest)
        if isinstance(hit, MineError):
            raise hit
        return hit

    def mine(self, info: git.CommitInfo, changes: list[git.Change]) -> CommitRecord:
        rec = CommitRecord(info.sha, info.parent, info.ct)
        old_funcs: list[Fact] = []
        new_funcs: list[Fact] = []
        for ch in changes:
            if not wants(ch.path):
                continue
            if ch.new_blob is None:
                rec.files[ch.path] = []
            else:
                try:
                    rec.files[ch.path] = self._facts(ch.path, ch.new_blob)
                except MineError as e:
                    # Keep the file's earlier facts: a broken commit must not retire them.
                    rec.skipped.append((ch.path, str(e)))
                    # a missing object is the repository's fault, not the file's: always said
                    (log.warning if isinstance(e, MissingObject) else log.info)(
                        "skip %s at %s: %s", ch.path, info.sha[:10], e)
                    continue
                new_funcs += movable(rec.files[ch.path])
            if ch.old_blob is not None and _may_move(ch.path):
                try:
                    old_funcs += movable(self._facts(ch.path, ch.old_blob, False))
                except MineError:
                    pass
        rec.links = links_of(old_funcs, new_funcs)
        rec.moves = sorted((ch.moved_from, ch.path) for ch in changes
                           if ch.moved_from and ch.path in rec.files and ch.moved_from in rec.files)
        return rec


def movable(facts: list[Fact]) -> list[Fact]:
    """The facts whose identity may follow a rename or move (functions and classes)."""
    return [f for f in facts if f.kind in _MOVABLE]


def links_of(old_funcs: list[Fact], new_funcs: list[Fact]) -> list[tuple[str, str]]:
    """(old anchor, new anchor) of the functions and classes a change renamed or moved: the
    record's links, which carry a function's identity (its ledger key) over to its new name."""
    new_anchors = {f.anchor for f in new_funcs}
    old_anchors = {f.anchor for f in old_funcs}
    links: list[tuple[str, str]] = []
    for kind in (CLASS, FUNCTION):  # a function never becomes a class; classes first: methods follow them
        removed = [f for f in old_funcs if f.anchor not in new_anchors and f.kind == kind]
        added = [f for f in new_funcs if f.anchor not in old_anchors and f.kind == kind]
        if removed and added:
            links += match_moves(removed, added, owners=links)
    return sorted(links)


# -- mining in worker processes ----------------------------------------------------------------
# Records depend on their commit alone, so batches of a long history can be mined in parallel
# and written in order.  Workers are spawned (not forked: the parent may hold Chroma's threads)
# and keep one CommitMiner each, so the blob cache works within a batch.
_WORKER_MINER: CommitMiner | None = None


def _init_worker(repo: str, log_level: int) -> None:
    global _WORKER_MINER
    logging.basicConfig(level=log_level, format="repomem: %(message)s")
    _WORKER_MINER = CommitMiner(repo)


def mine_batch(batch: list[git.CommitInfo], changes: dict | None = None) -> list[CommitRecord]:
    """changes: ``git.changes`` of the batch, when the caller has them."""
    assert _WORKER_MINER is not None
    if changes is None:
        changes = git.changes(_WORKER_MINER.repo, batch)
    _WORKER_MINER.prefetch(batch, changes)
    return [_WORKER_MINER.mine(c, changes.get(c.sha, [])) for c in batch]


def _ready() -> None:
    """A task that only makes the pool start a worker process."""


def worker_pool(repo, workers: int, start: bool = False):
    """start: spawn the workers now (they start up, ~0.3 s, while the caller prepares the
    batches), not at the first batches submitted."""
    import concurrent.futures
    import multiprocessing

    pool = concurrent.futures.ProcessPoolExecutor(
        max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
        initializer=_init_worker, initargs=(str(repo), logging.getLogger("repomem").getEffectiveLevel()))
    if start:
        for _ in range(workers):  # a pool spawns a process per task submitted, up to max_workers
            pool.submit(_ready)
    return pool
