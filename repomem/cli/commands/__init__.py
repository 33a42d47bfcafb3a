"""One module per command: HELP, add_arguments(parser), run(args) -> exit code."""

from __future__ import annotations

import json
import sys


def open_repo(args, embedder: str | None = None):
    from repomem.service.repo import Repo

    return Repo.open(args.repo, args.store, embedder, args)


def print_json(obj) -> None:
    json.dump(obj, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
