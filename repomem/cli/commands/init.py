"""Set up the store for a repository and index its first-parent history.

Example: repomem init --repo path/to/repo"""

from __future__ import annotations

from repomem.cli import common
from repomem.cli.commands import open_repo
from repomem.core.termsafe import echo

HELP = "create the store and index the current history"


def add_arguments(p) -> None:
    common(p)
    p.add_argument("--embedder", default=None, help="hash (default, offline) or ollama:MODEL")
    p.add_argument("--no-hooks", action="store_true", help="do not install the git hooks")


def run(args) -> int:
    from repomem.service.ingest import ingest

    r = open_repo(args, args.embedder)
    stats = ingest(r, all_history=True, create=True)
    echo(f"indexed {stats['new']} new of {stats['commits']} commits into {r.store.path} "
         f"({stats['versions']} fact versions)")
    if r.store.remote is None:  # a store chosen by --store or $REPOMEM_STORE: recorded, so an
        # agent's hook, started without either, finds it as every command does
        from repomem.adapters import git
        from repomem.integrations.agent_config import remember_store

        note = remember_store(git.discover(r.root), r.store.path)
        if note:
            echo(note)
    if not args.no_hooks:
        try:
            from repomem.integrations.hooks import install
        except ImportError:
            return 0
        for line in install(r.root, store=r.store.path):
            echo(line)
    return 0
