"""Ingestion: git -> commit records (mined in worker processes for long histories) -> the view.

The write path's stages (select commits, read changes, plan batches, mine, store records,
fold) are ``repomem.service.pipeline``; this module strings them together for a first ingest,
a hook's new commits, the background backfill and ``repomem rebuild``, and mines HEAD's tree
first (``repomem.service.current``).  Besides them only the two read-side folds that document
why mine (``view.provisional_snapshot`` for a server reader's branch, the uncommitted overlay),
through ``service/ports.py``.  The view itself (the fold of the records on HEAD's first-parent
chain) is ``repomem.service.view``.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from pathlib import Path

from repomem.adapters import git
from repomem.core.crashpoint import crashpoint
from repomem.core.errors import RepomemError
from repomem.core.ledger import Ledger
from repomem.service import backfill, current, pipeline, shallow, viewcache
from repomem.service.pipeline import (
    batches_of,
    fold_records,
    mine_batches,
    plan_batches,
    read_changes,
    select_commits,
    start_workers,
    store_records,
    workers_for,
)
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
        new = len(select_commits(infos, have, theirs))  # before the provisional ones count
        if early:  # mined already, for the provisional snapshot (one recorded_at for both)
            r.store.put_records([rec for rec, _ in early.values()],
                                next(iter(early.values()))[1])
            have = r.store.ingested()
        if infos:
            storepath.record_identity(r.store.path, infos[0].sha)
        regrafted = shallow.remine(r.store, r.root, have)
        if regrafted:  # a record changed under the same commit: the view id cannot tell
            r.store.set_meta(r.store.view_name("view"), {})
        todo = select_commits(infos, have, theirs)
        # a short run shows nothing (its one line of result, or of error, stays alone)
        prog = OFF if progress is False or (progress is not True and len(todo) <= 50) else \
            progress if isinstance(progress, Progress) else Progress.for_stderr()
        fresh: dict = dict(early)  # records mined by this run: the fold need not read them back
        workers = workers_for(len(todo))
        # started first: the workers start up while this process cuts the batches (~0.2 s)
        pool = start_workers(r.root, workers, len(todo))
        try:
            changes = read_changes(r.root, todo) if workers > 1 else None
            batches = plan_batches(r.root, todo, changes, workers) if changes is not None else \
                batches_of(todo)
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
                for recs in mine_batches(r.root, batches, workers, changes, pool):
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
    now = store_records(r.store, recs)
    if pre is not None:
        # folded already: keeping every record of the history in memory for the fold at the
        # end was most of the peak memory (a fallback reads them back)
        fold_records(pre, recs, eff, now)
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
        workers = workers_for(files * 4)
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
        with prog.phase("current tree", total=files, unit="files") as task:
            ledger = current.tree_ledger(r.root, chain, workers, task, pool)
        r.store.set_meta("tree", {"head": head.sha})
        with prog.phase("current view", total=len(ledger.versions), unit="facts") as task:
            stats = tree_snapshot(r, ledger, emb)  # Chroma's view: the backfill's first step
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
        todo = select_commits(chain, have)
        eff = git.effective_times(chain)
        started, at_start = time.time(), len(chain) - len(todo)
        write_progress(r, chain, have, tree, started, at_start)
        with prog.phase("current view in Chroma", total=None, unit="") as task:
            ensure_view(r)  # the tree view, for as-of questions and facts (a no-op after)
        workers = workers_for(len(todo))
        pool = start_workers(r.root, workers, len(todo))
        try:
            changes = read_changes(r.root, todo) if workers > 1 else None
            size = int(os.environ.get("REPOMEM_BACKFILL_BATCH", pipeline.RECORD_BATCH))  # tests
            batches = plan_batches(r.root, todo, changes, workers) if changes is not None and \
                size == pipeline.RECORD_BATCH else batches_of(todo, size)
        except BaseException:
            if pool is not None:
                pool.shutdown(wait=False)
            raise
        # folded as batches arrive when this run mines the whole history (the usual case)
        pre = Ledger() if len(todo) == len(chain) else None
        with prog.phase("history", total=len(todo), unit="commits") as task:
            for recs in mine_batches(r.root, batches, workers, changes, pool):
                with r.store.writer():
                    now = store_records(r.store, recs)
                crashpoint("records")
                if pre is not None:
                    fold_records(pre, recs, eff, now)
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
            fresh = {rec.sha: rec for batch in mine_batches(r.root, [infos]) for rec in batch} \
                if infos else {}
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
