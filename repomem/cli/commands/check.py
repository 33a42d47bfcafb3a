"""Find mentions of superseded values in the tracked docs, code comments, docstrings and agent
instruction files (AGENTS.md, CLAUDE.md, .cursorrules, ...): old function names, old routes,
old setting values next to the setting's name, old dependency pins.  Exits 1 when any is
found, so it fits a pre-commit hook or a CI step.  A bare value with no setting name next to
it is never reported; see docs/agents.md for the full rule.  Add 'repomem: ignore' to a line to
keep it as it is.

Example: repomem check            (in CI: repomem ingest -q && repomem check)"""

from __future__ import annotations

from repomem.cli import common
from repomem.cli.commands import open_repo, print_json
from repomem.core.termsafe import echo

HELP = "report docs and comments that mention superseded values (exit 1 if any)"


def add_arguments(p) -> None:
    common(p, json_flag=True)


def run(args) -> int:
    from repomem.core.render import MARKER
    from repomem.service.check import check_tree
    from repomem.service.render import stale_line

    r = open_repo(args)
    result = check_tree(r)
    found = result["findings"]
    if args.json:
        print_json(result)
        return 1 if found else 0
    for f in found:  # paths, mentions and values are the repository's text: in code spans only
        echo(stale_line(f))
    if found:
        echo(f"{len(found)} stale mention(s) in {result['files_scanned']} scanned file(s)")
        echo(MARKER)
    else:
        echo(f"no stale mentions in {result['files_scanned']} scanned file(s)")
    return 1 if found else 0
