"""Publish the first-parent history of HEAD to a Chroma server (for CI, after a push to the
default branch): mine the commits the server lacks, then bring the server's view up to date.

  repomem publish --chroma http://chroma.internal:8000     (or $REPOMEM_CHROMA_URL)

Idempotent: a commit's record has its sha as id, so publishing again, or two jobs at once,
adds nothing twice; a job killed mid-publish leaves whole records and a view marked
incomplete, which the next run completes."""

from __future__ import annotations

from repomem.cli import common
from repomem.cli.commands import open_repo, print_json
from repomem.core.errors import RepomemError
from repomem.core.termsafe import echo

HELP = "publish the default branch's history to a Chroma server"


def add_arguments(p) -> None:
    common(p, json_flag=True)
    p.add_argument("--embedder", default=None,
                   help="hash (default, offline), ollama:MODEL, or an installed one such as "
                        "minilm-l6-v2-numpy (docs/embedders.md)")


def run(args) -> int:
    from repomem.service.publish import publish

    r = open_repo(args, args.embedder)
    if r.store.remote is None:
        raise RepomemError("publish needs a Chroma server",
                           hint="pass --chroma URL or set REPOMEM_CHROMA_URL")
    stats = publish(r)
    if args.json:
        print_json(dict(stats, server=r.store.remote.url, name=r.store.remote.name))
    else:
        if stats.get("repaired"):
            echo(f"repaired the published view ({stats['repaired']})")
        echo(f"published {stats['new']} new of {stats['commits']} commits to "
             f"{r.store.remote.url} as {r.store.remote.name} ({stats['versions']} fact versions)")
    return 0
