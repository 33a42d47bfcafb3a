"""What the project keeps beside the fact versions: commit records, store metadata and each
view's fold state.  One interface (RecordStore), two backends: SQLite (a file in the store
folder) and a Chroma server's collections (repomem/storage/chromarecords.py).  The SQLite file of
an embedded store also holds each view's closed fact versions (repomem/storage/closedversions.py);
Chroma keeps the current ones, with their real embeddings.

Why SQLite rather than Chroma rows: records are looked up by commit id and read whole, never
searched by similarity.  As Chroma rows they needed a dummy vector and base64 in a metadata
field, and every row cost an indexed write; here a batch of records is one transaction.

See docs/ARCHITECTURE.md, "Storage".
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import zlib
from pathlib import Path
from typing import Protocol

from repomem.core.model import canonical_json, short_hash
from repomem.core.records import CommitRecord
from repomem.storage import closedversions

NAME = "records.sqlite3"


class RecordStore(Protocol):
    """Every call runs under the store's file lock (Store.writer/reader): the backend need not
    order writers itself, only make each call atomic."""

    def exists(self) -> bool: ...
    def ingested(self) -> set[str]: ...
    def record_shas(self) -> list[str]: ...
    def put_records(self, recs: list[CommitRecord], ingested_at: int) -> None: ...
    def load_records(self, shas: list[str]) -> dict[str, tuple[CommitRecord, int]]: ...
    def replace_records(self, recs: list[CommitRecord], ingested_at: int) -> None: ...
    def record_packs(self) -> list[tuple[str, list[str], int]]: ...
    def rewrite_pack(self, pack_id: str, recs: list[CommitRecord]) -> None: ...
    def get_meta(self, name: str): ...
    def set_meta(self, name: str, value) -> None: ...
    def delete_meta(self, names: list[str]) -> None: ...
    def meta_names(self) -> list[str]: ...
    def load_fold(self, view: str) -> dict | None: ...
    def save_fold(self, view: str, state: dict) -> str:
        """Returns the digest that ``fold_digest`` gives until the state is saved again."""
        ...
    def fold_digest(self, view: str) -> str | None: ...
    def drop_folds(self) -> None: ...
    def vacuum(self) -> None: ...
    def close(self) -> None: ...


# Ordered migrations: MIGRATIONS[i] takes a database of user_version i to i + 1.
MIGRATIONS = [
    """CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
       CREATE TABLE records (sha TEXT PRIMARY KEY, batch TEXT NOT NULL,
                             ingested_at INTEGER NOT NULL, data BLOB NOT NULL);
       CREATE INDEX records_batch ON records (batch);
       CREATE TABLE folds (view TEXT PRIMARY KEY, data BLOB NOT NULL);""",
    closedversions.MIGRATION,  # each view's closed fact versions (repomem/storage/closedversions.py)
]


def _pack(obj) -> bytes:
    return zlib.compress(canonical_json(obj).encode("utf-8", "surrogatepass"), 3)


def _unpack(blob: bytes):
    return json.loads(zlib.decompress(blob).decode("utf-8", "surrogatepass"))


def _digest(blob: bytes) -> str:
    return hashlib.blake2b(blob, digest_size=12).hexdigest()  # ~1 ms for click's 0.65 MB


class SqliteRecords:
    """The SQLite backend: WAL mode (readers never wait for a writer's transaction), one
    transaction per call; a record is one row, zlib-compressed JSON."""

    def __init__(self, folder: Path):
        self.file = Path(folder) / NAME
        self._con: sqlite3.Connection | None = None

    def exists(self) -> bool:
        return self.file.exists()

    @property
    def con(self) -> sqlite3.Connection:
        if self._con is None:
            if self.file.exists() and not os.access(self.file.parent, os.W_OK):
                # A read-only store: nobody can write it, so it is read as immutable (WAL would
                # need to create its shared-memory file next to it).
                con = sqlite3.connect(f"file:{self.file}?mode=ro&immutable=1", uri=True,
                                      check_same_thread=False)
            else:
                con = sqlite3.connect(self.file, timeout=30, check_same_thread=False)
                con.execute("PRAGMA journal_mode=WAL")
                con.execute("PRAGMA synchronous=NORMAL")  # WAL: durable at checkpoints, never torn
                self._migrate(con)
            self._con = con
        return self._con

    @staticmethod
    def _migrate(con: sqlite3.Connection) -> None:
        have = con.execute("PRAGMA user_version").fetchone()[0]
        for i in range(have, len(MIGRATIONS)):
            con.executescript(f"BEGIN; {MIGRATIONS[i]}; PRAGMA user_version = {i + 1}; COMMIT;")

    def close(self) -> None:
        if self._con is not None:
            self._con.close()
            self._con = None

    # -- records ---------------------------------------------------------------------------
    def ingested(self) -> set[str]:
        return {r[0] for r in self.con.execute("SELECT sha FROM records")}

    def record_shas(self) -> list[str]:
        return [r[0] for r in self.con.execute("SELECT sha FROM records ORDER BY rowid")]

    def put_records(self, recs: list[CommitRecord], ingested_at: int) -> None:
        # Never rewritten: a record that exists stays as first ingested (idempotent, and the
        # transaction time of the first ingestion is kept).
        new = list({r.sha: r for r in recs}.values())
        if not new:
            return
        batch = "pack-" + short_hash(*(r.sha for r in new), n=24)
        with self.con:
            self.con.executemany(
                "INSERT OR IGNORE INTO records (sha, batch, ingested_at, data) VALUES (?,?,?,?)",
                [(r.sha, batch, ingested_at, _pack(r.to_json())) for r in new])

    def load_records(self, shas: list[str]) -> dict[str, tuple[CommitRecord, int]]:
        out = {}
        want = list(dict.fromkeys(shas))
        for i in range(0, len(want), 500):
            chunk = want[i:i + 500]
            q = f"SELECT sha, ingested_at, data FROM records WHERE sha IN ({','.join('?' * len(chunk))})"
            for sha, t, data in self.con.execute(q, chunk):
                out[sha] = (CommitRecord.from_json(_unpack(data)), t)
        return out

    def replace_records(self, recs: list[CommitRecord], ingested_at: int) -> None:
        """Re-mined records (a shallow clone's boundary commit after ``git fetch --unshallow``)
        take the place of the stored ones, in one transaction."""
        if not recs:
            return
        batch = "pack-" + short_hash("replaced", str(ingested_at), *sorted(r.sha for r in recs), n=24)
        with self.con:
            self.con.executemany(
                "INSERT OR REPLACE INTO records (sha, batch, ingested_at, data) VALUES (?,?,?,?)",
                [(r.sha, batch, ingested_at, _pack(r.to_json())) for r in recs])

    def record_packs(self) -> list[tuple[str, list[str], int]]:
        packs: dict[str, tuple[list[str], int]] = {}
        for sha, batch, t in self.con.execute(
                "SELECT sha, batch, ingested_at FROM records ORDER BY rowid"):
            packs.setdefault(batch, ([], t))[0].append(sha)
        return [(b, shas, t) for b, (shas, t) in packs.items()]

    def rewrite_pack(self, pack_id: str, recs: list[CommitRecord]) -> None:
        """Re-mined records of the same commits (``repomem rebuild``); transaction times kept."""
        with self.con:
            self.con.executemany("UPDATE records SET data = ? WHERE sha = ? AND batch = ?",
                                 [(_pack(r.to_json()), r.sha, pack_id) for r in recs])

    # -- metadata --------------------------------------------------------------------------
    def get_meta(self, name: str):
        row = self.con.execute("SELECT value FROM meta WHERE name = ?", (name,)).fetchone()
        return json.loads(row[0]) if row else None

    def set_meta(self, name: str, value) -> None:
        with self.con:
            self.con.execute("INSERT OR REPLACE INTO meta (name, value) VALUES (?, ?)",
                             (name, json.dumps(value)))

    def delete_meta(self, names: list[str]) -> None:
        with self.con:
            self.con.executemany("DELETE FROM meta WHERE name = ?", [(n,) for n in names])

    def meta_names(self) -> list[str]:
        return [r[0] for r in self.con.execute("SELECT name FROM meta ORDER BY name")]

    # -- fold state ------------------------------------------------------------------------
    def load_fold(self, view: str) -> dict | None:
        row = self.con.execute("SELECT data FROM folds WHERE view = ?", (view,)).fetchone()
        return _unpack(row[0]) if row else None

    def save_fold(self, view: str, state: dict) -> str:
        # Level 1 would do: the state is rewritten on every commit; zlib level 3 costs little more.
        blob = _pack(state)
        with self.con:
            self.con.execute("INSERT OR REPLACE INTO folds (view, data) VALUES (?, ?)",
                             (view, blob))
        return _digest(blob)

    def fold_digest(self, view: str) -> str | None:
        row = self.con.execute("SELECT data FROM folds WHERE view = ?", (view,)).fetchone()
        return _digest(row[0]) if row else None

    def drop_folds(self) -> None:
        with self.con:
            self.con.execute("DELETE FROM folds")

    def vacuum(self) -> None:
        self.con.execute("VACUUM")
