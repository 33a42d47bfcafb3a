"""The saved fold state: the ledger as last folded for a view, so a new commit on top of it
applies only its own record instead of folding the whole history again.

Kept in the record store (repomem/recordstore.py: one row per view, zlib-compressed JSON; no
pickle for data on disk).  FORMAT changes whenever the shape does, and a state of another
format, or a damaged one, reads as None (the caller then folds everything again and writes a
fresh one).  Each worktree has its own state: it folds its own HEAD.
Function fingerprints are not kept: they only matter inside one commit.  Nor are closed
versions (only their number): the ledger never touches a version again once it is closed, and
the view already holds it, so a new commit needs only the open ones.  On click's history that is
a quarter of the versions and 0.54 of 1.44 MB compressed, which the post-commit path reads and
writes.
"""

from __future__ import annotations

import dataclasses
import logging
import sqlite3
import zlib
from typing import cast

from repomem.core.ledger import Ledger, Version
from repomem.core.model import Fact

log = logging.getLogger("repomem")
FORMAT = 5  # 1 was a pickle file, 2 a gzipped JSON file (fold.v2.json.gz), 3 a record-store row
# with every version, 4 with the open versions only, 5 with their moved_from
_FIELDS = [f.name for f in dataclasses.fields(Version)]


# A long-lived writer (the daemon, `repomem watch`) folds commit after commit: the ledger it
# saved is the one its next load would rebuild from JSON (~0.1 s of the new commit's wait on
# click).  It is kept with the digest of what was saved, and handed back once, while the stored
# state still has that digest; another writer's save, or none at all, means a read as usual.
_KEPT: dict[tuple[str, str], tuple[str, str | None, Ledger]] = {}


def load(store, summaries: str | None) -> Ledger | None:
    """store: a repomem.storage.store.Store (its view name says whose fold state this is)."""
    view = store.view_name("fold")
    kept = _KEPT.pop((str(store.path), view), None)
    if kept is not None and kept[1] == summaries and store.records.fold_digest(view) == kept[0]:
        return kept[2]
    return read(store, summaries)


def read(store, summaries: str | None) -> Ledger | None:
    """A fresh ledger from the stored state, never the one a writer keeps: for a reader that
    applies what is not committed to it and throws it away (the watcher's overlay)."""
    view = store.view_name("fold")
    try:
        saved = store.records.load_fold(view)
        if saved is None or saved.get("format") != FORMAT or saved.get("summaries") != summaries:
            return None
        return from_json(saved)
    except (zlib.error, sqlite3.DatabaseError, ValueError, KeyError, TypeError, AttributeError,
            IndexError) as e:
        if isinstance(e, sqlite3.OperationalError):
            raise  # a locked or full database is not a damaged state: let the caller report it
        log.info("fold state unreadable (%s): folding the history again", type(e).__name__)
        return None


def keep(store, summaries: str | None) -> bool:
    """Read the stored state once and keep it, for a writer that will fold on top of it soon
    (the daemon, once it has caught up at start).  False: there is none to keep."""
    view = store.view_name("fold")
    digest = store.records.fold_digest(view)
    kept = _KEPT.get((str(store.path), view))
    if kept is not None and kept[:2] == (digest, summaries):
        return True  # what this process saved last is still the stored state
    ledger = load(store, summaries) if digest is not None else None
    if ledger is None:
        return False
    _KEPT[(str(store.path), view)] = (digest, summaries, ledger)
    return True


def save(store, ledger: Ledger, summaries: str | None) -> None:
    """The caller hands LEDGER over: it must not apply anything to it afterwards."""
    view = store.view_name("fold")
    key = (str(store.path), view)
    _KEPT.pop(key, None)
    digest = store.records.save_fold(view, dict(to_json(ledger), format=FORMAT,
                                                summaries=summaries))
    _KEPT[key] = (digest, summaries, _open_only(ledger))


def _open_only(ledger: Ledger) -> Ledger:
    """LEDGER as ``from_json(to_json(LEDGER))`` has it: closed versions only counted."""
    kept = Ledger()
    kept.__dict__.update(ledger.__dict__)
    kept.versions = [v for v in ledger.versions if v.valid_to is None]
    kept.closed_before = ledger.total_versions - len(kept.versions)
    kept.dirty = set()
    return kept


class _LazyFiles(dict):
    """path -> {final key -> Fact}, each path's facts built from their JSON on first access: a
    commit touches a few files, and building every fact of the view (~40 ms on click) was
    about a third of loading the state on the post-commit path.  A path never read is saved as read."""

    def __getitem__(self, path):
        value = dict.__getitem__(self, path)
        if type(value) is _Raw:
            value = {k: Fact.from_dict(f) for k, f in value.items()}
            dict.__setitem__(self, path, value)
        return value

    def get(self, path, default=None):
        return self[path] if path in self else default

    def pop(self, path, *default):
        if path in self:
            value = self[path]
            dict.__delitem__(self, path)
            return value
        return dict.pop(self, path, *default)

    def raw(self, path):
        """The path's facts as JSON dicts, building nothing."""
        value = dict.__getitem__(self, path)
        return value if type(value) is _Raw else {k: f.to_dict() for k, f in value.items()}


class _Raw(dict):
    """A path's facts as stored (key -> fact dict), not built yet."""


def to_json(ledger: Ledger) -> dict:
    kept = [v for v in ledger.versions if v.valid_to is None]  # the open ones, in order
    index = {id(v): i for i, v in enumerate(kept)}
    return {"applied": ledger.applied,
            "closed": ledger.closed_before + len(ledger.versions) - len(kept),
            "versions": [[getattr(v, f) for f in _FIELDS] for v in kept],
            "open": {k: index[id(v)] for k, v in ledger.open.items()},
            "files": {p: ledger.files.raw(p) for p in ledger.files}
            if isinstance(ledger.files, _LazyFiles)
            else {p: {k: f.to_dict() for k, f in fs.items()} for p, fs in ledger.files.items()},
            "key_paths": {k: sorted(ps) for k, ps in ledger.key_paths.items()},
            "identity": ledger.identity}


def from_json(d: dict) -> Ledger:
    ledger = Ledger()
    for row in d["versions"]:
        v = Version(**dict(zip(_FIELDS, row, strict=True)))
        v.attrs = cast("tuple[tuple[str, str], ...]", tuple(tuple(a) for a in v.attrs))
        ledger.versions.append(v)
    ledger.open = {k: ledger.versions[i] for k, i in d["open"].items()}
    ledger.files = _LazyFiles((p, _Raw(fs)) for p, fs in d["files"].items())
    ledger.key_paths = {k: set(ps) for k, ps in d["key_paths"].items()}
    ledger.identity = dict(d["identity"])
    ledger.applied = list(d["applied"])
    ledger.closed_before = int(d["closed"])
    return ledger
