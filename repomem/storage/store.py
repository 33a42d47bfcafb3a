"""The store: commit records (the source of truth), metadata and fold state in the record store
(repomem/recordstore.py, SQLite), and the materialised version view: its current versions in
Chroma, its closed ones in the record store's SQLite file (repomem/storage/closedversions.py).
A store on a Chroma server keeps every version in Chroma (its readers have no local file).

Chroma's PersistentClient is not process-safe, so every use of a store happens under a file
lock: one writer at a time (exclusive), readers shared.  A writer bumps a generation counter when
it finishes, so a long-lived reader can tell that its open client may hold stale state and
reopen it.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import threading
import time
from pathlib import Path
from typing import Any

from repomem.core.errors import RepomemError
from repomem.core.ledger import Version
from repomem.core.model import short_hash
from repomem.core.records import CommitRecord
from repomem.storage import atomic
from repomem.storage.chromaimport import import_chromadb
from repomem.storage.closedversions import ClosedVersions, meta_text
from repomem.storage.recordstore import RecordStore, SqliteRecords

CHROMA_FILE = "chroma.sqlite3"  # Chroma's database: the version view
SNAPSHOT = "current-view.npz"  # the current-view snapshot (repomem/service/viewcache.py)
# 2: version payload in one JSON field; 3: records in packs; 4: records in SQLite; 5: closed
# versions in SQLite too.  A store of schema 4 (every version in Chroma) is read as it is: its
# first writer moves its closed versions (``Store.check_embedder``).
SCHEMA = 5
_READABLE = (4, 5)
# A store on a Chroma server keeps schema 4's layout (every version in its collection), so it
# stays schema 4: a teammate on the previous release still reads it.
SERVER_SCHEMA = 4
FOREVER = 253402300799  # 9999-12-31T23:59:59Z: valid_to of a current version (Chroma has no null)
_BATCH = 500  # rows a Chroma call


def valid_at(t: int) -> dict:
    return {"$and": [{"valid_from": {"$lte": t}}, {"valid_to": {"$gt": t}}]}


def stored_pair(key: str, value: str = "true") -> str:
    """An attrs pair as version_meta writes it into a row's attrs JSON (``["runtime", "true"]``):
    a reader tests a row for it with ``in``, without parsing every row's JSON."""
    return json.dumps([key, value])


def version_meta(v: Version) -> dict:
    """Chroma metadata of a version.  Only what queries filter on is a field of its own; the
    rest travels as one JSON payload (each metadata field costs Chroma an indexed row, and the
    writes were the larger part of ingestion time)."""
    payload = {"subject": v.subject, "value": v.value,
               "attrs": json.dumps([list(a) for a in v.attrs]), "is_set": v.is_set,
               "commit": v.commit, "recorded_at": v.recorded_at, "path": v.path, "line": v.line,
               "text": v.text, "purpose": v.purpose, "superseded_by": v.superseded_by or "",
               "end_reason": v.end_reason or "", "end_commit": v.end_commit or "",
               "former": [list(f) for f in v.former], "spans": [list(p) for p in v.spans]}
    if v.moved_from:  # (a key only a renamed file's settings have)
        payload["moved_from"] = list(v.moved_from)
    return {"key": v.key, "kind": v.kind, "valid_from": v.valid_from,
            "valid_to": FOREVER if v.valid_to is None else v.valid_to,
            "payload": json.dumps(payload, ensure_ascii=False, sort_keys=True)}


def version_row(id_: str, meta: dict, **extra) -> dict:
    """A version row as callers see it: filter fields and payload fields side by side."""
    row = {k: v for k, v in meta.items() if k != "payload"}
    row.update(json.loads(meta["payload"]))
    row.update(id=id_, **extra)
    return row


def version_document(v: Version) -> str:
    return f"{v.subject}. {v.purpose}. {v.value}. {v.path}"


# One chroma client per store path in this process, with the store generation it was opened at.
# chroma caches one System per path and hands it to every PersistentClient for that path, so a
# client opened before another process wrote must be stopped, not just forgotten, or the next
# PersistentClient gets the same stale HNSW index ("Error finding id").
_CLIENTS: dict[str, tuple[str | None, object]] = {}


def _drop_client(path: str) -> None:
    import_chromadb()
    from chromadb.api.shared_system_client import SharedSystemClient

    _CLIENTS.pop(path, None)
    system = SharedSystemClient._identifier_to_system.pop(path, None)
    SharedSystemClient._identifier_to_refcount.pop(path, None)
    if system is not None:
        system.stop()


def _client_for(path: str, generation: str | None):
    hit = _CLIENTS.get(path)
    if hit is not None and hit[0] == generation:
        return hit[1]
    _drop_client(path)
    chromadb = import_chromadb()
    from chromadb.config import Settings

    client = chromadb.PersistentClient(path=path, settings=Settings(anonymized_telemetry=False,
                                                                    allow_reset=False))
    _CLIENTS[path] = (generation, client)
    return client


def _version_row(v: Version) -> tuple[str, dict, str]:
    """(id, metadata with the document's hash, document) of one version's Chroma row."""
    meta, doc = version_meta(v), version_document(v)
    meta["doc_hash"] = short_hash(doc)
    return v.id, meta, doc


def _vectors(embedder, docs: list[str]) -> list[bytes]:
    """Each document's embedding as float32 bytes, as a closed version's row keeps it (Chroma
    keeps float32 vectors too: an as-of question is ranked on the same numbers)."""
    from repomem.adapters.embed import embed_matrix

    return [row.tobytes() for row in embed_matrix(embedder, docs)] if docs else []


def _upsert(col, rows: list[tuple[str, dict, str]], embedder) -> None:
    """Rows written with their embeddings, in batches.  No Chroma document: it would be
    full-text indexed at ~0.5 ms a row, and the text is a function of the payload
    (version_document) anyway."""
    for i in range(0, len(rows), _BATCH):
        chunk = rows[i:i + _BATCH]
        col.upsert(ids=[c[0] for c in chunk], metadatas=[c[1] for c in chunk],
                   embeddings=embedder.embed([c[2] for c in chunk]))


class Store:
    def __init__(self, path: Path, embedder_spec: str | None = None, worktree: str = "",
                 remote=None):
        self.path = Path(path)  # with a remote (repomem/remote.py): the local cache folder
        self.remote = remote
        # Commit records are shared by all worktrees of a repository; each worktree has its own
        # view (its HEAD's fold): meta key, versions collection, snapshot and fold state.
        self.worktree = worktree
        self._client: Any = None  # a chromadb client, opened on first use
        self._cols: dict = {}
        self._generation: str | None = None
        self.embedder_spec = embedder_spec  # asked for on the command line; None = as stored
        self._lock_depth = 0
        self._lock_fd: int | None = None
        self._lock_mode = 0
        self._thread_lock = threading.RLock()
        self._sqlite: SqliteRecords | None = SqliteRecords(self.path)
        self.records: RecordStore = self._sqlite
        self.prefix = "repomem"  # of collection names
        if remote is not None:
            from repomem.storage.chromarecords import ChromaRecords

            self.prefix = remote.prefix
            self._sqlite = None
            self.records = ChromaRecords(remote, self._chroma)

    def _chroma(self):
        if self._client is None:
            self._client = (self.remote.client() if self.remote is not None
                            else _client_for(str(self.path), self._generation))
        return self._client

    # -- locking -------------------------------------------------------------------------------
    @contextlib.contextmanager
    def _locked(self, mode: int):
        # Threads of one process (an MCP server) take turns: the flock is per process, so without
        # this a second thread would walk into the first one's lock as if it were re-entering.
        with self._thread_lock:
            if self._lock_depth:  # re-entrant within one thread
                if mode == fcntl.LOCK_EX and self._lock_mode != fcntl.LOCK_EX:
                    raise RuntimeError("store writer() inside reader(): a shared lock cannot be "
                                       "upgraded; leave the reader first")
                self._lock_depth += 1
                try:
                    yield self
                finally:
                    self._lock_depth -= 1
                return
            fd = self._open_lock(mode)
            fcntl.flock(fd, mode)
            self._lock_fd, self._lock_depth, self._lock_mode = fd, 1, mode
            try:
                self._refresh()
                if mode == fcntl.LOCK_EX:
                    # Bumped on entry too: a writer SIGKILLed mid-write never reaches the bump in
                    # `finally`, and other processes' clients must not trust what it left.
                    self._bump_generation()
                yield self
            finally:
                if mode == fcntl.LOCK_EX:
                    self._bump_generation()
                self._lock_depth = 0
                self._lock_fd = None
                os.close(fd)  # releases the lock

    def _open_lock(self, mode: int) -> int:
        if self.path.exists() and not self.path.is_dir():
            raise RepomemError(f"the store path {self.path} is not a directory",
                               hint="pass --store DIR with a directory")
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            return os.open(self.path / "lock", os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as e:
            if e.errno not in (errno.EACCES, errno.EPERM, errno.EROFS):
                raise
            if mode == fcntl.LOCK_SH and (self.path / "lock").exists():
                return os.open(self.path / "lock", os.O_RDONLY)  # a read-only store: read it
            raise RepomemError(f"the store at {self.path} is not writable",
                               hint=f"make it writable (chmod -R u+w {self.path}) or pass "
                                    "--store DIR with a writable copy") from None

    def writer(self):
        return self._locked(fcntl.LOCK_EX)

    def reader(self):
        return self._locked(fcntl.LOCK_SH)

    def view_name(self, base: str) -> str:
        """Per-worktree name of a view artefact (the main work tree keeps the plain names)."""
        return f"{base}_{self.worktree}" if self.worktree else base

    @property
    def snapshot_file(self) -> Path:
        stem, _, ext = SNAPSHOT.rpartition(".")
        return self.path / (f"{stem}.{self.worktree}.{ext}" if self.worktree else SNAPSHOT)

    def _gen_file(self) -> Path:
        return self.path / "generation"

    def _read_generation(self) -> str:
        try:
            return self._gen_file().read_text()
        except FileNotFoundError:
            return ""

    def _bump_generation(self) -> None:
        atomic.write_text(self._gen_file(), f"{time.time_ns()}-{os.getpid()}")
        gen = self._read_generation()
        if self._client is not None and _CLIENTS.get(str(self.path)) == (self._generation,
                                                                          self._client):
            _CLIENTS[str(self.path)] = (gen, self._client)  # our own write: the client is current
        self._generation = gen

    def _refresh(self) -> None:
        """Drop a client that another process's write may have made stale.  The client is shared
        by every Store of this path in the process (chroma caches one system per path), so a new
        Store must not inherit a system opened before another process's write either."""
        gen = self._read_generation()
        if self._client is not None and self.remote is None and (gen != self._generation
                                         or _CLIENTS.get(str(self.path)) != (gen, self._client)):
            self._cols.clear()
            self._client = None
        self._generation = gen

    # -- chroma --------------------------------------------------------------------------------
    def exists(self) -> bool:
        """A store of this format (records.sqlite3), or one of an older format, which the first
        read then names (with the command that rebuilds it)."""
        return self.records.exists() or (self.path / "chroma.sqlite3").exists()

    def _check_format(self) -> None:
        if not self.records.exists() and (self.path / "chroma.sqlite3").exists():
            # Schema 3 and older kept records and metadata in Chroma; re-mining is the migration
            # (same records, same facts: mining depends on the commits alone).
            raise RepomemError(f"the store at {self.path} has an older format",
                               hint=f"rebuild it from git: mv {self.path} {self.path}.old && "
                                    f"repomem init --store {self.path}")

    def _col(self, name: str):
        col = self._cols.get(name)
        if col is None:
            meta = {"hnsw:space": "cosine"} if name == "versions" else None
            cname = self.view_name(name) if name == "versions" else name
            col = self._chroma().get_or_create_collection(f"{self.prefix}_{cname}",
                                                        embedding_function=None,
                                                        metadata=meta)
            self._cols[name] = col
        return col

    def close(self) -> None:
        self.records.close()
        if self._client is not None:
            self._cols.clear()
            self._client = None
            if self.remote is None:
                _drop_client(str(self.path))

    # -- metadata, commit records (the record store) --------------------------------------------
    def get_meta(self, name: str):
        self._check_format()
        return self.records.get_meta(name) if self.records.exists() else None

    def set_meta(self, name: str, value) -> None:
        self._check_format()
        self.records.set_meta(name, value)

    def check_embedder(self, embedder, create: bool) -> None:
        """A store is bound to the embedder it was built with; vectors of two never mix."""
        have = self.get_meta("embedder")
        if have is None:
            if not create:
                raise RepomemError(f"no repomem store at {self.path}",
                                   hint="run 'repomem init' in the repository first")
            # Embed once before binding the store to this embedder: an unreachable server or a
            # missing model fails here and leaves no store tied to an embedder that never ran.
            embedder.embed(["repomem"])
            self.set_meta("schema", SCHEMA if self.remote is None else SERVER_SCHEMA)
            self.set_meta("embedder", embedder.name)
        elif (self.get_meta("schema") or 1) not in _READABLE:
            raise RepomemError(f"the store at {self.path} has an older format",
                               hint=f"delete {self.path} and run 'repomem init' again")
        elif have != embedder.name:
            raise RepomemError(f"this store was built with embedder {have!r}, not {embedder.name!r}",
                               hint=f"pass --embedder {have} or use another --store")
        elif self.remote is None and self.get_meta("schema") != SCHEMA \
                and self._lock_mode == fcntl.LOCK_EX and self._lock_depth:
            self._move_closed_out_of_chroma()
            self.set_meta("schema", SCHEMA)

    def _move_closed_out_of_chroma(self) -> None:
        """A schema 4 store kept its closed versions in Chroma: move this view's to SQLite, with
        their embeddings (other work trees' views move when their writers sync them; until then
        they are read where they are).  Written before deleted: a crash in between leaves a row
        in both places, which reads take once."""
        import numpy as np

        closed = self._closed()
        if closed is None:
            return
        col = self._col("versions")
        while True:
            got = col.get(where={"valid_to": {"$lt": FOREVER}},
                          include=["metadatas", "embeddings"], limit=_BATCH * 4)
            if not len(got["ids"]):
                return
            closed.put([(i, m, np.asarray(e, dtype=np.float32).tobytes())
                        for i, m, e in zip(got["ids"], got["metadatas"], got["embeddings"])])
            for k in range(0, len(got["ids"]), _BATCH):
                col.delete(ids=got["ids"][k:k + _BATCH])

    def _has_records(self) -> bool:
        self._check_format()
        return self.records.exists()

    def record_shas(self) -> list[str]:
        """Every recorded commit, once per time it was recorded (a test checks: once)."""
        return self.records.record_shas() if self._has_records() else []

    def ingested(self) -> set[str]:
        return self.records.ingested() if self._has_records() else set()

    def put_records(self, recs: list[CommitRecord], ingested_at: int) -> None:
        self._check_format()
        self.records.put_records(recs, ingested_at)

    def load_records(self, shas: list[str]) -> dict[str, tuple[CommitRecord, int]]:
        return self.records.load_records(shas)

    def replace_records(self, recs: list[CommitRecord], ingested_at: int) -> None:
        self.records.replace_records(recs, ingested_at)

    def record_packs(self) -> list[tuple[str, list[str], int]]:
        """``(pack id, its commits, ingested_at)`` of every batch (for ``index.rebuild``)."""
        return self.records.record_packs()

    def rewrite_pack(self, pack_id: str, recs: list[CommitRecord]) -> None:
        """Rewrite one batch with re-mined records of the same commits (``repomem rebuild``):
        each commit's transaction time stays as it was."""
        self.records.rewrite_pack(pack_id, recs)

    def drop_views(self) -> None:
        """Delete every work tree's view (collection, view state, snapshot, fold state) so each
        is rebuilt from the records: after ``repomem rebuild`` no old row may linger in Chroma's
        log, and no work tree may take an emptied collection for a current view."""
        for col in self._chroma().list_collections():
            name = getattr(col, "name", col)
            if name == f"{self.prefix}_versions" or name.startswith(f"{self.prefix}_versions_"):
                self._client.delete_collection(name)
        self._cols.pop("versions", None)
        closed = self._closed()
        if closed is not None:
            closed.drop()
        stale = [m for m in self.records.meta_names() if m == "view" or m.startswith("view_")]
        self.records.delete_meta(stale)
        self.records.drop_folds()
        for f in self.path.glob("current-view*.npz"):
            f.unlink(missing_ok=True)

    def vacuum(self) -> None:
        """Chroma's own maintenance step (``chroma utils vacuum``) on the closed database:
        deleted rows leave their bytes in free pages until SQLite rewrites the file."""
        import sqlite3

        self.records.vacuum()
        if self.remote is not None:
            return
        self.close()
        con = sqlite3.connect(self.path / "chroma.sqlite3", timeout=30)
        try:
            con.execute("VACUUM")
        finally:
            con.close()

    # -- the version view ----------------------------------------------------------------------
    def _closed(self) -> ClosedVersions | None:
        """This view's closed versions in SQLite; None for a store on a server (all in Chroma)."""
        if self._sqlite is None:
            return None
        return ClosedVersions(self._sqlite.con, self.view_name("versions"))

    def put_versions(self, versions: list[Version], embedder) -> None:
        """Write these versions' rows as they are, without reading the view first (a first
        ingest writes closed versions, which never change again, while workers mine)."""
        closed = self._closed()
        if closed is None:
            _upsert(self._col("versions"), [_version_row(v) for v in versions], embedder)
            return
        done = [_version_row(v) for v in versions if v.valid_to is not None]
        closed.put(zip((i for i, _, _ in done), (m for _, m, _ in done),
                       _vectors(embedder, [d for _, _, d in done])))
        if any(v.valid_to is None for v in versions):  # (closed ones alone need no Chroma)
            _upsert(self._col("versions"),
                    [_version_row(v) for v in versions if v.valid_to is None], embedder)

    def sync_versions(self, versions: list[Version], embedder,
                      complete: bool = True, known: set[str] | None = None) -> dict[str, int]:
        """Write these versions, touching only rows that differ.  complete: they are the whole
        view (rows not among them are dropped); else the rest of the view stays as it is.
        known: ids whose rows this writer wrote already as they are (``put_versions``)."""
        closed = self._closed()
        if closed is None:
            return self._sync_chroma(versions, embedder, complete, known)
        known = known or set()
        col = self._col("versions")
        ids = [v.id for v in versions]
        # current versions: Chroma (and a schema 4 store's closed ones, moved here as touched)
        got = col.get(include=["metadatas"]) if complete else \
            col.get(ids=ids, include=["metadatas"]) if ids else {"ids": [], "metadatas": []}
        in_chroma: dict[str, dict] = dict(zip(got["ids"], got["metadatas"]))
        # closed versions: SQLite; the rows this writer has just written are not read back
        in_sql: dict[str, tuple[str, str] | None] = {}
        if complete and known:
            have = closed.ids()
            in_sql.update(dict.fromkeys(have))
            in_sql.update(closed.stored([i for i in have if i not in known]))
        elif complete:
            in_sql.update(closed.stored())
        elif ids:
            mine = [i for i in ids if i in known]
            in_sql.update(dict.fromkeys(set(closed.stored(mine)) if mine else ()))
            in_sql.update(closed.stored([i for i in ids if i not in known]))
        add_chroma: list[tuple[str, dict, str]] = []
        add_sql: list[tuple[str, dict, str]] = []
        moved: list[tuple[str, dict, str]] = []
        meta_chroma: list[tuple[str, dict]] = []
        meta_sql: list[tuple[str, dict]] = []
        drop_chroma: list[str] = []
        drop_sql: list[str] = []
        early = 0
        for v in versions:
            if v.id in known and v.id in in_sql:  # added by this writer, before this call
                early += 1
                if v.id in in_chroma:
                    drop_chroma.append(v.id)
                continue
            row = _version_row(v)
            meta = row[1]
            if v.valid_to is None:  # current: a Chroma row
                if v.id in in_sql:
                    drop_sql.append(v.id)
                old = in_chroma.get(v.id)
                if old is None or old.get("doc_hash") != meta["doc_hash"]:
                    add_chroma.append(row)
                elif old != meta:
                    meta_chroma.append((v.id, meta))
            elif v.id in in_chroma:  # closed since the view was written: moved to SQLite
                drop_chroma.append(v.id)
                same_doc = in_chroma[v.id].get("doc_hash") == meta["doc_hash"]
                (moved if same_doc else add_sql).append(row)
                if v.id in in_sql:
                    meta_sql.append((v.id, meta))  # (a crash left it in both places)
            elif v.id in in_sql:
                doc_hash, text = in_sql[v.id] or ("", "")
                if doc_hash != meta["doc_hash"]:
                    add_sql.append(row)
                elif text != meta_text(meta):
                    meta_sql.append((v.id, meta))
            else:
                add_sql.append(row)
        want = set(ids)
        gone_chroma = [i for i in in_chroma if i not in want] if complete else []
        gone_sql = [i for i in in_sql if i not in want] if complete else []
        # SQLite first, Chroma after: a crash in between leaves a row in both places (read once)
        # rather than in none (the view is marked incomplete meanwhile and redone anyway)
        if moved:  # their embeddings as Chroma has them: the document is the same
            vecs = col.get(ids=[m[0] for m in moved], include=["embeddings"])
            by_id = dict(zip(vecs["ids"], vecs["embeddings"]))
            import numpy as np

            closed.put([(i, m, np.asarray(by_id[i], dtype=np.float32).tobytes())
                        for i, m, _ in moved if i in by_id])
            add_sql += [r for r in moved if r[0] not in by_id]
        closed.put(zip((r[0] for r in add_sql), (r[1] for r in add_sql),
                       _vectors(embedder, [r[2] for r in add_sql])))
        closed.update_meta(meta_sql)
        closed.delete(drop_sql + gone_sql)
        _upsert(col, add_chroma, embedder)
        for i in range(0, len(meta_chroma), _BATCH):
            upd = meta_chroma[i:i + _BATCH]
            col.update(ids=[c[0] for c in upd], metadatas=[c[1] for c in upd])
        drop = drop_chroma + gone_chroma
        for i in range(0, len(drop), _BATCH):
            col.delete(ids=drop[i:i + _BATCH])
        return {"added": len(add_chroma) + len(add_sql) + early,
                "updated": len(meta_chroma) + len(meta_sql) + len(moved),
                "dropped": len(gone_chroma) + len(gone_sql)}

    def _sync_chroma(self, versions: list[Version], embedder, complete: bool,
                     known: set[str] | None) -> dict[str, int]:
        """``sync_versions`` of a store on a server: every version a Chroma row."""
        known = known or set()
        col = self._col("versions")
        if known:
            # the metadata of rows this writer has just written is not read back (on httpx all
            # of a history's closed versions at once: ~50 MB more peak memory)
            mine = {v.id for v in versions if v.id in known}
            ids = col.get(include=[])["ids"] if complete else \
                col.get(ids=list(mine), include=[])["ids"] if mine else []
            ask = [i for i in ids if i not in mine] if complete else \
                [v.id for v in versions if v.id not in mine]
            existing = col.get(ids=ask, include=["metadatas"]) if ask else \
                {"ids": [], "metadatas": []}
            have: dict = dict.fromkeys(ids, {})
        elif complete:
            existing, have = col.get(include=["metadatas"]), {}
        elif versions:
            existing, have = col.get(ids=[v.id for v in versions], include=["metadatas"]), {}
        else:
            existing, have = {"ids": [], "metadatas": []}, {}
        have.update(zip(existing["ids"], existing["metadatas"]))
        add, update_meta, stats = [], [], {"added": 0, "updated": 0, "dropped": 0}
        want_ids, early = set(), 0
        for v in versions:
            want_ids.add(v.id)
            if v.id in known and v.id in have:
                early += 1  # added by this writer, before this call
                continue
            row = _version_row(v)
            meta = row[1]
            old = have.get(v.id)
            if old is None or old.get("doc_hash") != meta["doc_hash"]:
                add.append(row)
            elif old != meta:
                update_meta.append((v.id, meta))
        _upsert(col, add, embedder)
        for i in range(0, len(update_meta), _BATCH):
            upd = update_meta[i:i + _BATCH]
            col.update(ids=[c[0] for c in upd], metadatas=[c[1] for c in upd])
        gone = [i for i in have if i not in want_ids] if complete else []
        for i in range(0, len(gone), _BATCH):
            col.delete(ids=gone[i:i + _BATCH])
        stats.update(added=len(add) + early, updated=len(update_meta), dropped=len(gone))
        return stats

    def count_versions(self) -> int:
        closed = self._closed()
        return self._col("versions").count() + (closed.count() if closed is not None else 0)

    def _with_closed(self, got: dict, where: dict | None = None, ids: list[str] | None = None,
                     embeddings: bool = False) -> tuple[list[dict], Any]:
        """The rows of a Chroma ``get`` (its embeddings when asked) followed by the closed
        versions in SQLite that match the same filter; a row in both places is read once."""
        rows = self._version_rows(got)
        vecs = got["embeddings"] if embeddings and len(rows) else []
        closed = self._closed()
        if closed is None:
            return rows, vecs
        seen = {row["id"] for row in rows}
        c_ids, c_metas, c_embs = closed.get(where, ids, embeddings)
        more = [(i, m, e) for i, m, e in zip(c_ids, c_metas, c_embs or [b""] * len(c_ids))
                if i not in seen]
        rows += [version_row(i, m) for i, m, _ in more]
        if embeddings and more:
            import numpy as np

            mat = np.frombuffer(b"".join(e for _, _, e in more), dtype=np.float32)
            mat = mat.reshape(len(more), -1)
            vecs = np.concatenate([np.asarray(vecs, dtype=np.float32), mat]) if len(vecs) else mat
        return rows, vecs

    def valid_rows(self, t: int) -> tuple[list[dict], list]:
        """Every version valid at t with its embedding: what an as-of question is ranked over."""
        got = self._col("versions").get(where=valid_at(t), include=["metadatas", "embeddings"])
        return self._with_closed(got, valid_at(t), embeddings=True)

    def rows(self, where: dict | None = None) -> list[dict]:
        got = self._col("versions").get(where=where, include=["metadatas"])
        return self._with_closed(got, where)[0]

    def current_rows(self) -> tuple[list[dict], list]:
        """Versions still open (valid_to = FOREVER), with their embeddings, for the snapshot
        (Chroma's rows: no open version is kept anywhere else)."""
        got = self._col("versions").get(where={"valid_to": FOREVER},
                                        include=["metadatas", "embeddings"])
        rows = self._version_rows(got)
        return rows, got["embeddings"] if len(rows) else []

    def get_rows(self, ids: list[str]) -> list[dict]:
        got = self._col("versions").get(ids=ids, include=["metadatas"])
        return self._with_closed(got, ids=ids)[0]

    def check_versions(self, page: int = 1000) -> int:
        """Read every row of the view in pages (a server caps what one response may carry),
        checking each as ``rows`` does; returns how many there are."""
        col, n = self._col("versions"), 0
        while True:
            got = col.get(include=["metadatas"], limit=page, offset=n)
            self._version_rows(got)
            n += len(got["ids"])
            if len(got["ids"]) < page:
                break
        closed = self._closed()
        if closed is not None:
            ids, metas, _ = closed.get()
            n += len([version_row(i, m) for i, m in zip(ids, metas)])
        return n

    def _version_rows(self, got) -> list[dict]:
        """Rows of a Chroma ``get``; a server's are checked first (repomem/storage/rowcheck.py):
        anyone with its token can write any row."""
        if self.remote is not None:
            from repomem.storage.rowcheck import bad_row, check_version

            name = f"{self.prefix}_{self.view_name('versions')}"
            ids, metas = got.get("ids"), got.get("metadatas")
            if not isinstance(ids, list) or not isinstance(metas, list) or len(ids) != len(metas):
                raise bad_row(self.remote, name, "", "the server's answer has no rows")
            for i, m in zip(ids, metas):
                check_version(self.remote, name, i, m)
        return [version_row(i, m) for i, m in zip(got["ids"], got["metadatas"])]
