"""The saved fold state: the ledger as last folded for a view, so a new commit on top of it
applies only its own record instead of folding the whole history again.

Versioned, gzipped JSON (no pickle for data on disk): FORMAT changes whenever the shape does,
and a file of another format, or a damaged one, reads as None (the caller then folds everything
again and writes a fresh one).  Each worktree has its own file: it folds its own HEAD.
Function fingerprints are not kept: they only matter inside one commit.
"""

from __future__ import annotations

import dataclasses
import gzip
import json
import logging
import os
from pathlib import Path

from repomem.ledger import Ledger, Version
from repomem.model import Fact

log = logging.getLogger("repomem")
NAME = "fold.v2.json.gz"
FORMAT = 2  # 1 was a pickle (fold.v1.pickle)
_FIELDS = [f.name for f in dataclasses.fields(Version)]


def path(store: Path, worktree: str) -> Path:
    return Path(store) / (NAME.replace(".json", f".{worktree}.json") if worktree else NAME)


def load(store: Path, worktree: str, summaries: str | None) -> Ledger | None:
    try:
        with gzip.open(path(store, worktree), "rt", encoding="utf-8") as fh:
            saved = json.load(fh)
        if saved.get("format") != FORMAT or saved.get("summaries") != summaries:
            return None
        return from_json(saved)
    except FileNotFoundError:
        return None
    except (OSError, EOFError, ValueError, KeyError, TypeError, AttributeError, IndexError) as e:
        log.info("fold state unreadable (%s): folding the history again", type(e).__name__)
        return None


def save(store: Path, worktree: str, ledger: Ledger, summaries: str | None) -> None:
    final = path(store, worktree)
    tmp = final.with_name(f"{final.name}.tmp{os.getpid()}")
    data = dict(to_json(ledger), format=FORMAT, summaries=summaries)
    # Level 1: the state is rewritten on every commit; speed matters more than size here.
    with gzip.open(tmp, "wt", encoding="utf-8", compresslevel=1) as fh:
        json.dump(data, fh, ensure_ascii=False, separators=(",", ":"))
    os.replace(tmp, final)
    # The v1 pickle (it held function fingerprints too) is never read again.
    (Path(store) / "fold.v1.pickle").unlink(missing_ok=True)


def to_json(ledger: Ledger) -> dict:
    index = {id(v): i for i, v in enumerate(ledger.versions)}  # open versions by position
    return {"applied": ledger.applied,
            "versions": [[getattr(v, f) for f in _FIELDS] for v in ledger.versions],
            "open": {k: index[id(v)] for k, v in ledger.open.items()},
            "files": {p: {k: f.to_dict() for k, f in fs.items()} for p, fs in ledger.files.items()},
            "key_paths": {k: sorted(ps) for k, ps in ledger.key_paths.items()},
            "identity": ledger.identity}


def from_json(d: dict) -> Ledger:
    ledger = Ledger()
    for row in d["versions"]:
        v = Version(**dict(zip(_FIELDS, row, strict=True)))
        v.attrs = tuple(tuple(a) for a in v.attrs)
        ledger.versions.append(v)
    ledger.open = {k: ledger.versions[i] for k, i in d["open"].items()}
    ledger.files = {p: {k: Fact.from_dict(f) for k, f in fs.items()} for p, fs in d["files"].items()}
    ledger.key_paths = {k: set(ps) for k, ps in d["key_paths"].items()}
    ledger.identity = dict(d["identity"])
    ledger.applied = list(d["applied"])
    return ledger
