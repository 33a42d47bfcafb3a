"""Shallow clones: a boundary commit mined as a root is mined again once its parents arrive.

In a shallow clone the boundary commits (listed in ``shallow``) have no parent as far as
``git log`` can tell, so they are mined as roots: every file added, nothing deleted.  The store
lists the ones it recorded so in its ``grafted`` meta entry; when git no longer lists one as
shallow (``git fetch --unshallow``, ``--deepen``), the next ingest mines it again against its
real parent and replaces its record, so the ledger equals a fresh ingest of the full history.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

from repomem.adapters import git
from repomem.miners.mining import CommitMiner

log = logging.getLogger("repomem")
META = "grafted"


def note(store, root: Path, infos: list[git.CommitInfo]) -> None:
    """Record which of these commits were mined as grafted roots."""
    grafted = git.shallow_commits(root)
    if not grafted:
        return
    have = set(store.get_meta(META) or [])
    mined = store.ingested()
    now = have | {c.sha for c in infos if c.sha in grafted and c.parent is None and c.sha in mined}
    if now != have:
        store.set_meta(META, sorted(now))


def remine(store, root: Path, have: set[str]) -> int:
    """Re-mine recorded boundary commits whose real parents are now present; returns how many."""
    grafted = set(store.get_meta(META) or [])
    if not grafted:
        return 0
    still = git.shallow_commits(root)
    done = sorted(s for s in grafted - still if s in have)
    try:
        infos = [c for c in git.commit_infos(root, done) if c.parent is not None]
    except git.GitError as e:  # a boundary commit that is gone (a rewrite, gc): nothing to redo
        log.info("cannot re-mine former shallow boundaries: %s", e)
        infos = []
    if infos:
        with CommitMiner(root) as miner:
            changes = git.changes(root, infos)
            recs = [miner.mine(c, changes.get(c.sha, [])) for c in infos]
        store.replace_records(recs, int(time.time()))
        log.info("re-mined %d former shallow boundary commit(s) against their parents", len(recs))
    left = grafted & still
    if left != grafted:
        store.set_meta(META, sorted(left))
    return len(infos)
