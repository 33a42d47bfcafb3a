"""Publishing to a Chroma server (``repomem publish``, and the hooks' worker on the default
branch): the name's identity first, then the commits the server lacks, then the view checked
against the fold and repaired (docs/server.md)."""

from __future__ import annotations

from repomem.service.servercheck import check_identity


def publish(r, create: bool = True) -> dict:
    """Publish HEAD's first-parent history (``repomem publish``, the hooks' worker on the
    default branch): identity first, then the commits the server lacks, then the view checked
    against the fold and repaired when a row is invalid, missing or extra (the view is not
    trusted to exist: anyone with the token can delete it)."""
    import logging

    from repomem.service.ingest import ingest
    from repomem.storage.rowcheck import BadRow

    check_identity(r, publishing=True)
    try:
        stats = ingest(r, all_history=True, create=create, progress=False)
    except BadRow as e:  # the view as it is cannot be read: it is rebuilt below
        logging.getLogger("repomem").warning("%s: rebuilding the view", e)
        stats = None
    problem = _verify(r, force=stats is None)
    if stats is None:
        stats = ingest(r, all_history=True, create=create, progress=False)
    if problem is not None:  # what the view holds now, not what ingest found before
        with r.store.reader():
            stats["versions"] = r.store.count_versions()
    stats["repaired"] = problem
    return stats


def _verify(r, force: bool) -> str | None:
    """The published view against what the fold says it must hold: every row valid, as many
    rows as versions.  A mismatch refolds the records and rewrites what differs; the state then
    gets a new mark, so readers' cached snapshots of the broken view are refreshed."""
    import time

    from repomem.service import summaries
    from repomem.service.repo import _embedder
    from repomem.service.view import sync_view
    from repomem.storage import foldstate
    from repomem.storage.rowcheck import BadRow

    view = r.store.view_name("view")
    name = f"{r.store.prefix}_{r.store.view_name('versions')}"
    with r.store.writer():
        state = r.store.get_meta(view) or {}
        problem = "the view could not be read" if force else None
        if problem is None:
            try:
                have = r.store.check_versions()  # every row read, and checked
            except BadRow as e:
                problem = str(e)
            else:
                ledger = foldstate.load(r.store, summaries.digest(r.store.path))
                want = ledger.total_versions if ledger is not None else state.get("rows")
                if isinstance(want, int) and have != want:
                    problem = f"{name} held {have} of {want} fact versions"
        if problem is None and isinstance(state.get("rows"), int):
            return None
        if problem is not None:
            r.store.set_meta(view, {})  # not complete: sync_view folds every record again
        sync_view(r, _embedder(r, False))
        state = r.store.get_meta(view) or {}
        mark = time.time_ns() if problem is not None else state.get("repaired")
        r.store.set_meta(view, dict(state, rows=r.store.count_versions(), repaired=mark))
    return problem
