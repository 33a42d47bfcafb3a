"""Re-mine every stored commit with the current miners and secret redactor, then fold the view
again.  Run it after upgrading repomem when ingest says the records were mined by older miners:
a better detector then reaches history already stored (records keep their transaction times).

Example: repomem rebuild --repo path/to/repo"""

from __future__ import annotations

from repomem.cli import common
from repomem.cli.commands import open_repo, print_json

HELP = "re-mine stored history with the current miners and redactor"


def add_arguments(p) -> None:
    common(p, json_flag=True)
    p.add_argument("--quiet", "-q", action="store_true", help="no progress line")


def run(args) -> int:
    from repomem.service.ingest import rebuild

    r = open_repo(args)
    stats = rebuild(r, progress=False if args.quiet or args.json else None)
    if args.json:
        print_json(stats)
    elif not args.quiet:
        extra = (f"; {stats['redacted_only']} no longer in git, redacted again"
                 if stats["redacted_only"] else "")
        print(f"re-mined {stats['remined']} commit(s){extra}; "
              f"{stats['versions']} fact versions in view")
    return 0
