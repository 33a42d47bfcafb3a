"""Ingestion: git -> commit records (mined in worker processes for long histories) -> the view.

Mining is the write path: this module, ``repomem rebuild`` and the hooks' worker are the only
callers of the commit miner besides the two read-side folds that document why
(``view.provisional_snapshot`` for a server reader's branch, the uncommitted overlay).  The view
itself (the fold of the records on HEAD's first-parent chain) is ``repomem.service.view``.
"""

from __future__ import annotations

import collections
import itertools
import logging
import os
import sys
import time
from pathlib import Path

from repomem.adapters import git
from repomem.core.crashpoint import crashpoint
from repomem.core.errors import RepomemError
from repomem.core.ledger import Ledger
from repomem.miners.mining import CommitMiner, mine_batch, worker_pool
from repomem.service import backfill, current, shallow, viewcache
from repomem.service.progress import OFF, Progress
from repomem.service.repo import (
    Repo,
    _embedder,
    check_intact,
    require_store,
    set_aside_damaged_versions,
)
from repomem.service.view import EarlyRows, _provisional, ensure_view, sync_view, tree_snapshot
from repomem.storage import storepath

log = logging.getLogger("repomem")
RECORD_BATCH = 200
PARALLEL_MIN = 400
# Batches a worker's share of the bytes to mine is cut into.  More: more old versions mined
# again (a worker taking up a path after the other has no facts of its last version); fewer: a
# worse last batch.  5 gave the shortest mining in a simulation on express, click and httpx.
BATCHES_PER_WORKER = 5
PER_COMMIT = 1000  # the cost of a commit besides its bytes to mine, in bytes (a record, a diff)


def ingest(r: Repo, revs: list[str] | None = None, all_history: bool = False,
           create: bool = True, progress: bool | Progress | None = None) -> dict:
    """Mine the given commits (or the whole first-parent history) and refresh the view."""
    check_intact(r)  # Chroma would start a damaged database afresh, as if it had no facts
    with r.store.writer():
        early: dict = {}
        patched = None
        if r.store.exists() and (all_history or not revs):
            try:
                early, patched = _provisional(r)
            except RepomemError:  # e.g. a missing object: the ordinary path reports it
                viewcache.invalidate(r.store)
        emb = _embedder(r, create)
        check_miners_version(r)
        if all_history or not revs:
            infos = git.first_parent_chain(r.root)
        else:
            infos = git.commit_infos(r.root, [git.resolve_commit(r.root, x) for x in revs])
        have = r.store.ingested()
        # commits a running backfill will index (the history up to the tree's commit) are its
        # own: a hook's or the daemon's catch-up meanwhile does only the commits after it
        theirs = claimed(r) if all_history or not revs else set()
        new = sum(1 for c in infos if c.sha not in have and c.sha not in theirs)  # before the
        # provisional ones count
        if early:  # mined already, for the provisional snapshot (one recorded_at for both)
            r.store.put_records([rec for rec, _ in early.values()],
                                next(iter(early.values()))[1])
            have = r.store.ingested()
        if infos:
            storepath.record_identity(r.store.path, infos[0].sha)
        regrafted = shallow.remine(r.store, r.root, have)
        if regrafted:  # a record changed under the same commit: the view id cannot tell
            r.store.set_meta(r.store.view_name("view"), {})
        todo = [c for c in infos if c.sha not in have and c.sha not in theirs]
        # a short run shows nothing (its one line of result, or of error, stays alone)
        prog = OFF if progress is False or (progress is not True and len(todo) <= 50) else \
            progress if isinstance(progress, Progress) else Progress.for_stderr()
        fresh: dict = dict(early)  # records mined by this run: the fold need not read them back
        workers = _workers(len(todo))
        # started first: the workers start up while this process cuts the batches (~0.2 s)
        pool = worker_pool(r.root, workers, start=True) \
            if workers > 1 and len(todo) > RECORD_BATCH else None
        try:
            changes = git.changes(r.root, todo) if workers > 1 else None
            batches = _batches(r, todo, changes, workers) if changes is not None else \
                [todo[i:i + RECORD_BATCH] for i in range(0, len(todo), RECORD_BATCH)]
        except BaseException:
            if pool is not None:
                pool.shutdown(wait=False)
            raise
        # A first ingest of the whole chain folds each batch as it arrives, while the workers
        # mine the next ones, instead of folding everything after the last batch.
        pre = Ledger() if (all_history or not revs) and todo and len(todo) == len(infos) \
            and not early else None
        eff = git.effective_times(infos) if pre is not None else {}
        # with workers this process mostly waits meanwhile; alone it would only hold Chroma's
        # client open while it mines (~50 MB more peak memory, no time saved)
        closed_rows = EarlyRows(r, pre, emb) if pre is not None and workers > 1 else None
        try:
            with prog, prog.phase("history", total=len(todo), unit="commits") as task:
                for recs in _mined(r, batches, workers, changes, pool):
                    _store_batch(r, recs, pre, eff, closed_rows, fresh)
                    task.advance(len(recs))
        finally:
            shallow.note(r.store, r.root, infos)
            with prog, prog.phase("view", total=None, unit="versions") as task:
                stats = sync_view(r, emb, fresh, pre, patched,
                                  closed_rows.written if closed_rows else None)
                task.advance(stats.get("versions", 0))
        stats.update(commits=len(infos), new=new, remined=regrafted)
        return stats


def _store_batch(r: Repo, recs: list, pre: Ledger | None, eff: dict, closed_rows, fresh: dict):
    """Store one mined batch; fold it into PRE (a first ingest's ledger), or keep it in FRESH
    for the fold at the end."""
    now = int(time.time())
    r.store.put_records(recs, now)
    if pre is not None:
        # folded already: keeping every record of the history in memory for the fold at the
        # end was most of the peak memory (a fallback reads them back)
        for rec in recs:
            pre.apply(rec, eff[rec.sha], now)
        if closed_rows is not None:
            closed_rows.write()
    else:
        fresh.update((rec.sha, (rec, now)) for rec in recs)
    crashpoint("records")


# -- the checked-out tree first, the history behind it (service/current.py, backfill.py) -------
TREE_FIRST_MIN = int(os.environ.get("REPOMEM_TREE_FIRST_MIN", "200"))  # commits left to mine


def claimed(r: Repo) -> set[str]:
    """The commits a running backfill indexes (the first-parent history of the tree it
    started from); empty when none runs."""
    tree = r.store.get_meta("tree") if r.store.exists() else None
    if not tree or not backfill.running(r.store.path):
        return set()
    return {c.sha for c in git.first_parent_chain(r.root, tree["head"])}


def wants_tree_first(r: Repo) -> bool:
    """Whether ``repomem init`` should answer from HEAD's tree first: the history it would
    otherwise mine before the first answer is long (TREE_FIRST_MIN commits or more)."""
    chain = git.first_parent_chain(r.root)
    have = r.store.ingested() if r.store.exists() else set()
    return sum(1 for c in chain if c.sha not in have) >= TREE_FIRST_MIN


def tree_first(r: Repo, prog: Progress = OFF) -> dict:
    """Make HEAD's tree answerable now: mine each of its files once, fold them as one record
    dated file by file (service/current.py) and write that view; the history is left to
    ``index_history``.  Returns the view's stats."""
    with r.store.writer():
        sha = git.head(r.root)
        if sha is None:
            raise RepomemError("the repository has no commits yet",
                               hint="commit something first, then run 'repomem init' again")
        files = len(current.tree_files(r.root, sha))
        workers = _workers(files * 4)
        pool = current.start_pool(r.root, files, workers)  # they start while the rest is read
        try:
            emb = _embedder(r, True)
            check_miners_version(r)
            chain = git.first_parent_chain(r.root, sha)
            storepath.record_identity(r.store.path, chain[0].sha)
        except BaseException:
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
            raise
        head = chain[-1]
        known: dict[str, str] = {}
        with prog.phase("current tree", total=files, unit="files") as task:
            ledger = current.tree_ledger(r.root, chain, workers, task, pool, known)
        r.store.set_meta("tree", {"head": head.sha})
        with prog.phase("current view", total=len(ledger.versions), unit="facts") as task:
            # Chroma's view: the backfill's first step
            stats = tree_snapshot(r, ledger, emb, known or None)
            task.advance(len(ledger.versions))
        write_progress(r, chain, r.store.ingested(), head.sha)
        stats.update(commits=len(chain), head=head.sha, files=files)
        return stats


def write_progress(r: Repo, chain: list[git.CommitInfo], have: set[str], tree: str,
                   started: float | None = None, done_at_start: int = 0, **extra) -> dict:
    """backfill.json: how far the history up to TREE is (``repomem status``)."""
    upto = next((i for i, c in enumerate(chain) if c.sha == tree), len(chain) - 1)
    line = chain[:upto + 1]
    done = sum(1 for c in line if c.sha in have)
    reached = None  # the last commit of the ingested prefix: as-of questions up to it are whole
    for c in line:
        if c.sha not in have:
            break
        reached = c
    now = time.time()
    rate = (done - done_at_start) / (now - started) if started and now > started else 0.0
    state = {"head": tree, "total": len(line), "done": done, "complete": done == len(line),
             "reached": reached.sha if reached else None,
             "reached_date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(reached.ct))
             if reached else None,
             "rate": rate, "updated": int(now), "pid": os.getpid(), **extra}
    backfill.write_state(r.store.path, state)
    return state


def index_history(r: Repo, prog: Progress = OFF, lock_fd: int | None = None) -> dict:
    """Index the first-parent history behind the tree view, oldest first, in batches stored
    one writer lock at a time (questions and hooks go on meanwhile), then replace the tree
    view with the history's fold.  Holds the backfill lock; returns {"running": True} at once
    when another process holds it.  Killed anywhere, the next run resumes after the last
    stored batch: records are per commit and stored whole batches at a time.  LOCK_FD: the
    backfill lock, taken by the process that started this one (``backfill.spawn``)."""
    fd = lock_fd if lock_fd is not None else backfill.acquire(r.store.path)
    if fd is None:
        return {"running": True}
    try:
        tree = (r.store.get_meta("tree") or {}).get("head") or git.head(r.root) or ""
        chain = git.first_parent_chain(r.root, tree)
        have = r.store.ingested()
        todo = [c for c in chain if c.sha not in have]
        eff = git.effective_times(chain)
        started, at_start = time.time(), len(chain) - len(todo)
        write_progress(r, chain, have, tree, started, at_start)
        with prog.phase("current view in Chroma", total=None, unit="") as task:
            ensure_view(r)  # the tree view, for as-of questions and facts (a no-op after)
        workers = _workers(len(todo))
        pool = worker_pool(r.root, workers, start=True) \
            if workers > 1 and len(todo) > RECORD_BATCH else None
        try:
            changes = git.changes(r.root, todo) if workers > 1 else None
            size = int(os.environ.get("REPOMEM_BACKFILL_BATCH", RECORD_BATCH))  # tests: small
            batches = _batches(r, todo, changes, workers) if changes is not None and \
                size == RECORD_BATCH else [todo[i:i + size] for i in range(0, len(todo), size)]
        except BaseException:
            if pool is not None:
                pool.shutdown(wait=False)
            raise
        # folded as batches arrive when this run mines the whole history (the usual case)
        pre = Ledger() if len(todo) == len(chain) else None
        with prog.phase("history", total=len(todo), unit="commits") as task:
            for recs in _mined(r, batches, workers, changes, pool):
                now = int(time.time())
                with r.store.writer():
                    r.store.put_records(recs, now)
                crashpoint("records")
                if pre is not None:
                    for rec in recs:
                        pre.apply(rec, eff[rec.sha], now)
                have.update(rec.sha for rec in recs)
                write_progress(r, chain, have, tree, started, at_start)
                task.advance(len(recs))
        with prog.phase("history view", total=None, unit="") as task:
            with r.store.writer():
                r.store.set_meta("tree", {})  # caught up: the view is the history's fold
                # the tree view's snapshot answers meanwhile: its current facts are the same
                stats = sync_view(r, _embedder(r, False), folded=pre, keep_snapshot=True)
            task.advance(stats.get("versions", 0))
        write_progress(r, chain, r.store.ingested(), tree, started, at_start)
        stats.update(commits=len(chain), new=len(todo), head=tree)
        return stats
    except Exception as e:
        backfill.write_state(r.store.path, dict(backfill.read_state(r.store.path),
                                                error=f"{type(e).__name__}: {e}"))
        raise
    finally:
        os.close(fd)


def _workers(n_commits: int) -> int:
    """Mining processes for a run: one below PARALLEL_MIN commits (starting workers costs more
    than it saves), else one per core up to 4; REPOMEM_WORKERS overrides."""
    env = os.environ.get("REPOMEM_WORKERS")
    if env and env.isdigit():
        return max(1, int(env))
    if n_commits < PARALLEL_MIN:
        return 1
    return max(1, min(4, os.cpu_count() or 1))


def _batches(r: Repo, todo: list[git.CommitInfo], changes: dict,
             workers: int) -> list[list[git.CommitInfo]]:
    """Batches for mining workers, cut by work rather than by commit count: a batch holds at
    most RECORD_BATCH commits and about 1/BATCHES_PER_WORKER of a worker's share of the bytes
    to mine (the file versions the commits add).  A history's heavy stretch (changes across
    many files: express's commits 3,601-3,800 hold 3x the bytes of an average 200) then does
    not leave one worker mining it alone at the end while the other has nothing left."""
    from repomem.miners import wants

    sizes = git.blob_sizes(r.root, list({ch.new_blob for chs in changes.values() for ch in chs
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


def _mined(r: Repo, batches: list[list[git.CommitInfo]], workers: int | None = None,
           changes: dict | None = None, pool=None):
    """Records of each batch, in order.  A missing object raises after the batches before it
    were yielded (and stored), so what is good is kept.  changes: ``git.changes`` of every
    commit of the batches, when the caller has them; pool: the workers, started by the caller."""
    if workers is None:
        workers = _workers(sum(len(b) for b in batches))
    if pool is not None and (workers == 1 or len(batches) <= 1):
        pool.shutdown(wait=False)  # not needed after all
    if not batches:
        return
    if workers == 1 or len(batches) == 1:
        with CommitMiner(r.root) as miner:
            for batch in batches:
                got = changes if changes is not None else git.changes(r.root, batch)
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
    pool = pool or worker_pool(r.root, workers)
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


# -- re-mining stored history (repomem rebuild) -------------------------------------------------
def check_miners_version(r: Repo) -> bool:
    """A new store is stamped with the miners' version; a store whose records were mined by older
    miners (or a redactor that missed a secret) says so once per run, with the command that
    re-mines them.  Not done automatically: re-mining costs as much as the first ingest, and
    the post-commit hook must stay fast.  Returns True when the records are current."""
    from repomem.miners import MINERS_VERSION

    have = r.store.get_meta("miners_version")
    if have is None and not r.store.ingested():
        r.store.set_meta("miners_version", MINERS_VERSION)
        return True
    if (have or 1) < MINERS_VERSION:
        log.warning("stored records were mined by older miners (version %s, now %s); "
                    "hint: run 'repomem rebuild' to re-mine them", have or 1, MINERS_VERSION)
        return False
    return True


def _present(root: Path, shas: list[str]) -> set[str]:
    """The commits git still has (lines ``<sha> commit <size>``; a gone one is ``<sha> missing``)."""
    if not shas:
        return set()
    out = git.git(root, "cat-file", "--batch-check", input="".join(f"{s}\n" for s in shas).encode())
    rows = [ln.split() for ln in out.decode().splitlines()]
    return {row[0] for row in rows if len(row) == 3 and row[1] == "commit"}


def rebuild(r: Repo, progress: bool | None = None) -> dict:
    """Re-mine every stored commit record with the current miners and redactor, replace the
    records (pack by pack, transaction times kept) and fold the view again, so a detector fix
    reaches history already stored.  A commit no longer in the repository (gc'ed after a
    rebase) keeps its record, with every fact passed through the current redactor again."""
    from repomem.miners import MINERS_VERSION, redact_stored

    require_store(r)
    set_aside_damaged_versions(r)
    with r.store.writer():
        emb = _embedder(r, False)
        packs = r.store.record_packs()
        present = _present(r.root, [s for _, shas, _ in packs for s in shas])
        total = sum(len(shas) for _, shas, _ in packs)
        show = progress if progress is not None else (sys.stderr.isatty() and total > 50)
        done = remined = 0
        for pack_id, shas, _ in packs:
            old = r.store.load_records(shas)
            infos = git.commit_infos(r.root, [s for s in shas if s in present])
            fresh = {rec.sha: rec for batch in _mined(r, [infos]) for rec in batch} if infos else {}
            recs = [fresh[s] if s in fresh else redact_stored(old[s][0]) for s in shas if s in old]
            r.store.rewrite_pack(pack_id, recs)
            done += len(shas)
            remined += len(fresh)
            if show:
                print(f"\rre-mined {done}/{total} commits", end="", file=sys.stderr, flush=True)
        if show:
            print(file=sys.stderr)
        # the fold state, the snapshot and the view hold versions of the old records (and
        # Chroma's log their old rows): drop them all and fold everything again
        r.store.drop_views()
        stats = sync_view(r, emb)
        r.store.set_meta("miners_version", MINERS_VERSION)
        r.store.vacuum()
        stats.update(commits=total, remined=remined, redacted_only=total - remined,
                     miners_version=MINERS_VERSION)
        return stats
