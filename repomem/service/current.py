"""The checked-out tree first: the current facts of HEAD's tree, before any history is mined.

``repomem init`` answers current questions within seconds by mining each file of HEAD's tree
once (in worker processes for a large tree), as if one commit had added them all, and folding
that one record: routes composed across files, a key stated in several files ranked by
precedence, exactly as the history's fold would.  Each version's provenance is the last
first-parent commit that touched its file (one ``git log --name-only`` pass): the value has held
at least since then.  The history's fold later gives the same current facts (keys, values,
places), with the commit where each value itself began and a function's identity from the
commit it was born in; until then the view is this ledger, ``applied = ["tree:<HEAD>"]``
(``TREE``), and commits made meanwhile are applied on top of it like on any folded view.
"""

from __future__ import annotations

import concurrent.futures
import logging
import multiprocessing
import sys
import threading
import time

from repomem.adapters import git
from repomem.core.ledger import Ledger
from repomem.core.records import CommitRecord, tree_name
from repomem.miners import wants
from repomem.miners.mining import CommitMiner, mine_batch, worker_pool

log = logging.getLogger("repomem")
PARALLEL_FILES = 150  # fewer files are mined in this process: starting workers costs more


def tree_files(root, sha: str) -> list[tuple[str, str]]:
    """(path, blob) of the files of commit SHA's tree that a miner reads."""
    return [(p, b) for p, b in git.tree_files(root, sha) if wants(p)]


def start_pool(root, files: int, workers: int):
    """The mining workers for a tree of FILES files, started now; None when this process mines
    alone.  Forked where that is safe (Linux, this process has no other thread yet): a forked
    worker shares the miners this process has imported already and starts in milliseconds,
    where a spawned one starts a Python and imports them again (~0.25 CPU s each, seconds on a
    loaded machine).  Elsewhere spawned, as the history's workers are.  A forked worker holds
    the store's writer lock with this process (the lock belongs to the open file): ``mine_tree``
    waits for the workers to exit before the caller releases it."""
    if workers <= 1 or files < PARALLEL_FILES:
        return None
    if not sys.platform.startswith("linux") or threading.active_count() > 1:
        return worker_pool(root, workers, start=True)
    pool = concurrent.futures.ProcessPoolExecutor(
        max_workers=workers, mp_context=multiprocessing.get_context("fork"),
        initializer=_start_miner, initargs=(str(root),))
    pool.submit(_ready)  # a fork pool forks all its workers at the first task
    return pool


_MINER: CommitMiner | None = None  # a forked worker's miner


def _start_miner(repo: str) -> None:
    global _MINER
    _MINER = CommitMiner(repo)


def _ready() -> None:
    """A task that only makes the pool start its workers."""


def _mine_files(info: git.CommitInfo, changes: list[git.Change]) -> CommitRecord:
    """A worker's part of the tree: CHANGES (files added by INFO) mined as one record."""
    if _MINER is None:  # a spawned worker (mining.worker_pool's initializer set its own)
        return mine_batch([info], {info.sha: changes})[0]
    _MINER.prefetch([info], {info.sha: changes})
    return _MINER.mine(info, changes)


def mine_tree(root, head: git.CommitInfo, workers: int = 1, progress=None, pool=None,
              files: list[tuple[str, str]] | None = None) -> CommitRecord:
    """One record holding the facts of every file of HEAD's tree (each file mined once).
    POOL: WORKERS workers started by ``start_pool`` (shut down here); FILES: ``tree_files`` of
    HEAD."""
    files = tree_files(root, head.sha) if files is None else files
    info = git.CommitInfo(head.sha, None, head.ct)
    changes = [git.Change(p, None, b) for p, b in files]
    rec = CommitRecord(tree_name(head.sha), None, head.ct)
    if pool is None and workers > 1 and len(changes) >= PARALLEL_FILES:
        pool = worker_pool(root, workers)
    if pool is not None:
        sizes = git.blob_sizes(root, [b for _, b in files])
        # the largest first, dealt round-robin: chunks of about equal work
        order = sorted(changes, key=lambda ch: -sizes.get(ch.new_blob or "", 0))
        chunks = [c for c in (sorted(order[i::workers * 4], key=lambda ch: ch.path)
                              for i in range(workers * 4)) if c]
        try:
            futures = [pool.submit(_mine_files, info, chunk) for chunk in chunks]
            for fut, chunk in zip(futures, chunks):
                part = fut.result()
                rec.files.update(part.files)
                rec.skipped += part.skipped
                if progress is not None:
                    progress.advance(len(chunk))
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown(wait=True)  # idle workers exit at once; reaped, their CPU time is ours
    else:
        with CommitMiner(root) as miner:
            miner.prefetch([info], {head.sha: changes})
            for ch in changes:
                part = miner.mine(info, [ch])
                rec.files.update(part.files)
                rec.skipped += part.skipped
                if progress is not None:
                    progress.advance(1)
    rec.files = dict(sorted(rec.files.items()))
    return rec


class _Meanwhile(threading.Thread):
    """What the tree's ledger needs besides the mined facts, done while the workers mine: the
    last commit that touched each file (one ``git log`` read), and the imports the snapshot
    needs next (bm25s, the stemmer: ~0.2 s this process would otherwise spend after mining)."""

    def __init__(self, root, paths: set[str], head: str):
        super().__init__(daemon=True)
        self.root, self.paths, self.head = root, paths, head
        self.touched: dict[str, str] = {}
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.touched = git.last_touches(self.root, self.paths, self.head)
            import bm25s  # noqa: F401

            from repomem.core.tokens import stem_word
            stem_word("warming")
        except BaseException as e:  # re-raised by the caller, in its own thread
            self.error = e

    def result(self) -> dict[str, str]:
        self.join()
        if self.error is not None:
            raise self.error
        return self.touched


def tree_ledger(root, chain: list[git.CommitInfo], workers: int = 1,
                progress=None, pool=None) -> Ledger:
    """The ledger of HEAD's tree (chain: HEAD's first-parent history, oldest first), each
    version dated by the last commit that touched its file.  POOL: see ``mine_tree``."""
    head = chain[-1]
    try:
        files = tree_files(root, head.sha)
    except BaseException:
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        raise
    # every mined path, not only those with facts: the same commit for each path, and the read
    # is over before the mining is
    meanwhile = _Meanwhile(root, {p for p, _ in files}, head.sha)
    meanwhile.start()
    rec = mine_tree(root, head, workers, progress, pool, files)
    touched = meanwhile.result()
    eff = git.effective_times(chain)
    ledger = Ledger()
    ledger.apply(rec, eff[head.sha], int(time.time()))
    for v in ledger.versions:
        sha = touched.get(v.path)
        if sha is not None and sha in eff:
            v.commit, v.valid_from = sha, eff[sha]
        else:  # a file git log does not name (cannot happen on a whole history): HEAD's time
            v.commit = head.sha
    return ledger


def same_facts(a: Ledger, b: Ledger) -> tuple[set, set]:
    """(only in a, only in b): the current facts of two ledgers compared as a user sees them
    (kind, subject, value, path, line) -- keys with a function's identity differ by design."""
    def facts(ledger: Ledger) -> set:
        return {(v.kind, v.subject, v.value, v.path, v.line) for v in ledger.open.values()}
    fa, fb = facts(a), facts(b)
    return fa - fb, fb - fa
