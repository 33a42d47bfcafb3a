"""The tree-first view's current facts against the full history's, on real histories.

``repomem init`` answers from the facts of HEAD's tree first (repomem/service/current.py) and
replaces them with the history's fold once the backfill is done.  This folds both and prints,
per repository, how many current facts each has and how many differ (as a user sees a fact:
kind, subject, value, path, line).

  python -m bench tree-vs-history [NAME ...]   (default: every training history)
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

TRAINING = ["click", "httpx", "microblog", "bakerydemo", "express", "node-express-realworld",
            "uvicorn", "typer", "golang-gin-realworld-example-app", "mini-redis", "gs-rest-service"]
BUNDLES = Path(__file__).resolve().parents[1].parent.parent / "shared" / "realrepos"


def main(names: list[str]) -> int:
    from repomem.adapters import git
    from repomem.core.ledger import fold
    from repomem.service import current
    from repomem.service.pipeline import mine_batches, workers_for

    bundles = BUNDLES if BUNDLES.is_dir() else Path("/work/shared/realrepos")
    if not bundles.is_dir():
        print(f"skipped: {bundles} is absent")
        return 0
    bad = 0
    for name in names or TRAINING:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / name
            subprocess.run(["git", "clone", "-q", str(bundles / f"{name}.bundle"), str(root)],
                           check=True)
            chain = git.first_parent_chain(root)
            t0 = time.perf_counter()
            tree = current.tree_ledger(root, chain, workers=2)
            t1 = time.perf_counter()
            eff = git.effective_times(chain)
            batches = [chain[i:i + 200] for i in range(0, len(chain), 200)]
            recs = [rec for b in mine_batches(root, batches, workers_for(len(chain))) for rec in b]
            hist = fold([(rec, eff[rec.sha], 0) for rec in recs])
            t2 = time.perf_counter()
            only_tree, only_hist = current.same_facts(tree, hist)
            same = not only_tree and not only_hist
            bad += not same
            print(f"{name:35} commits {len(chain):5}  current facts tree {len(tree.open):5} "
                  f"history {len(hist.open):5}  differ {len(only_tree) + len(only_hist):3}  "
                  f"{'same' if same else 'DIFFERENT'}  (tree {t1 - t0:.1f} s, history "
                  f"{t2 - t1:.1f} s)", flush=True)
            for x in sorted(only_tree)[:5]:
                print("   only tree:   ", x)
            for x in sorted(only_hist)[:5]:
                print("   only history:", x)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
