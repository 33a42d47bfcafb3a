"""The opened repository: a work tree and its store (local, or on a Chroma server).

Both paths take it: ingestion (the write path) and the queries (the read path), so it lives
apart from either.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from repomem.adapters import git
from repomem.adapters.embed import get_embedder
from repomem.core.errors import RepomemError
from repomem.storage import remote, storepath
from repomem.storage.store import Store


@dataclass
class Repo:
    """A work tree and its store."""

    root: Path
    store: Store

    @classmethod
    def open(cls, repo: str | Path = ".", store: str | Path | None = None,
             embedder: str | None = None, args=None) -> "Repo":
        where = git.discover(repo)
        server = remote.from_args(args, where.root)  # --chroma / $REPOMEM_CHROMA_URL
        if server is not None:  # the store is on the server; a local folder caches the snapshot
            path = Path(store) if store else where.common / "repomem-server" / server.prefix
            return cls(where.root, Store(path.absolute(), embedder, where.worktree, server))
        path = storepath.resolve_store_path(where, store)
        if not storepath.is_default(where, path):  # the repository's own store needs no check
            storepath.check_identity(path, where.root)
        return cls(where.root, Store(path, embedder, where.worktree))


def _embedder(r: Repo, create: bool):
    spec = r.store.embedder_spec
    if spec is None and r.store.exists():
        spec = r.store.get_meta("embedder")
    emb = get_embedder(spec)
    r.store.check_embedder(emb, create)
    return emb


def require_store(r: Repo) -> None:
    if not r.store.exists():
        raise RepomemError(f"no repomem store for {r.root}",
                           hint="run 'repomem init' (or 'repomem ingest --all') first")


def set_aside_damaged_versions(r: Repo) -> None:
    """For ``repomem rebuild``: a damaged versions database (with the index folders Chroma
    keeps beside it) is moved into ``damaged-<time>/`` in the store, so the rebuild starts Chroma
    afresh (Chroma cannot open a malformed file); the commit records stay where they are."""
    import time

    from repomem.storage.integrity import sqlite_damage
    from repomem.storage.store import CHROMA_FILE

    if r.store.remote is not None or sqlite_damage(r.store.path / CHROMA_FILE) in (None, "is missing"):
        return
    aside = r.store.path / f"damaged-{int(time.time())}"
    aside.mkdir(exist_ok=True)
    for p in r.store.path.iterdir():
        if p.name.startswith(CHROMA_FILE) or (p.is_dir() and _is_uuid(p.name)):
            p.rename(aside / p.name)


def _is_uuid(name: str) -> bool:
    import uuid

    try:
        return str(uuid.UUID(name)) == name
    except ValueError:
        return False


def check_intact(r: Repo) -> None:
    """Before a read or an ingest of an embedded store: its versions database is whole (see
    repomem/storage/integrity.py).  Records are the source of truth, so the fix is a rebuild."""
    import shlex

    from repomem.storage.integrity import sqlite_damage
    from repomem.storage.store import CHROMA_FILE

    if r.store.remote is not None:
        return
    damage = sqlite_damage(r.store.path / CHROMA_FILE)  # the usual case: a stat and 100 bytes
    if damage is None or not r.store.records.exists():
        return
    if damage in ("is missing", "is empty (0 bytes)"):  # also a store whose first view is still
        state = r.store.records.get_meta(r.store.view_name("view")) or {}  # being written
        if not state.get("complete"):
            return
    where = git.discover(r.root)
    opt = "" if storepath.is_default(where, r.store.path) else \
        f" --store {shlex.quote(str(r.store.path))}"
    raise RepomemError(f"the store of fact versions {r.store.path / CHROMA_FILE} {damage}",
                       hint=f"rebuild it from the commit records: repomem rebuild --repo "
                            f"{shlex.quote(str(r.root))}{opt}")
