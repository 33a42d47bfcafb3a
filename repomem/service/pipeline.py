"""The write path's stages, each with narrow inputs and outputs and testable alone:

  select_commits  (chain, have, claimed)               -> the commits to mine, oldest first
  read_changes    (root, commits)                      -> what each commit adds: paths and blobs
  plan_batches    (root, commits, changes, workers)    -> batches cut by the bytes they mine
  mine_batches    (root, batches, workers, changes)    -> commit records, batch by batch
  store_records   (store, records)                     -> stored; their recorded-at time
  fold_records    (ledger, records, times, recorded)   -> the ledger, superseded by valid time
  (view/snapshot: ``service/view.py``; the checked-out tree's own stages: ``service/current.py``)

A stage takes the work tree's root, plain lists and dicts, or the store of records -- never the
opened repository -- so none of them reaches past its own neighbours.  ``service/ingest.py``
strings them together: the whole history on ``repomem init``, a hook's new commits, the
background backfill, a rebuild.  The blobs themselves are read by the miner as it mines (one
``git cat-file --batch`` a process, read ahead of the miner in mining order).
"""

from __future__ import annotations

import collections
import itertools
import os
import sys
import time
from pathlib import Path
from typing import Collection, Iterator

from repomem.adapters import git
from repomem.core.errors import RepomemError
from repomem.core.ledger import Ledger
from repomem.core.records import CommitRecord
from repomem.miners.mining import CommitMiner, mine_batch, worker_pool

RECORD_BATCH = 200
PARALLEL_MIN = 400
# Batches a worker's share of the bytes to mine is cut into.  More: more old versions mined
# again (a worker taking up a path after the other has no facts of its last version); fewer: a
# worse last batch.  5 gave the shortest mining in a simulation on express, click and httpx.
BATCHES_PER_WORKER = 5
PER_COMMIT = 1000  # the cost of a commit besides its bytes to mine, in bytes (a record, a diff)


# -- select commits -----------------------------------------------------------------------------
def select_commits(chain: list[git.CommitInfo], have: Collection[str],
                   claimed: Collection[str] = ()) -> list[git.CommitInfo]:
    """The commits of CHAIN (oldest first) still to mine: not stored yet (HAVE) and not left to
    a running backfill (CLAIMED), in CHAIN's order."""
    return [c for c in chain if c.sha not in have and c.sha not in claimed]


def workers_for(n_commits: int) -> int:
    """Mining processes for a run: one below PARALLEL_MIN commits (starting workers costs more
    than it saves), else one per core up to 4; REPOMEM_WORKERS overrides."""
    env = os.environ.get("REPOMEM_WORKERS")
    if env and env.isdigit():
        return max(1, int(env))
    if n_commits < PARALLEL_MIN:
        return 1
    return max(1, min(4, os.cpu_count() or 1))


# -- read blobs ---------------------------------------------------------------------------------
def read_changes(root: Path, commits: list[git.CommitInfo]) -> dict[str, list[git.Change]]:
    """What each commit adds against its first parent: (path, old blob, new blob) a file, from
    one ``git diff-tree --stdin``."""
    return git.changes(root, commits)


def plan_batches(root: Path, todo: list[git.CommitInfo], changes: dict,
                 workers: int) -> list[list[git.CommitInfo]]:
    """Batches for mining workers, cut by work rather than by commit count: a batch holds at
    most RECORD_BATCH commits and about 1/BATCHES_PER_WORKER of a worker's share of the bytes
    to mine (the file versions the commits add).  A history's heavy stretch (changes across
    many files: express's commits 3,601-3,800 hold 3x the bytes of an average 200) then does
    not leave one worker mining it alone at the end while the other has nothing left."""
    from repomem.miners import wants

    sizes = git.blob_sizes(root, list({ch.new_blob for chs in changes.values() for ch in chs
                                       if ch.new_blob is not None and wants(ch.path)}))
    cost = [PER_COMMIT + sum(sizes.get(ch.new_blob, 0) for ch in changes.get(c.sha, ())
                             if ch.new_blob is not None) for c in todo]
    target = sum(cost) / (BATCHES_PER_WORKER * workers)
    out: list[list[git.CommitInfo]] = [[]]
    acc = 0
    for c, n in zip(todo, cost):
        if out[-1] and (acc + n > target or len(out[-1]) >= RECORD_BATCH):
            out.append([])
            acc = 0
        out[-1].append(c)
        acc += n
    return out


def batches_of(todo: list[git.CommitInfo], size: int = 0) -> list[list[git.CommitInfo]]:
    """TODO in batches of SIZE commits (RECORD_BATCH when 0): one process mines them in order."""
    size = size or RECORD_BATCH
    return [todo[i:i + size] for i in range(0, len(todo), size)]


# -- mine -------------------------------------------------------------------------------------
def mine_batches(root: Path, batches: list[list[git.CommitInfo]], workers: int | None = None,
                 changes: dict | None = None, pool=None) -> Iterator[list[CommitRecord]]:
    """Records of each batch, in order.  A missing object raises after the batches before it
    were yielded (and stored), so what is good is kept.  changes: ``read_changes`` of every
    commit of the batches, when the caller has them; pool: the workers, started by the caller
    (``start_workers``)."""
    if workers is None:
        workers = workers_for(sum(len(b) for b in batches))
    if pool is not None and (workers == 1 or len(batches) <= 1):
        pool.shutdown(wait=False)  # not needed after all
    if not batches:
        return
    if workers == 1 or len(batches) == 1:
        with CommitMiner(root) as miner:
            for batch in batches:
                got = changes if changes is not None else git.changes(root, batch)
                miner.prefetch(batch, got)
                recs = []
                for c in batch:
                    try:
                        recs.append(miner.mine(c, got.get(c.sha, [])))
                    except RepomemError:
                        if recs:
                            yield recs
                        raise
                yield recs
        return
    pool = pool or worker_pool(root, workers)
    _import_chroma_meanwhile()
    todo = iter(batches)
    # A bounded window of batches in flight: results must not pile up in memory while the
    # store writes lag behind the miners.
    def submit(batch):
        mine = {c.sha: changes.get(c.sha, []) for c in batch} if changes is not None else None
        return pool.submit(mine_batch, batch, mine)

    window = collections.deque(submit(b) for b in itertools.islice(todo, 2 * workers))
    finished = False
    try:
        while window:
            recs = window.popleft().result()
            nxt = next(todo, None)
            if nxt is not None:
                window.append(submit(nxt))
            yield recs
        finished = True
    finally:
        # on an error (or a generator closed early) do not mine what nobody will store; after
        # the last batch the idle workers exit while this process writes the view (~0.3 s)
        pool.shutdown(wait=not finished, cancel_futures=True)


def start_workers(root: Path, workers: int, commits: int):
    """The history's mining workers, started now (they start up while the caller cuts the
    batches); None when one process mines them (WORKERS 1, or one batch's worth of COMMITS)."""
    return worker_pool(root, workers, start=True) \
        if workers > 1 and commits > RECORD_BATCH else None


def _import_chroma_meanwhile() -> None:
    """While workers mine, this process mostly waits: import chromadb (~1.3 s, needed for the
    view at the end) in a thread meanwhile.  A failure is left for the real import to report."""
    import threading

    from repomem.storage.chromaimport import import_chromadb

    def run():
        try:
            import_chromadb()  # under the lock the main thread's import also takes
        except Exception:  # reported by the import that needs it
            pass

    if "chromadb" not in sys.modules:
        threading.Thread(target=run, name="repomem-import-chromadb", daemon=True).start()


# -- records ----------------------------------------------------------------------------------
def store_records(store, recs: list[CommitRecord]) -> int:
    """Store RECS (``Store.put_records``: one transaction); returns their recorded-at time."""
    now = int(time.time())
    store.put_records(recs, now)
    return now


# -- fold -------------------------------------------------------------------------------------
def fold_records(ledger: Ledger, recs: list[CommitRecord], valid: dict[str, int],
                 recorded_at: int) -> Ledger:
    """RECS applied to LEDGER in order, each at its commit's valid time (VALID:
    ``git.effective_times`` of the chain)."""
    for rec in recs:
        ledger.apply(rec, valid[rec.sha], recorded_at)
    return ledger
