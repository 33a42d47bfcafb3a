"""Answer a question with the facts valid now (or at --as-of, or at a date the question names:
"on 2024-01-02", "as of 2024-01-02T12:00:00Z", "in 2019" for its last day), best first, with
provenance.

Example: repomem ask "what port does the payment service listen on?" --json
         repomem ask "session timeout" --as-of 2026-01-15

Each `repomem ask` is a new process that starts Python and numpy first (~0.2 s of CPU); at
most one per core runs at a time, the others wait their turn.  Agents should ask through the
MCP server (`repomem mcp`) or the prompt hook, which stay warm."""

from __future__ import annotations

import sys

from repomem.cli import common
from repomem.cli.commands import open_repo, print_json
from repomem.core.termsafe import echo

HELP = "answer a question from the current facts"


def add_arguments(p) -> None:
    common(p, json_flag=True)
    p.add_argument("question")
    p.add_argument("--as-of", default=None, metavar="WHEN",
                   help="ISO 8601 date or datetime, or a git revision")
    p.add_argument("-k", type=int, default=5, metavar="N", help="how many facts (default 5)")
    p.add_argument("--llm", default=None, metavar="ollama:MODEL",
                   help="have a local Ollama model write the answer from these facts only")


def run(args) -> int:
    out, err, status = answer(args)
    sys.stderr.write(err)
    sys.stdout.write(out)
    return status


def answer(args) -> tuple[str, str, int]:
    """(what the command prints on stdout, on stderr, its exit status): computed here or, the
    same, by the store's warm answerer (repomem/integrations/answerer.py, ``cli_answer``)."""
    import io

    from repomem.core.render import MARKER
    from repomem.service.query import ask, asked
    from repomem.service.render import answer_lines, lineage_line

    out, err = io.StringIO(), io.StringIO()
    when = asked(args.question, args.as_of)
    r = open_repo(args)
    if args.llm:
        from repomem.adapters.ollama_client import parse_llm
        from repomem.service.agents import llm_answer

        result = llm_answer(r, args.question, parse_llm(args.llm), when, max(1, args.k))
    else:
        result = ask(r, args.question, when, max(1, args.k))
    if result.pop("unindexed_commits", 0):
        echo("repomem: note: HEAD has commits that are not indexed yet; run 'repomem ingest'",
             file=err)
    if args.json:
        print_json(result, out)
        return out.getvalue(), err.getvalue(), 0
    if result.get("complete") is False:  # mid-backfill: the history has not reached that date
        echo(f"not answered: the history is indexed up to {result['history_indexed_to'] or 'no date yet'},"
             f" before {result['as_of']}; 'repomem status' shows how far it is", file=out)
        return out.getvalue(), err.getvalue(), 0
    if not result["facts"] and not result.get("lineage"):
        echo("no fact matches this question", file=out)
        return out.getvalue(), err.getvalue(), 0
    if result["facts"] and args.as_of is None and when is not None:  # the question named the time
        echo(f"as of {result['as_of']}", file=out)
    # Every line is repomem's own words, with the repository's text in code spans only; the
    # last one says so.
    for note in result.get("lineage", ()):
        echo(lineage_line(note), file=out)
    if not result["facts"]:
        echo(MARKER, file=out)
        return out.getvalue(), err.getvalue(), 0
    if result.get("llm_answer"):
        echo(result["llm_answer"], keep="\n", file=out)  # the model's own paragraphs
        echo("\nfrom these facts:", keep="\n", file=out)
    for i, f in enumerate(result["facts"]):
        for line in answer_lines(f, i == 0):
            echo(line, file=out)
    echo(MARKER, file=out)
    return out.getvalue(), err.getvalue(), 0
