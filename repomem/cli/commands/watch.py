"""Watch the work tree and git refs in the foreground: new commits are ingested whatever made
them (pull, merge, rebase, another tool), and edits not yet committed are kept as an
uncommitted overlay that 'repomem context' shows, flagged.  Ctrl-C stops.

Example: repomem watch --repo path/to/repo      (or run it in the background: repomem daemon start)"""

from __future__ import annotations

import signal
import sys

from repomem.cli import common
from repomem.cli.commands import open_repo
from repomem.core.termsafe import echo

HELP = "keep the index and the uncommitted overlay fresh (foreground)"


def add_arguments(p) -> None:
    common(p)
    p.add_argument("--delay", type=float, default=0.3, metavar="SECONDS",
                   help="quiet time before a burst of changes is handled (default 0.3)")


def run(args) -> int:
    from repomem.integrations import answerer, daemon, worker
    from repomem.integrations.watch import Watcher
    from repomem.service.repo import require_store

    r = open_repo(args)
    require_store(r)
    lock = daemon.acquire(r.store.path)  # one watcher per store, held until we exit
    # the agent hook's warm answerer lives as long as the watcher (see answerer.py)
    warm = answerer.serve_in_thread(r.store.path) if answerer.enabled() else None
    w = Watcher(r, delay=args.delay)
    signal.signal(signal.SIGTERM, lambda *_: w.stop())
    signal.signal(signal.SIGINT, lambda *_: w.stop())

    def ready():
        daemon.announce(lock)
        echo(f"repomem: watching {r.root}", file=sys.stderr, flush=True)

    try:
        w.run(ready=ready)
    finally:
        if warm is not None:
            warm.close()
        daemon.release(lock)
        # A hook whose worker saw our lock still held left its request to us: serve it now
        # (after the release, so a later hook starts its own worker instead).
        if worker.pending_file(r.store.path).exists():
            worker.run(r.root, r.store.path, request=False)
    return 0
