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
