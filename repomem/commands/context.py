"""Print a Markdown block of current facts for an agent's prompt, within a token budget.

Example: repomem context "how do I call the user lookup endpoint?" --budget 300"""

from __future__ import annotations

import sys

from repomem.cli import common
from repomem.commands import open_repo

HELP = "a Markdown context block for an agent's prompt"


def add_arguments(p) -> None:
    common(p)
    p.add_argument("question")
    p.add_argument("--budget", type=int, default=400, metavar="TOKENS")


def run(args) -> int:
    from repomem import overlay
    from repomem.context import build_context

    r = open_repo(args)
    # Uncommitted edits the watcher saw, when still fresh (same HEAD, files unchanged since).
    over = overlay.load(r) or None
    sys.stdout.write(build_context(r, args.question, budget=args.budget, overlay=over))
    return 0
