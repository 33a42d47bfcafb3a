"""Mine commits into the ledger.  Idempotent: commits already ingested are skipped.

  repomem ingest --all            the whole first-parent history of HEAD
  repomem ingest HEAD~3 HEAD      exactly those commits (any order; history may come later)"""

from __future__ import annotations

from repomem.cli import common
from repomem.cli.commands import open_repo, print_json
from repomem.core.termsafe import echo

HELP = "ingest commits (--all, or REV...)"


def add_arguments(p) -> None:
    common(p, json_flag=True)
    p.add_argument("--all", action="store_true", help="the whole first-parent history of HEAD")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")
    p.add_argument("revs", nargs="*", metavar="REV", help="commits to ingest")


def run(args) -> int:
    from repomem.service.ingest import ingest

    r = open_repo(args)
    from repomem.service.progress import Progress

    with Progress.for_stderr(args.quiet) as prog:  # on stderr: --json keeps stdout clean
        stats = ingest(r, revs=args.revs, all_history=args.all or not args.revs, progress=prog)
    if args.json:
        print_json(stats)
    elif not args.quiet:
        echo(f"ingested {stats['new']} new commit(s); {stats['versions']} fact versions in view")
    return 0
