"""The uncommitted overlay: facts of tracked files edited in the work tree but not committed.

The watcher mines each modified tracked file and applies the work tree, as one more commit, to a
throw-away copy of HEAD's fold state (the ledger as the last ingest left it): the versions that
commit would open are the uncommitted facts, kept in ``<store>/overlay.json`` (atomic replace)
and never written to the committed ledger.  So each overlay fact carries the key of the
committed fact it shadows, as a commit would key it (a function renamed in the work tree keeps
its identity), and values composed across files are composed as a commit composes them (a
route of a router mounted in another file shows its full path; a mount's prefix edited in the
work tree changes its routes' paths, though their file is unchanged).  Without HEAD's fold
state (a reader of a Chroma server), each file is compared with its HEAD version alone.

A fact the work tree no longer states (a setting deleted, a function removed, a file deleted) is
an overlay row flagged ``removed``: the context then does not serve its committed value as
current, and says it is gone from the work tree.

``load`` returns only facts that are still true: the overlay was computed at the current HEAD and
the file has not changed since (same mtime and size); a fact of an unmodified file (composed from
an edit elsewhere) only while every edited file is unchanged.
"""

from __future__ import annotations

import json
import time
from datetime import datetime, timezone
from pathlib import Path

from repomem.adapters import git, worktree
from repomem.core.identity import match_moves
from repomem.core.ledger import REMOVED, final_key
from repomem.core.model import FUNCTION, WIRING, Fact
from repomem.core.records import CommitRecord
from repomem.miners import MineError, mine_file, wants
from repomem.miners.mining import links_of, movable
from repomem.storage import atomic

NAME = "overlay.json"
UNCOMMITTED = "uncommitted"  # the work tree's pseudo-commit, applied to a throw-away ledger


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


def _mine(path: str, data: bytes | None) -> list[Fact] | None:
    """The file's facts, router and mount facts included; None when it cannot be mined."""
    if data is None:
        return None
    try:
        return mine_file(path, data)
    except (MineError, RecursionError):
        return None


def _identities(rows: list[dict]) -> dict[str, str]:
    """anchor (path::qualname) -> function identity, from the current view's function rows."""
    out = {}
    for row in rows:
        if row["kind"] == FUNCTION and row["key"].startswith("function:"):
            qual = row["subject"].split(" ", 1)[-1]
            out[f"{row['path']}::{qual}"] = row["key"][len("function:"):]
    return out


def diff_file(path: str, old: list[Fact], new: list[Fact], identities: dict[str, str]
              ) -> tuple[list[tuple[str, Fact]], list[tuple[str, Fact]]]:
    """(final key, fact) for the work-tree facts whose value differs from HEAD's, or are new;
    and (final key, HEAD's fact) for HEAD's facts the work tree no longer states."""
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
    after = {key(f) for f in new}
    return ([(key(f), f) for f in new if before.get(key(f)) != f.value_id()],
            [(key(f), f) for f in old if key(f) not in after])


def _row(f, stamp: list[int], removed: bool = False) -> dict:
    """An overlay fact (a Fact, or a ledger Version) as the context reads it; REMOVED: a
    committed fact the work tree no longer states (its value is never shown)."""
    return {"removed": removed, "key": f.key, "kind": f.kind, "subject": f.subject, "value": f.value,
            "attrs": dict(f.attrs), "valid_from": None, "valid_to": None, "commit": None,
            "path": f.path, "line": f.line, "text": f.text, "purpose": f.purpose,
            "superseded_by": None, "end_reason": None, "uncommitted": True,
            "modified": _iso(stamp[0] / 1e9)}


def _ledger_at(r, head: str | None):
    """A fresh copy of the saved fold state when it is HEAD's (the watcher has just ingested),
    else None."""
    from repomem.core.records import TREE
    from repomem.service import summaries
    from repomem.service.view import ensure_view
    from repomem.storage import foldstate

    if head is None or r.store.remote is not None:
        return None
    ensure_view(r)
    with r.store.reader():
        ledger = foldstate.read(r.store, summaries.digest(r.store.path))
    if ledger is None or not ledger.applied or ledger.applied[-1].removeprefix(TREE) != head:
        return None
    return ledger


def _through_ledger(ledger, head: str, new: dict[str, list[Fact] | None],
                    old: dict[str, list[Fact]], stamps: dict[str, list[int] | None]) -> list[dict]:
    """The work tree applied to HEAD's ledger as one more commit: the versions it opens are the
    uncommitted facts, keyed as a commit would key them (a renamed function keeps its identity)
    and composed across files as a commit is (a route under a router mounted in another file,
    a build value read from a properties file), including facts of unmodified files whose value
    an edit changed (a mount's prefix edited: its routes' full paths)."""
    rec = CommitRecord(UNCOMMITTED, head, int(time.time()))
    new_funcs: list[Fact] = []
    for path, facts in new.items():
        if facts is not None:  # None: not minable now; its committed facts stay
            rec.files[path] = facts
            new_funcs += movable(facts)
    rec.links = links_of([f for fs in old.values() for f in movable(fs)], new_funcs)
    seen = len(ledger.versions)
    was_open = list(ledger.open.values())  # what the work tree's commit can close
    ledger.apply(rec, rec.ct)
    newest = max((st for st in stamps.values() if st), key=lambda st: st[0],
                 default=[time.time_ns(), 0])
    opened = [_row(v, stamps.get(v.path) or newest) for v in ledger.versions[seen:]
              if v.valid_to is None and v.kind not in WIRING]
    # closed by the work tree with nothing after them: deleted, not changed
    closed = [_row(v, stamps.get(v.path) or newest, removed=True) for v in was_open
              if v.end_commit == UNCOMMITTED and v.end_reason == REMOVED and v.kind not in WIRING]
    return opened + closed


def _per_file(r, rows: list[dict] | None, new: dict[str, list[Fact] | None],
              old: dict[str, list[Fact]], stamps: dict[str, list[int] | None]) -> list[dict]:
    """Without HEAD's fold state (a reader of a Chroma server): each file against its HEAD
    version alone, keyed through the current view's function identities."""
    if rows is None:
        from repomem.service.view import ensure_view

        ensure_view(r)
        with r.store.reader():
            rows = r.store.rows({"kind": FUNCTION})
    identities = _identities(rows or [])
    out = []
    for path, facts in new.items():
        if facts is None:  # not minable now: its committed facts stay
            continue
        changed, gone = diff_file(path, _shown(old[path]), _shown(facts), identities)
        stamp = stamps[path] or [0, 0]
        out += [dict(_row(f, stamp), key=k) for k, f in changed]
        out += [dict(_row(f, stamp, removed=True), key=k) for k, f in gone]
    return out


def _shown(facts: list[Fact]) -> list[Fact]:
    # router/mount facts only feed the ledger's route composition; they are never shown
    return [f for f in facts if f.kind not in WIRING]


def compute(r, rows: list[dict] | None = None) -> dict:
    """The overlay for the work tree as it is now.  rows: the current view's function rows,
    used only when HEAD's fold state cannot be read (default: read them)."""
    root = r.root
    head = git.head(root)
    new: dict[str, list[Fact] | None] = {}
    old: dict[str, list[Fact]] = {}
    stamps: dict[str, list[int] | None] = {}  # None: deleted in the work tree
    with git.BlobReader(root) as blobs:
        for path in (p for p in modified_files(root) if wants(p)):
            wt = root / path
            stamp = _stamp(wt)
            old_blob = git.git(root, "rev-parse", "-q", "--verify", f"HEAD:{path}",
                               check=False).decode().strip()
            old[path] = _mine(path, blobs.read(old_blob) if old_blob else None) or []
            if stamp is None:  # deleted in the work tree: its facts are no longer stated
                new[path], stamps[path] = [], None
                continue
            # A tracked file replaced by a symlink (or under a linked folder) is not followed:
            # what lies outside the repository is no uncommitted fact of it (skip is logged).
            data = worktree.read(root, path)
            if data is None:
                continue
            new[path], stamps[path] = _mine(path, data), stamp
    ledger = _ledger_at(r, head) if new else None
    if ledger is not None and head is not None:
        facts = _through_ledger(ledger, head, new, old, stamps)
    else:
        facts = _per_file(r, rows, new, old, stamps) if new else []
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
    files = data.get("files", {})
    fresh = {p for p, st in files.items() if _stamp(r.root / p) == st}
    return [f for f in data.get("facts", [])
            if f["path"] in fresh or f["path"] not in files and len(fresh) == len(files)]
