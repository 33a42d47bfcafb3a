"""Ingestion and view materialisation: git -> commit records -> ledger fold -> Chroma view.

The view is the fold of every ingested record on the first-parent chain of HEAD.  It is keyed by
a digest of (HEAD, the records applied), so it is rebuilt exactly when either changes: a new
commit, a backfilled old commit, a checkout, a reset or a rebase.  Commits that are no longer
reachable keep their records (nothing is deleted) but stop contributing to the view.
"""

from __future__ import annotations

import collections
import itertools
import logging
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from repomem import foldstate, git, remote, shallow, storepath, summaries, viewcache
from repomem.embed import get_embedder
from repomem.crashpoint import crashpoint
from repomem.errors import RepomemError
from repomem.ledger import Ledger, fold
from repomem.mining import CommitMiner, mine_batch, worker_pool
from repomem.model import short_hash
from repomem.store import Store, version_document, version_meta, version_row

log = logging.getLogger("repomem")
RECORD_BATCH = 200
PARALLEL_MIN = 400


@dataclass
class Repo:
    """A work tree and its store."""

    root: Path
    store: Store

    @classmethod
    def open(cls, repo: str | Path = ".", store: str | Path | None = None,
             embedder: str | None = None, args=None) -> "Repo":
        where = git.discover(repo)
        server = remote.from_args(args, where.root)  # --chroma / $REPOMEM_CHROMA_URL
        if server is not None:  # the store is on the server; a local folder caches the snapshot
            path = Path(store) if store else where.common / "repomem-server" / server.prefix
            return cls(where.root, Store(path.absolute(), embedder, where.worktree, server))
        path = storepath.resolve_store_path(where, store)
        if not storepath.is_default(where, path):  # the repository's own store needs no check
            storepath.check_identity(path, where.root)
        return cls(where.root, Store(path, embedder, where.worktree))


def _embedder(r: Repo, create: bool):
    spec = r.store.embedder_spec
    if spec is None and r.store.exists():
        spec = r.store.get_meta("embedder")
    emb = get_embedder(spec)
    r.store.check_embedder(emb, create)
    return emb


def require_store(r: Repo) -> None:
    if not r.store.exists():
        raise RepomemError(f"no repomem store for {r.root}",
                           hint="run 'repomem init' (or 'repomem ingest --all') first")


def ingest(r: Repo, revs: list[str] | None = None, all_history: bool = False,
           create: bool = True, progress: bool | None = None) -> dict:
    """Mine the given commits (or the whole first-parent history) and refresh the view."""
    with r.store.writer():
        early, patched = {}, None
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
        new = sum(1 for c in infos if c.sha not in have)  # before the provisional ones count
        if early:  # mined already, for the provisional snapshot (one recorded_at for both)
            r.store.put_records([rec for rec, _ in early.values()],
                                next(iter(early.values()))[1])
            have = r.store.ingested()
        if infos:
            storepath.record_identity(r.store.path, infos[0].sha)
        regrafted = shallow.remine(r.store, r.root, have)
        if regrafted:  # a record changed under the same commit: the view id cannot tell
            r.store.set_meta(r.store.view_name("view"), {})
        todo = [c for c in infos if c.sha not in have]
        show = progress if progress is not None else (sys.stderr.isatty() and len(todo) > 50)
        started = time.time()
        done = 0
        fresh: dict = dict(early)  # records mined by this run: the fold need not read them back
        batches = [todo[i:i + RECORD_BATCH] for i in range(0, len(todo), RECORD_BATCH)]
        # A first ingest of the whole chain folds each batch as it arrives, while the workers
        # mine the next ones, instead of folding everything after the last batch.
        pre = Ledger() if (all_history or not revs) and todo and len(todo) == len(infos) \
            and not early else None
        eff = git.effective_times(infos) if pre is not None else {}
        try:
            for recs in _mined(r, batches):
                now = int(time.time())
                r.store.put_records(recs, now)
                if pre is not None:
                    # folded already: keeping every record of the history in memory for the
                    # fold at the end was most of the peak memory (a fallback reads them back)
                    for rec in recs:
                        pre.apply(rec, eff[rec.sha], now)
                else:
                    fresh.update((rec.sha, (rec, now)) for rec in recs)
                crashpoint("records")
                done += len(recs)
                if show:
                    rate = done / max(time.time() - started, 1e-6)
                    print(f"\ringested {done}/{len(todo)} commits ({rate:.0f}/s)",
                          end="", file=sys.stderr, flush=True)
        finally:
            if show:
                print(file=sys.stderr)
            shallow.note(r.store, r.root, infos)
            stats = sync_view(r, emb, fresh, pre, patched)
        stats.update(commits=len(infos), new=new, remined=regrafted)
        return stats


def _workers(n_commits: int) -> int:
    """Mining processes for a run: one below PARALLEL_MIN commits (starting workers costs more
    than it saves), else one per core up to 4; REPOMEM_WORKERS overrides."""
    env = os.environ.get("REPOMEM_WORKERS")
    if env and env.isdigit():
        return max(1, int(env))
    if n_commits < PARALLEL_MIN:
        return 1
    return max(1, min(4, os.cpu_count() or 1))


def _mined(r: Repo, batches: list[list[git.CommitInfo]]):
    """Records of each batch, in order.  A missing object raises after the batches before it
    were yielded (and stored), so what is good is kept."""
    if not batches:
        return
    workers = _workers(sum(len(b) for b in batches))
    if workers == 1 or len(batches) == 1:
        with CommitMiner(r.root) as miner:
            for batch in batches:
                changes = git.changes(r.root, batch)
                miner.prefetch(batch, changes)
                recs = []
                for c in batch:
                    try:
                        recs.append(miner.mine(c, changes.get(c.sha, [])))
                    except RepomemError:
                        if recs:
                            yield recs
                        raise
                yield recs
        return
    pool = worker_pool(r.root, workers)
    _import_chroma_meanwhile()
    todo = iter(batches)
    # A bounded window of batches in flight: results must not pile up in memory while the
    # store writes lag behind the miners.
    window = collections.deque(pool.submit(mine_batch, b)
                               for b in itertools.islice(todo, 2 * workers))
    try:
        while window:
            recs = window.popleft().result()
            nxt = next(todo, None)
            if nxt is not None:
                window.append(pool.submit(mine_batch, nxt))
            yield recs
    finally:  # on an error (or a generator closed early) do not mine what nobody will store
        pool.shutdown(wait=True, cancel_futures=True)


def _import_chroma_meanwhile() -> None:
    """While workers mine, this process mostly waits: import chromadb (~1.3 s, needed for the
    view at the end) in a thread meanwhile.  A failure is left for the real import to report."""
    import threading

    def run():
        try:
            import chromadb  # noqa: F401
        except Exception:  # noqa: BLE001 - reported by the import that needs it
            pass

    if "chromadb" not in sys.modules:
        threading.Thread(target=run, name="repomem-import-chromadb", daemon=True).start()


def view_id(head: str | None, applied: list[str]) -> str:
    return short_hash(head or "", *applied, n=20)


def _target(r: Repo) -> tuple[list[str], dict[str, int], str, int]:
    """(records to fold in order, their valid times, the view id, HEAD commits not ingested)."""
    chain = git.first_parent_chain(r.root)
    have = r.store.ingested()
    applied = [c.sha for c in chain if c.sha in have]
    # Cached LLM summaries change purpose texts, so they are part of what the view is built from.
    extra = summaries.digest(r.store.path)
    vid = view_id(chain[-1].sha if chain else None, applied + ([extra] if extra else []))
    return applied, git.effective_times(chain), vid, len(chain) - len(applied)


def view_is_current(r: Repo) -> tuple[bool, int]:
    """(whether the view matches HEAD and the ingested records, commits on HEAD not ingested)."""
    _, _, vid, missing = _target(r)
    state = r.store.get_meta(r.store.view_name("view")) or {}
    return state.get("id") == vid and state.get("complete", False), missing


def _records(r: Repo, shas: list[str], fresh: dict | None) -> dict:
    fresh = fresh or {}
    out = r.store.load_records([s for s in shas if s not in fresh])
    out.update((s, fresh[s]) for s in shas if s in fresh)
    return out


def sync_view(r: Repo, emb=None, fresh: dict | None = None, folded: Ledger | None = None,
              patched: tuple | None = None) -> dict:
    """FOLDED: a ledger the caller folded from nothing, used when it applied exactly the records
    the view is the fold of (a first ingest folds batch by batch while workers mine).
    PATCHED: (summaries digest, ledger): the saved fold state as this writer loaded it, with
    records applied on top and ``dirty`` saying what they changed (the provisional snapshot's
    work, not done twice)."""
    with r.store.writer():
        emb = emb or _embedder(r, False)
        applied, eff, vid, missing = _target(r)
        state = r.store.get_meta(r.store.view_name("view")) or {}
        if state.get("id") == vid and state.get("complete"):
            if not viewcache.exists(r.store, state.get("head")):
                _write_snapshot(r, state, emb, missing)
            return {"versions": r.store.count_versions(), "added": 0, "updated": 0, "dropped": 0}
        # Marked incomplete first: a crash mid-sync leaves a view that the next run redoes.
        known = viewcache.known_docs(r.store)  # its tokens serve the next snapshot's index
        viewcache.invalidate(r.store)
        r.store.set_meta(r.store.view_name("view"), {"id": vid, "complete": False})
        crashpoint("view")
        extra = summaries.digest(r.store.path)
        # After a crash mid-sync the view may hold rows of an unfinished rebuild: fold it all.
        ledger = None
        if state.get("complete"):
            if patched is not None and patched[0] == extra:
                ledger = patched[1]
            else:
                ledger = _load_fold(r, extra)
                if ledger is not None:
                    ledger.dirty = set()
        if ledger is not None and applied[:len(ledger.applied)] == ledger.applied:
            # The usual case (new commits on top of the folded history): apply only the new
            # records and write only the versions they created or closed.
            new = applied[len(ledger.applied):]
            recs = _records(r, new, fresh)
            for s in new:
                ledger.apply(recs[s][0], eff[s], recs[s][1])
            changed = [v for v in ledger.versions if v.id in ledger.dirty]
            stats = r.store.sync_versions(summaries.apply(r.store.path, changed), emb,
                                          complete=False)
        else:  # backfill, checkout, reset, rebase: fold the whole history again
            if folded is not None and folded.applied == applied:
                ledger = folded
            else:
                recs = _records(r, applied, fresh)
                ledger = fold([(recs[s][0], eff[s], recs[s][1]) for s in applied])
            stats = r.store.sync_versions(summaries.apply(r.store.path, ledger.versions), emb)
        crashpoint("view")
        _save_fold(r, ledger, extra)
        state = {"id": vid, "complete": True, "head": git.head(r.root)}
        r.store.set_meta(r.store.view_name("view"), state)
        _write_snapshot(r, state, emb, missing, known)
        stats["versions"] = ledger.total_versions
        return stats


def _load_fold(r: Repo, extra: str | None):
    """The ledger as last folded by this store's writer, or None.  It is written only after the
    view rows it describes, so it is never ahead of the view; re-applying records to it writes
    the same rows again (idempotent), which is what makes a crash between the two harmless.
    A damaged or foreign file is None too: the caller folds the whole history again."""
    return foldstate.load(r.store, extra)


def _save_fold(r: Repo, ledger, extra: str | None) -> None:
    foldstate.save(r.store, ledger, extra)


PROVISIONAL_MAX = 50  # commits; a bigger catch-up goes the ordinary way


def provisional_snapshot(r: Repo) -> dict:
    return _provisional(r)[0]


def _provisional(r: Repo) -> tuple[dict, tuple | None]:
    """Make new commits answerable before Chroma is even imported.

    Called by a writer, under the store's exclusive lock, before it ingests.  When HEAD is a
    few commits ahead of the folded view (the post-commit case), mine those commits, apply them
    to the saved fold state, patch the current-view snapshot with the versions they open or
    close, and write it for the new HEAD.  A fresh `ask` then answers from it at once, while the
    writer goes on to import chromadb (~1.3 s) and write the same versions to the store of
    record.  The snapshot is a function of the same records the writer then stores, so it
    matches the final one; if the writer dies in between, the next writer stores them.
    Returns the mined records (sha -> (record, recorded_at)) for the writer to reuse, and
    (summaries digest, the patched ledger) for sync_view; ({}, None) when the case does not
    apply.
    """
    import numpy as np

    snap = viewcache.load_any(r.store)
    if snap is None or snap[0].get("missing"):
        return {}, None
    state, rows, matrix = snap
    behind = git.first_parent_distance(r.root, state.get("head"), "HEAD", PROVISIONAL_MAX)
    if not behind:  # None: not on HEAD's line (checkout, reset); 0: nothing new
        return {}, None
    extra = summaries.digest(r.store.path)
    ledger = _load_fold(r, extra)
    if ledger is None or not ledger.applied or state.get("head") != ledger.applied[-1] or \
            state.get("id") != view_id(ledger.applied[-1], ledger.applied + ([extra] if extra else [])):
        return {}, None  # the snapshot and the fold state are not of one view
    chain = git.first_parent_chain(r.root)
    new = chain[-behind:]
    eff = git.effective_times(chain)
    with CommitMiner(r.root) as miner:
        changes = git.changes(r.root, new)
        recs = [miner.mine(c, changes.get(c.sha, [])) for c in new]
    now = int(time.time())
    ledger.dirty = set()
    for rec in recs:
        ledger.apply(rec, eff[rec.sha], now)
    changed = summaries.apply(r.store.path, [v for v in ledger.versions if v.id in ledger.dirty])
    head = new[-1].sha
    applied = ledger.applied  # now with the new commits
    stamp = {"id": view_id(head, applied + ([extra] if extra else [])), "complete": True,
             "head": head, "embedder": state["embedder"], "missing": 0, "provisional": True}
    records = {rec.sha: (rec, now) for rec in recs}
    if not changed and viewcache.restamp(r.store, stamp):
        return records, (extra, ledger)
    emb = get_embedder(state["embedder"])
    keep = {v.id for v in changed}
    kept = [i for i, row in enumerate(rows) if row["id"] not in keep]
    rows = [rows[i] for i in kept]
    opened = [v for v in changed if v.valid_to is None]
    added = emb.embed([version_document(v) for v in opened])
    for v in opened:
        meta = version_meta(v)
        meta["doc_hash"] = short_hash(version_document(v))
        rows.append(version_row(v.id, meta))
    # rows of the old matrix by index, not as Python lists (~0.1 s for a few thousand rows)
    vectors = matrix[kept]
    if opened:
        fresh_vecs = np.asarray(added, dtype=np.float32)
        vectors = np.concatenate([vectors, fresh_vecs]) if kept else fresh_vecs
    viewcache.write(r.store, stamp, rows, vectors)
    return records, (extra, ledger)


def _write_snapshot(r: Repo, state: dict, emb, missing: int, known: dict | None = None) -> None:
    rows, embeddings = r.store.current_rows()
    viewcache.write(r.store, dict(state, embedder=emb.name, missing=missing), rows,
                    embeddings, known)


def ensure_view(r: Repo) -> int:
    """Before a query: rebuild a stale view (after a checkout, say).  Returns the number of
    commits on HEAD's history that are not ingested yet (the caller warns about them)."""
    if r.store.remote is not None:  # readers answer from the published view, never rewrite it
        from repomem.serverview import published

        return published(r)
    require_store(r)
    with r.store.reader():
        current, missing = view_is_current(r)
    if not current:
        sync_view(r)
    return missing


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
