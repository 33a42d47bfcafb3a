"""Supersessions and removals since a date or commit, oldest first: what an agent returning
to the repository must unlearn."""

from __future__ import annotations

from repomem.cli import common
from repomem.cli.commands import open_repo, print_json
from repomem.core.termsafe import echo

HELP = "what changed (superseded or removed) since WHEN"


def add_arguments(p) -> None:
    common(p, json_flag=True)
    p.add_argument("--since", required=True, metavar="WHEN",
                   help="ISO 8601 date or datetime, or a git revision")


def run(args) -> int:
    from repomem.service.query import changes

    r = open_repo(args)
    result = changes(r, args.since)
    if args.json:
        print_json(result)
        return 0
    for c in result["changes"]:
        to = f" -> {c['to_value']}" if c["change"] == "superseded" else " (removed)"
        if c["change"] == "superseded" and c["to_value"] == c["from_value"]:
            to = " (" + ", ".join(f"{k}: {a} -> {b}" for k, (a, b) in
                                  c.get("attrs_changed", {}).items()) + ")"
        echo(f"{c['at']}  {c['subject']}: {c['from_value']}{to}  [{c['commit'][:10]}]")
    if not result["changes"]:
        echo(f"nothing superseded or removed since {result['since']}")
    return 0
