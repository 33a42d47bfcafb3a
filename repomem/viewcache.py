"""A read-only snapshot of the current facts, so a fresh process can answer without Chroma.

Importing chromadb costs ~1.3 s, more than the whole budget of a pre-prompt hook.  The writer
that materialises the view in Chroma also writes this snapshot (current versions, their
embeddings and the view they came from) under the same exclusive lock; a reader uses it only
when it was written for the HEAD that is checked out now, and falls back to Chroma otherwise
(as-of queries always go to Chroma).  Chroma stays the store of record: the snapshot is
rebuilt from it and deleted before every view change, so a crash never leaves a stale one.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

SNAPSHOT = "current-view"


def _dir(store_path: Path) -> Path:
    return Path(store_path) / SNAPSHOT


def invalidate(store_path: Path) -> None:
    shutil.rmtree(_dir(store_path), ignore_errors=True)


def write(store_path: Path, state: dict, rows: list[dict], embeddings) -> None:
    """state: view id, head, embedder, missing commits.  Atomic: a tmp dir renamed into place."""
    import numpy as np

    final = _dir(store_path)
    tmp = final.with_name(f"{SNAPSHOT}.tmp{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    matrix = np.asarray(embeddings, dtype=np.float32)
    np.save(tmp / "embeddings.npy", matrix.reshape(len(rows), -1) if rows else np.zeros((0, 1)))
    (tmp / "rows.json").write_text(json.dumps(rows, ensure_ascii=False))
    (tmp / "state.json").write_text(json.dumps(state))
    shutil.rmtree(final, ignore_errors=True)
    os.replace(tmp, final)


def exists(store_path: Path, head: str | None) -> bool:
    try:
        return json.loads((_dir(store_path) / "state.json").read_text()).get("head") == head
    except (OSError, ValueError):
        return False


def load(store_path: Path, head: str | None):
    """(state, rows, embeddings) when a snapshot exists for this HEAD, else None."""
    d = _dir(store_path)
    try:
        state = json.loads((d / "state.json").read_text())
        if head is None or state.get("head") != head:
            return None
        import numpy as np

        rows = json.loads((d / "rows.json").read_text())
        emb = np.load(d / "embeddings.npy")
    except (OSError, ValueError):
        return None
    return state, rows, emb


def search(rows: list[dict], emb, query_vec, t: int, n: int) -> list[dict]:
    """Nearest rows valid at t by cosine distance, like the Chroma query it stands in for."""
    import numpy as np

    if not rows:
        return []
    q = np.asarray(query_vec, dtype=np.float32)
    sims = emb @ q
    valid = np.array([r["valid_from"] <= t < r["valid_to"] for r in rows])
    sims = np.where(valid, sims, -np.inf)
    order = np.argsort(-sims, kind="stable")[:n]
    return [dict(rows[i], distance=float(1.0 - sims[i])) for i in order if valid[i]]
