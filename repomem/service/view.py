"""View materialisation: the fold of the ingested records on HEAD's first-parent chain -> the
Chroma view and the current-view snapshot.

The view is keyed by a digest of (HEAD, the records applied), so it is rebuilt exactly when
either changes: a new commit, a backfilled old commit, a checkout, a reset or a rebase.
Commits that are no longer reachable keep their records (nothing is deleted) but stop
contributing to the view.  Readers call ``ensure_view`` before a query: it folds stored records
again after a checkout, and for a store on a Chroma server it brings the local snapshot to the
published view (``published``).
"""

from __future__ import annotations

import time

from repomem.adapters import git
from repomem.adapters.embed import embed_matrix, get_embedder
from repomem.core.crashpoint import crashpoint
from repomem.core.errors import RepomemError
from repomem.core.ledger import Ledger, fold
from repomem.core.model import short_hash
from repomem.core.records import TREE, tree_head, tree_name
from repomem.service import ports, summaries, viewcache
from repomem.service.repo import Repo, _embedder, check_intact, require_store
from repomem.storage import atomic, foldstate
from repomem.storage.store import FOREVER, version_document, version_meta, version_row


def view_id(head: str | None, applied: list[str]) -> str:
    return short_hash(head or "", *applied, n=20)


def _target(r: Repo) -> tuple[list[str], dict[str, int], str, int, str | None]:
    """(records to fold in order, their valid times, the view id, HEAD commits not ingested,
    HEAD as read for all of these)."""
    chain = git.first_parent_chain(r.root)
    have = r.store.ingested()
    base = tree_base(r, chain, have)
    if base is None:
        applied = [c.sha for c in chain if c.sha in have]
        missing = len(chain) - len(applied)
    else:  # the tree view while its history is indexed: the tree, then the commits after it
        after = chain[base + 1:]
        applied = [tree_name(chain[base].sha)] + [c.sha for c in after if c.sha in have]
        missing = len(after) + 1 - len(applied)
    # Cached LLM summaries change purpose texts, so they are part of what the view is built from.
    extra = summaries.digest(r.store.path)
    head = chain[-1].sha if chain else None
    vid = view_id(head, applied + ([extra] if extra else []))
    return applied, git.effective_times(chain), vid, missing, head


def tree_base(r: Repo, chain: list[git.CommitInfo], have: set[str]) -> int | None:
    """The index in CHAIN of the commit whose tree the view starts from (``repomem init``
    indexes the checked-out tree first, service/current.py) while the history up to it is not
    all ingested yet; None when the view is the history's fold (no tree view, the history has
    caught up, or HEAD is not on the tree's line any more)."""
    tree = r.store.get_meta("tree")
    if not tree:
        return None
    pos = next((i for i, c in enumerate(chain) if c.sha == tree.get("head")), None)
    if pos is None or all(c.sha in have for c in chain[:pos + 1]):
        return None
    return pos


def view_is_current(r: Repo) -> tuple[bool, int]:
    """(whether the view matches HEAD and the ingested records, commits on HEAD not ingested)."""
    _, _, vid, missing, _ = _target(r)
    state = r.store.get_meta(r.store.view_name("view")) or {}
    return state.get("id") == vid and state.get("complete", False), missing


def _records(r: Repo, shas: list[str], fresh: dict | None) -> dict:
    fresh = fresh or {}
    out = r.store.load_records([s for s in shas if s not in fresh])
    out.update((s, fresh[s]) for s in shas if s in fresh)
    return out


def sync_view(r: Repo, emb=None, fresh: dict | None = None, folded: Ledger | None = None,
              patched: tuple | None = None, written: set[str] | None = None,
              keep_snapshot: bool = False) -> dict:
    """FOLDED: a ledger the caller folded from nothing, used when it applied exactly the records
    the view is the fold of (a first ingest folds batch by batch while workers mine).
    WRITTEN: ids of FOLDED's closed versions the caller wrote to Chroma meanwhile (``EarlyRows``).
    PATCHED: (summaries digest, ledger): the saved fold state as this writer loaded it, with
    records applied on top and ``dirty`` saying what they changed (the provisional snapshot's
    work, not done twice).  KEEP_SNAPSHOT: the snapshot's current facts are this view's too
    (a tree view the history's fold replaces): it answers until the new one is written."""
    with r.store.writer():
        emb = emb or _embedder(r, False)
        applied, eff, vid, missing, head = _target(r)
        state = r.store.get_meta(r.store.view_name("view")) or {}
        if state.get("id") == vid and state.get("complete"):
            if not viewcache.exists(r.store, state.get("head")):
                _write_snapshot(r, state, emb, missing)
            return {"versions": r.store.count_versions(), "added": 0, "updated": 0, "dropped": 0}
        # Marked incomplete first: a crash mid-sync leaves a view that the next run redoes.
        known = viewcache.known_docs(r.store)  # its tokens serve the next snapshot's index
        if viewcache.state(r.store).get("id") != vid and not keep_snapshot:
            viewcache.invalidate(r.store)
        # (else it is this view already, the post-commit snapshot: questions asked while Chroma
        # is written are answered from it, not from Chroma after the writer's lock is released)
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
            rows_written = None
            if folded is not None and folded.applied == applied:
                ledger, rows_written = folded, written
            elif tree_head(applied) is not None:  # the tree view
                ledger = _load_fold(r, extra)
                if ledger is None or ledger.closed_before or \
                        applied[:len(ledger.applied)] != ledger.applied:
                    # its fold state is lost (or of another view): mine the tree again
                    ledger = ports.mining().tree(r.root, git.first_parent_chain(
                        r.root, tree_head(applied) or "HEAD"))
                new = applied[len(ledger.applied):]
                recs = _records(r, new, fresh)
                for s in new:
                    ledger.apply(recs[s][0], eff[s], recs[s][1])
            else:
                recs = _records(r, applied, fresh)
                ledger = fold([(recs[s][0], eff[s], recs[s][1]) for s in applied])
            stats = r.store.sync_versions(summaries.apply(r.store.path, ledger.versions), emb,
                                          known=rows_written)
        crashpoint("view")
        _save_fold(r, ledger, extra)
        # HEAD as the view id has it: a commit that landed meanwhile is not in this view (its
        # hook or the daemon's next batch brings it), so the state must not name it
        # the head's valid time: the next provisional snapshot dates new commits from it
        state = {"id": vid, "complete": True, "head": head, "head_time": eff.get(head or "")}
        r.store.set_meta(r.store.view_name("view"), state)
        _write_snapshot(r, state, emb, missing, known, ledger)
        stats["versions"] = ledger.total_versions
        return stats


def coverage(r: Repo) -> dict | None:
    """While a tree view's history is indexed: {"reached": the valid time of the last commit
    of the indexed part of the history (None: nothing yet), "whole_before": the valid time of
    the first commit not indexed, "tree": the tree's commit's valid time}.  An as-of question
    at or after "tree" is answered by the tree view, before "whole_before" by the history
    indexed so far, in between by nothing yet.  None when the view is a whole history's fold."""
    chain = git.first_parent_chain(r.root)
    have = r.store.ingested()
    pos = tree_base(r, chain, have)
    if pos is None:
        return None
    eff = git.effective_times(chain)
    reached = gap = None
    for c in chain[:pos + 1]:
        if c.sha not in have:
            gap = c  # the first commit not indexed: the history is whole before its time
            break
        reached = c
    return {"reached": eff[reached.sha] if reached else None, "tree": eff[chain[pos].sha],
            "whole_before": eff[gap.sha] if gap else eff[chain[pos].sha]}


def history_rows(r: Repo, t: int) -> tuple[list[dict], list]:
    """The versions valid at t folded from the stored history up to t (an as-of question during
    a backfill, at a time the history has reached), with their embeddings: as
    ``Store.valid_rows`` gives them from a whole history's view."""
    chain = [c for c in git.first_parent_chain(r.root)]
    eff = git.effective_times(chain)
    shas = [c.sha for c in chain if eff[c.sha] <= t]
    with r.store.reader():
        emb = get_embedder(r.store.get_meta("embedder"))
        recs = r.store.load_records(shas)
    ledger = fold([(recs[s][0], eff[s], recs[s][1]) for s in shas if s in recs])
    versions = [v for v in ledger.versions if v.valid_at(t)]
    versions = summaries.apply(r.store.path, versions)
    rows = [version_row(v.id, dict(version_meta(v), doc_hash="")) for v in versions]
    return rows, emb.embed([version_document(v) for v in versions]) if versions else []


def tree_snapshot(r: Repo, ledger: Ledger, emb) -> dict:
    """Make a tree view (service/current.py) answerable without Chroma: save it as the fold
    state and write the current-view snapshot from it, for the view id ``_target`` gives while
    the history is indexed.  The Chroma view is written by the next writer (the backfill's
    first step, or a reader's ``ensure_view``), from this fold state.  Under the writer lock."""
    applied, eff, vid, missing, head = _target(r)
    if applied != ledger.applied:
        raise RepomemError("HEAD moved while its tree was indexed",
                           hint="run 'repomem init' again")
    extra = summaries.digest(r.store.path)
    _save_fold(r, ledger, extra)
    versions = summaries.apply(r.store.path, list(ledger.open.values()))
    docs = [version_document(v) for v in versions]
    rows = []
    for v, doc in zip(versions, docs):
        meta = version_meta(v)
        meta["doc_hash"] = short_hash(doc)
        rows.append(version_row(v.id, meta))
    vectors = embed_matrix(emb, docs)
    state = {"id": vid, "complete": True, "head": head, "head_time": eff.get(head or ""),
             "embedder": emb.name, "missing": missing}
    viewcache.write(r.store, state, rows, vectors)
    return {"versions": len(versions)}


class EarlyRows:
    """A first ingest writes the versions its fold has closed to Chroma between batches, while
    the workers mine the next ones, instead of all of them after the last batch (then only this
    process runs: on express ~2.5 s of embedding and upserts with one core idle).  A closed
    version never changes again, so its row is final; the view stays marked incomplete until
    ``sync_view`` has written the rest, so a crash in between leaves a view the next run redoes."""

    MIN_ROWS = 250  # fewer, larger upserts

    def __init__(self, r: Repo, ledger: Ledger, emb):
        self.r, self.ledger, self.emb = r, ledger, emb
        self.seen = 0  # versions of the ledger looked at
        self.pending: list = []  # versions still open when last looked at
        self.written: set[str] = set()

    def write(self) -> None:
        self.pending += self.ledger.versions[self.seen:]
        self.seen = len(self.ledger.versions)
        closed = [v for v in self.pending if v.valid_to is not None]
        if len(closed) < self.MIN_ROWS:
            return
        self.pending = [v for v in self.pending if v.valid_to is None]
        if not self.written:
            view = self.r.store.view_name("view")
            if (self.r.store.get_meta(view) or {}).get("complete"):
                self.r.store.set_meta(view, {"id": "", "complete": False})
        self.r.store.put_versions(summaries.apply(self.r.store.path, closed), self.emb)
        self.written.update(v.id for v in closed)


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
    last = ledger.applied[-1].removeprefix(TREE) if ledger is not None and \
        ledger.applied else None  # a tree view's head is its tree's commit
    if ledger is None or not ledger.applied or state.get("head") != last or \
            state.get("id") != view_id(last, ledger.applied + ([extra] if extra else [])):
        return {}, None  # the snapshot and the fold state are not of one view
    if isinstance(state.get("head_time"), int):  # the new commits only, not the whole history
        new = git.first_parent_chain(r.root, limit=behind)
        eff = git.effective_times(new, after=state["head_time"])
    else:  # a snapshot of an older repomem: no valid time of its head
        chain = git.first_parent_chain(r.root)
        new = chain[-behind:]
        eff = git.effective_times(chain)
    if not new or new[0].parent != state.get("head"):
        return {}, None  # HEAD moved since it was measured: the ordinary path
    recs = ports.mining().commits(r.root, new)
    now = int(time.time())
    ledger.dirty = set()
    for rec in recs:
        ledger.apply(rec, eff[rec.sha], now)
    changed = summaries.apply(r.store.path, [v for v in ledger.versions if v.id in ledger.dirty])
    head = new[-1].sha
    applied = ledger.applied  # now with the new commits
    stamp = {"id": view_id(head, applied + ([extra] if extra else [])), "complete": True,
             "head": head, "head_time": eff[head], "embedder": state["embedder"], "missing": 0,
             "provisional": True}
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
    old = viewcache.load_removed(r.store)
    removed = None if old is None else viewcache.patch_removed(
        old, [version_row(v.id, version_meta(v)) for v in changed if v.valid_to is not None],
        {row["key"] for row in rows})
    viewcache.write(r.store, stamp, rows, vectors, removed=removed)
    return records, (extra, ledger)


def _write_snapshot(r: Repo, state: dict, emb, missing: int, known: dict | None = None,
                    ledger: Ledger | None = None) -> None:
    """LEDGER: the fold the view was just written from, when the caller has it."""
    rows, embeddings = r.store.current_rows()
    # the removed facts too: a question naming one is then answered without the store of record
    live = {row["key"] for row in rows}
    if ledger is not None and not ledger.closed_before:  # every closed version is in memory
        closed = _removed_versions(r, ledger, live)
    else:
        closed = r.store.rows({"valid_to": {"$lt": FOREVER}})
    removed = viewcache.removed_rows(closed, live)
    viewcache.write(r.store, dict(state, embedder=emb.name, missing=missing), rows,
                    embeddings, known, removed=removed)


def _removed_versions(r: Repo, ledger: Ledger, live: set[str]) -> list[dict]:
    """Each removed key's last closed version in LEDGER (the one ``viewcache.removed_rows``
    keeps), as the store's row of it: reading every closed row back from the store only to keep
    these cost ~0.3 s on uvicorn's history."""
    last: dict = {}
    for v in ledger.versions:
        if v.valid_to is not None and v.key not in live and \
                v.valid_to >= last.get(v.key, v).valid_to:
            last[v.key] = v
    rows = []
    for v in summaries.apply(r.store.path, list(last.values())):
        meta = version_meta(v)
        meta["doc_hash"] = short_hash(version_document(v))
        rows.append(version_row(v.id, meta))
    return rows


def ensure_view(r: Repo) -> int:
    """Before a query: rebuild a stale view (after a checkout, say).  Returns the number of
    commits on HEAD's history that are not ingested yet (the caller warns about them)."""
    if r.store.remote is not None:  # readers answer from the published view, never rewrite it
        return published(r)
    require_store(r)
    check_intact(r)
    with r.store.reader():
        is_current, missing = view_is_current(r)
    if not is_current:
        sync_view(r)
    return missing


# -- a reader of a Chroma server (repomem/storage/remote.py, docs/server.md) -----------------------
def published(r) -> int:
    """A reader's check before a query on the server: something is published for this
    repository; the local snapshot is brought to it (and to the branch's own commits).
    Returns the commits of HEAD's first-parent history the server lacks (the caller warns about
    them, as about unindexed commits in the embedded store)."""
    state = r.store.get_meta(r.store.view_name("view")) or {}
    if not isinstance(state, dict) or not isinstance(state.get("id"), str) and state:
        from repomem.storage.rowcheck import bad_row

        rem = r.store.remote
        raise bad_row(rem, f"{rem.prefix}_meta", r.store.view_name("view"), "not a view state")
    if not state.get("complete"):
        raise RepomemError(f"nothing published for {r.store.remote.name} on "
                           f"{r.store.remote.url} yet",
                           hint="run 'repomem publish' (in CI, on the default branch)")
    from repomem.service.servercheck import check_identity, check_view

    check_identity(r, publishing=False)
    check_view(r, state)
    _refresh_snapshot(r, state)
    have = r.store.ingested()
    return sum(1 for c in git.first_parent_chain(r.root) if c.sha not in have)


def _refresh_snapshot(r, state: dict) -> None:
    """The snapshot (a local cache) of the server's view, patched with HEAD's own commits when
    HEAD is a few first-parent commits past the published head (a branch's view: the default
    branch's ledger plus the branch's commits, folded locally and never published from here).
    Rewritten only when the server's view or HEAD moved."""
    from repomem.service.servercheck import view_mark

    base = r.store.path / "server-view"
    head = git.head(r.root)
    snap = viewcache.load_any(r.store)
    try:
        seen = base.read_text()
    except OSError:
        seen = None
    if seen == view_mark(state) and snap is not None and snap[0].get("head") == head:
        return
    with r.store.writer():  # the local lock: one process writes the cache at a time
        emb = get_embedder(r.store.get_meta("embedder"))
        _write_snapshot(r, state, emb, 0)
        if head != state.get("head"):
            provisional_snapshot(r)  # records it mines stay local: readers never publish
        atomic.write_text(base, view_mark(state))
