"""Set up the store for a repository and index it.

A long history (200 commits or more to mine) is indexed tree first: the files of HEAD's tree are
mined once and their current facts answer questions within seconds, while the first-parent
history is indexed by a background process (`repomem status` shows it; a second `init` does not
start a second one).  `--wait` blocks until the history is indexed too.

Example: repomem init --repo path/to/repo"""

from __future__ import annotations

import time

from repomem.cli import common
from repomem.cli.commands import open_repo, print_json
from repomem.core.termsafe import echo

HELP = "create the store and index the current history"


def add_arguments(p) -> None:
    common(p, json_flag=True)
    p.add_argument("--embedder", default=None,
                   help="hash (default, offline), ollama:MODEL, or an installed one such as "
                        "minilm-l6-v2-numpy (docs/embedders.md)")
    p.add_argument("--no-hooks", action="store_true", help="do not install the git hooks")
    p.add_argument("--wait", action="store_true",
                   help="return only once the whole history is indexed")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")


def run(args) -> int:
    from repomem.service import backfill
    from repomem.service.ingest import index_history, ingest, tree_first, wants_tree_first
    from repomem.service.progress import Progress

    started = time.monotonic()
    r = open_repo(args, args.embedder)
    out: dict = {"store": str(r.store.path)}
    with Progress.for_stderr(args.quiet) as prog:
        if backfill.running(r.store.path):
            out["history"] = "indexing"  # by the backfill an earlier init started
        elif r.store.exists() and (r.store.get_meta("tree") or {}).get("head"):
            out["history"] = "resumed"  # a tree view whose backfill was stopped
        elif wants_tree_first(r):
            stats = tree_first(r, prog)
            out.update(head=stats["head"], files=stats["files"], versions=stats["versions"],
                       commits=stats["commits"], history="indexing",
                       answerable_after_s=round(time.monotonic() - started, 2))
        else:
            stats = ingest(r, all_history=True, create=True, progress=prog)
            out.update(new=stats["new"], commits=stats["commits"],
                       versions=stats["versions"], history="complete")
        if out["history"] != "complete":
            if args.wait:  # in this process, unless one runs already
                if index_history(r, prog).get("running"):
                    backfill.wait(r.store.path)
                out["history"] = "complete"
            else:
                backfill.spawn(r.root, r.store.path)  # none if one runs already
    if r.store.remote is None:  # a store chosen by --store or $REPOMEM_STORE: recorded, so an
        # agent's hook, started without either, finds it as every command does
        from repomem.adapters import git
        from repomem.integrations.agent_config import remember_store

        note = remember_store(git.discover(r.root), r.store.path)
        if note:
            out["note"] = note
    if args.json:
        print_json(out)
    elif not args.quiet:
        _say(out)
    if not args.no_hooks:
        try:
            from repomem.integrations.hooks import install
        except ImportError:
            return 0
        lines = install(r.root, store=r.store.path)
        if not args.json and not args.quiet:
            for line in lines:
                echo(line)
    return 0


def _say(out: dict) -> None:
    if "files" in out:
        echo(f"current facts of {out['head'][:10]} answerable: {out['versions']} fact versions "
             f"from {out['files']} files in {out['answerable_after_s']:.1f} s")
    elif "new" in out:
        echo(f"indexed {out['new']} new of {out['commits']} commits into {out['store']} "
             f"({out['versions']} fact versions)")
    if out["history"] == "indexing":
        echo("the history is being indexed in the background; 'repomem status' shows how far")
    elif out["history"] == "resumed":
        echo("the history's indexing was stopped; it goes on in the background "
             "('repomem status' shows how far)")
    elif "files" in out:
        echo(f"history indexed: {out['commits']} commits")
    if out.get("note"):
        echo(out["note"])
