"""Run the watcher in the background, one per store (pid and log files in the store folder).

  repomem daemon start     returns once the daemon is watching
  repomem daemon status
  repomem daemon stop"""

from __future__ import annotations

from repomem.cli import common
from repomem.cli.commands import open_repo
from repomem.core.termsafe import echo

HELP = "start, stop or inspect the background watcher"


def add_arguments(p) -> None:
    p.add_argument("action", choices=["start", "stop", "status"])
    common(p)


def run(args) -> int:
    from repomem.integrations import daemon

    r = open_repo(args)
    store = r.store.path
    if args.action == "start":
        pid: int | None = daemon.start(r.root, store)
        echo(f"daemon {pid} watching {r.root} (log: {daemon.log_file(store)})")
    elif args.action == "stop":
        pid = daemon.stop(store)
        echo(f"stopped daemon {pid}" if pid else "no daemon running")
    else:
        pid = daemon.running(store)
        echo(f"daemon {pid} running (log: {daemon.log_file(store)})" if pid else "not running")
        return 0 if pid else 1
    return 0
