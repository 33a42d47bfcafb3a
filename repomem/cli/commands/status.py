"""Show how far the history is indexed: after `repomem init` answers from the checked-out tree,
the first-parent history is indexed in the background.  Shows commits done and left, the rate,
the time left and the date the history has reached (as-of questions up to it are answered).

Example: repomem status --json"""

from __future__ import annotations

from repomem.cli import common
from repomem.cli.commands import open_repo, print_json
from repomem.core.termsafe import echo

HELP = "how far the background indexing of the history is"


def add_arguments(p) -> None:
    common(p, json_flag=True)


def run(args) -> int:
    from repomem.service import backfill
    from repomem.service.repo import require_store

    r = open_repo(args)
    require_store(r)
    st = backfill.describe(backfill.read_state(r.store.path), backfill.running(r.store.path))
    if not st["commits"]:  # indexed by a plain ingest: no backfill ever ran
        st.update(complete=True, history_indexed_to=None)
    if args.json:
        print_json(st)
        return 0
    if st["complete"]:
        echo(f"history: complete ({st['commits']} commits)" if st["commits"]
             else "history: complete")
        return 0
    pct = 100 * st["done"] // max(1, st["commits"])
    line = f"history: {st['done']} of {st['commits']} commits indexed ({pct}%), {st['left']} left"
    if st["running"]:
        eta = st["eta_seconds"]
        line += f", {st['rate']:.1f} commits/s" + (f", about {_eta(eta)} left" if eta else "")
    echo(line)
    echo(f"history indexed to: {st['history_indexed_to'] or 'nothing yet'}")
    if not st["running"]:
        echo("not running: the next 'repomem init' or commit resumes it"
             + (f" (last error: {st['error']})" if st.get("error") else ""))
    return 0


def _eta(seconds: int) -> str:
    return f"{seconds // 60} min {seconds % 60} s" if seconds >= 60 else f"{seconds} s"
