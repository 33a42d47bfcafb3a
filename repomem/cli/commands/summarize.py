"""Have a local Ollama model write one-line purpose summaries for current functions that have
no docstring.  Cached in the store directory by (model, function body hash), so each body is
summarised once; run it again after new commits to cover new or changed functions.

Example: repomem summarize --llm ollama:llama3.2"""

from __future__ import annotations

from repomem.cli import common
from repomem.cli.commands import open_repo, print_json
from repomem.core.termsafe import echo

HELP = "LLM purpose summaries for undocumented functions (Ollama, cached)"


def add_arguments(p) -> None:
    common(p, json_flag=True)
    p.add_argument("--llm", required=True, metavar="ollama:MODEL")
    p.add_argument("--limit", type=int, default=None, metavar="N",
                   help="summarise at most N new function bodies this run")


def run(args) -> int:
    from repomem.adapters.ollama_client import parse_llm
    from repomem.service.summarizer import summarize

    model = parse_llm(args.llm)
    stats = summarize(open_repo(args), model, args.limit)
    if args.json:
        print_json(stats)
    else:
        echo(f"{stats['undocumented']} of {stats['functions']} current functions have no "
             f"docstring: {stats['summarised']} summarised now, {stats['cached']} from cache")
    return 0
