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

import logging
import time

from repomem.adapters import git
from repomem.core.ledger import Ledger
from repomem.core.records import CommitRecord, tree_name
from repomem.miners import wants
from repomem.miners.mining import CommitMiner, mine_batch, worker_pool

log = logging.getLogger("repomem")
PARALLEL_FILES = 150  # fewer files are mined in this process: starting workers costs more


def mine_tree(root, head: git.CommitInfo, workers: int = 1, progress=None) -> CommitRecord:
    """One record holding the facts of every file of HEAD's tree (each file mined once)."""
    files = [(p, b) for p, b in git.tree_files(root, head.sha) if wants(p)]
    info = git.CommitInfo(head.sha, None, head.ct)
    changes = [git.Change(p, None, b) for p, b in files]
    rec = CommitRecord(tree_name(head.sha), None, head.ct)
    if workers > 1 and len(changes) >= PARALLEL_FILES:
        sizes = git.blob_sizes(root, [b for _, b in files])
        # the largest first, dealt round-robin: chunks of about equal work
        order = sorted(changes, key=lambda ch: -sizes.get(ch.new_blob or "", 0))
        chunks = [sorted(order[i::workers * 4], key=lambda ch: ch.path)
                  for i in range(workers * 4)]
        pool = worker_pool(root, workers)
        try:
            futures = [pool.submit(mine_batch, [info], {head.sha: chunk})
                       for chunk in chunks if chunk]
            for fut, chunk in zip(futures, [c for c in chunks if c]):
                part = fut.result()[0]
                rec.files.update(part.files)
                rec.skipped += part.skipped
                if progress is not None:
                    progress.advance(len(chunk))
        finally:
            pool.shutdown(wait=False, cancel_futures=True)
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


def tree_ledger(root, chain: list[git.CommitInfo], workers: int = 1,
                progress=None) -> Ledger:
    """The ledger of HEAD's tree (chain: HEAD's first-parent history, oldest first), each
    version dated by the last commit that touched its file."""
    head = chain[-1]
    rec = mine_tree(root, head, workers, progress)
    eff = git.effective_times(chain)
    touched = git.last_touches(root, set(rec.files), head.sha)
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
