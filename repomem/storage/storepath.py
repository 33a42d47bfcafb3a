"""Where a repository's store lives, and which repository a store belongs to.

The path is resolved the same way by every command, the worker and the hook shims (which carry
no path of their own, so a copied or moved repository keeps feeding its own store): --store,
else $REPOMEM_STORE, else the ``repomem.store`` git config (relative to the git common dir),
else ``<git common dir>/repomem``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from repomem.adapters import git
from repomem.core.errors import RepomemError
from repomem.storage import atomic

IDENTITY = "repository.json"  # the first commit the store recorded (see check_identity)
DEFAULT_NAME = "repomem"


def default_store_path(repo: Path) -> Path:
    return resolve_store_path(git.discover(repo), None)


def resolve_store_path(where: git.Where, store: str | Path | None) -> Path:
    """The store of a work tree, as an absolute path.  One inside the work tree is refused: one
    ``git add -A`` would commit it (the git dir is the exception: git never tracks it)."""
    given = store or os.environ.get("REPOMEM_STORE")
    if given:
        path = Path(os.path.abspath(os.path.expanduser(str(given))))
    else:
        conf = git.config_get(where.root, "repomem.store")
        if not conf:
            return where.common / DEFAULT_NAME
        path = Path(os.path.abspath(where.common / os.path.expanduser(conf)))
    real = Path(os.path.realpath(path))
    if real.exists() and not real.is_dir():
        raise RepomemError(f"the store path {path} is a file, not a directory",
                           hint="pass --store DIR with a directory (or one that does not exist yet)")
    inside = real == where.root or where.root in real.parents
    in_git = any(d == real or d in real.parents for d in (where.common, where.git_dir))
    if inside and not in_git:
        raise RepomemError(f"the store path {path} is inside the work tree {where.root}",
                           hint="put the store outside the work tree (the default is "
                                f"{where.common / DEFAULT_NAME}); an absolute --store DIR, "
                                "$REPOMEM_STORE or 'git config repomem.store DIR' sets another")
    return real


def is_default(where: git.Where, path: Path) -> bool:
    return path == where.common / DEFAULT_NAME


def check_identity(store: Path, root: Path) -> None:
    """A store belongs to the history it was first filled from: it names the first commit it
    recorded, and a repository that lacks that commit is another repository (its records would
    mix with this one's).  Clones and copies of the same history may share it: records are per
    commit.  (Not the root commit: in a shallow clone that is a boundary that later moves.)"""
    try:
        first = json.loads((store / IDENTITY).read_text()).get("first_commit")
    except (OSError, ValueError, AttributeError):
        return
    if first and not git.git(root, "rev-parse", "-q", "--verify", f"{first}^{{commit}}",
                             check=False).strip():
        raise RepomemError(f"the store at {store} belongs to another repository "
                           f"(its history has commit {first[:10]}, which {root} lacks)",
                           hint="use this repository's own store (drop --store / "
                                "$REPOMEM_STORE), or another empty directory")


def record_identity(store: Path, first_commit: str) -> None:
    path = store / IDENTITY
    if not path.exists():
        atomic.write_text(path, json.dumps({"first_commit": first_commit}) + "\n")
