"""Print a Markdown block of current facts for an agent's prompt, within a token budget.

Example: repomem context "how do I call the user lookup endpoint?" --budget 300"""

from __future__ import annotations

import sys

from repomem.cli import common
from repomem.cli.commands import open_repo
from repomem.core.termsafe import safe

HELP = "a Markdown context block for an agent's prompt"


def add_arguments(p) -> None:
    common(p)
    p.add_argument("question")
    p.add_argument("--budget", type=int, default=400, metavar="TOKENS")


def run(args) -> int:
    out, err, status = answer(args)
    sys.stderr.write(err)
    sys.stdout.write(out)
    return status


def answer(args) -> tuple[str, str, int]:
    """(stdout, stderr, exit status) of the command: computed here or, the same, by the store's
    warm answerer (repomem/integrations/answerer.py, ``cli_answer``)."""
    from repomem.core.errors import RepomemError
    from repomem.service.agents import prompt_context

    if args.budget < 1:
        raise RepomemError(f"--budget must be a positive number of tokens, not {args.budget}",
                           hint="e.g. --budget 400 (the default)")

    # Uncommitted edits the watcher saw are included, flagged, when still fresh.  The block is
    # Markdown, so its own newlines stay; escapes and other control characters do not.
    return safe(prompt_context(open_repo(args), args.question, budget=args.budget),
                keep="\n"), "", 0
