"""List every fact valid now (or at --as-of), optionally of one kind."""

from __future__ import annotations

from repomem.cli import common
from repomem.cli.commands import open_repo, print_json
from repomem.core.model import KINDS
from repomem.core.termsafe import echo

HELP = "list the facts valid at a time"


def add_arguments(p) -> None:
    common(p, json_flag=True)
    p.add_argument("--tx", action="store_true",
                   help="include transaction time (recorded_at: when each commit was ingested)")
    p.add_argument("--as-of", default=None, metavar="WHEN")
    p.add_argument("--kind", choices=KINDS, default=None)


def run(args) -> int:
    from repomem.service.query import facts

    r = open_repo(args)
    result = facts(r, args.as_of, args.kind, tx=args.tx)
    if args.json:
        print_json(result)
        return 0
    if result.get("complete") is False:  # mid-backfill: the history has not reached that date
        echo(f"not answered: the history is indexed up to "
             f"{result['history_indexed_to'] or 'no date yet'}, before {result['as_of']}; "
             "'repomem status' shows how far it is")
    for f in result["facts"]:
        echo(f"{f['kind']:<10} {f['subject']}: {f['value']}   ({f['path']}:{f['line']})")
    return 0
