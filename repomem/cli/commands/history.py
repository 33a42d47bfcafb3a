"""All versions of one key, oldest first, with validity and how each ended.

KEY is a key from 'repomem facts --json' or 'ask --json'; a current function name, a method's
qualified name (Context.invoke, res.send) or a fact's subject is accepted too when it names
exactly one key, and so is a name that an earlier version bore (a function's name before a
rename).  Words that name no key ("minimum python version") are asked like a question and
the history of the best answer's key is shown, saying so."""

from __future__ import annotations

from repomem.cli import common
from repomem.cli.commands import open_repo, print_json
from repomem.core.termsafe import echo

HELP = "show every version of a key"


def add_arguments(p) -> None:
    common(p, json_flag=True)
    p.add_argument("--tx", action="store_true",
                   help="include transaction time (recorded_at: when each commit was ingested)")
    p.add_argument("key")


def run(args) -> int:
    from repomem.service.query import history

    r = open_repo(args)
    result = history(r, args.key, tx=args.tx)
    if args.json:
        print_json(result)
        return 0
    if result.get("answering"):
        echo(f"no key is named {result['answering']!r}; the history of its best answer:")
    echo(result["key"])
    if result.get("complete") is False:
        echo(f"  (the history is indexed up to {result['history_indexed_to'] or 'no date yet'} "
             "only: earlier versions may be missing; 'repomem status' shows how far it is)")
    for v in result["versions"]:
        end = v["valid_to"] or "now"
        why = f" ({v['end_reason']})" if v["end_reason"] else ""
        echo(f"  {v['valid_from']} .. {end}{why}  {v['value']}  "
             f"[{v['commit'][:10]} {v['path']}:{v['line']}]")
    return 0
