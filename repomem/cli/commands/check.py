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
    from repomem.service.check import check_tree

    r = open_repo(args)
    result = check_tree(r)
    found = result["findings"]
    if args.json:
        print_json(result)
        return 1 if found else 0
    for f in found:
        now = f"now {f['current_value']}" if f["current_value"] is not None else "since removed"
        echo(f"{f['path']}:{f['line']}: {f['mention']!r} is stale: {f['subject']} was "
             f"{f['stale_value']}, {now} (changed in {f['changed_in'][:10]} on "
             f"{(f['changed_at'] or '')[:10]})")
    if found:
        echo(f"{len(found)} stale mention(s) in {result['files_scanned']} scanned file(s)")
    else:
        echo(f"no stale mentions in {result['files_scanned']} scanned file(s)")
    return 1 if found else 0
