"""One module per command: HELP, add_arguments(parser), run(args) -> exit code."""

from __future__ import annotations

import json
import sys


def open_repo(args, embedder: str | None = None):
    """The repository the arguments name (the warm answerer passes one it opened: ``_repo``)."""
    given = getattr(args, "_repo", None)
    if given is not None:
        return given
    from repomem.service.repo import Repo

    return Repo.open(args.repo, args.store, embedder, args)


def print_json(obj, file=None) -> None:
    out = file or sys.stdout
    json.dump(obj, out, indent=2, ensure_ascii=False)
    out.write("\n")
