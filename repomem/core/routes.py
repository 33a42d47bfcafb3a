"""Route paths: the one rule for putting a path under a prefix, shared by the route miners (which
join what one file says) and the ledger (which composes mounts across files)."""

from __future__ import annotations


def join(prefix: str, path: str) -> str:
    """``/api`` + ``/items/`` -> ``/api/items/``; an empty path is the prefix itself."""
    if not path:
        return prefix or "/"
    if not prefix:
        return path
    return prefix.rstrip("/") + (path if path.startswith("/") else "/" + path)


