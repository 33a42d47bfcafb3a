"""The uncommitted overlay: facts of tracked files edited in the work tree but not committed.

The watcher mines each modified tracked file, compares it with the same file at HEAD, and keeps
the facts that differ (or are new) in ``<store>/overlay.json`` (atomic replace).  They are never
written to the committed ledger.  Each overlay fact carries the key of the committed fact it
shadows -- for a function or route that is the ledger's identity key, found by anchor in the
current view (a function renamed in the work tree keeps its key, as a commit would).

``load`` returns only facts that are still true: the overlay was computed at the current HEAD and
the file has not changed since (same mtime and size).
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

from repomem.adapters import git, worktree
from repomem.core.identity import match_moves
from repomem.core.ledger import final_key
from repomem.core.model import FUNCTION, WIRING, Fact
from repomem.miners import MineError, mine_file, wants
from repomem.storage import atomic

NAME = "overlay.json"


def overlay_path(r) -> Path:
    return r.store.path / NAME


def _iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, timezone.utc).isoformat(timespec="seconds")


def _stamp(p: Path) -> list[int] | None:
    try:
        st = p.stat()
    except OSError:
        return None
    return [st.st_mtime_ns, st.st_size]


def modified_files(root: Path) -> list[str]:
    """Tracked files whose work-tree content differs from HEAD (staged or not)."""
    if git.head(root) is None:
        return []
    out = git.git(root, "--no-optional-locks", "diff", "--name-only", "-z", "HEAD", "--")
    return sorted(p for p in out.decode("utf-8", "surrogateescape").split("\0") if p)


def _mine(path: str, data: bytes | None) -> list[Fact]:
    if data is None:
        return []
    try:
        # router/mount facts only feed the ledger's route composition; they are never shown
        return [f for f in mine_file(path, data) if f.kind not in WIRING]
    except (MineError, RecursionError):
        return []


def _identities(rows: list[dict]) -> dict[str, str]:
    """anchor (path::qualname) -> function identity, from the current view's function rows."""
    out = {}
    for row in rows:
        if row["kind"] == FUNCTION and row["key"].startswith("function:"):
            qual = row["subject"].split(" ", 1)[-1]
            out[f"{row['path']}::{qual}"] = row["key"][len("function:"):]
    return out


def diff_file(path: str, old: list[Fact], new: list[Fact],
              identities: dict[str, str]) -> list[tuple[str, Fact]]:
    """(final key, fact) for the work-tree facts whose value differs from HEAD's, or are new."""
    old_f = [f for f in old if f.kind == FUNCTION]
    new_f = [f for f in new if f.kind == FUNCTION]
    old_a, new_a = {f.anchor for f in old_f}, {f.anchor for f in new_f}
    links = dict((n, o) for o, n in match_moves([f for f in old_f if f.anchor not in new_a],
                                                 [f for f in new_f if f.anchor not in old_a]))

    def key(f: Fact) -> str:
        if f.anchor is None:
            return f.key
        anchor = links.get(f.anchor, f.anchor)
        return final_key(f, identities.get(anchor, f"uncommitted:{f.anchor}"))

    before = {key(f): f.value_id() for f in old}
    return [(key(f), f) for f in new if before.get(key(f)) != f.value_id()]


def compute(r, rows: list[dict] | None = None) -> dict:
    """The overlay for the work tree as it is now.  rows: the current view (default: read it)."""
    root = r.root
    head = git.head(root)
    files = [p for p in modified_files(root) if wants(p)]
    if files and rows is None:
        from repomem.service.view import ensure_view

        ensure_view(r)
        with r.store.reader():
            rows = r.store.rows({"kind": FUNCTION})
    identities = _identities(rows or [])
    facts, stamps = [], {}
    with git.BlobReader(root) as blobs:
        for path in files:
            wt = root / path
            stamp = _stamp(wt)
            if stamp is None:
                continue  # deleted in the work tree: nothing new to say about it
            # A tracked file replaced by a symlink (or under a linked folder) is not followed:
            # what lies outside the repository is no uncommitted fact of it (skip is logged).
            data = worktree.read(root, path)
            if data is None:
                continue
            old_blob = git.git(root, "rev-parse", "-q", "--verify", f"HEAD:{path}",
                               check=False).decode().strip()
            old = _mine(path, blobs.read(old_blob) if old_blob else None)
            stamps[path] = stamp
            for k, f in diff_file(path, old, _mine(path, data), identities):
                facts.append({"key": k, "kind": f.kind, "subject": f.subject, "value": f.value,
                              "attrs": dict(f.attrs), "valid_from": None, "valid_to": None,
                              "commit": None, "path": f.path, "line": f.line, "text": f.text,
                              "purpose": f.purpose, "superseded_by": None, "end_reason": None,
                              "uncommitted": True, "modified": _iso(stamp[0] / 1e9)})
    return {"head": head, "files": stamps, "facts": facts}


def save(r, overlay: dict) -> None:
    path = overlay_path(r)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic.write_text(path, json.dumps(overlay, indent=1))


def refresh(r) -> dict:
    overlay = compute(r)
    save(r, overlay)
    return overlay


def load(r) -> list[dict]:
    """Overlay facts that are still fresh: same HEAD, file unchanged since it was mined."""
    try:
        data = json.loads(overlay_path(r).read_text())
    except (OSError, ValueError):
        return []
    if data.get("head") != git.head(r.root):
        return []
    fresh = {p for p, st in data.get("files", {}).items() if _stamp(r.root / p) == st}
    return [f for f in data.get("facts", []) if f["path"] in fresh]
