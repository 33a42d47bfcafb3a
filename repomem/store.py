"""The Chroma store: commit records (the source of truth), the materialised version view, and
a little metadata (schema, embedder, which view is materialised).

Chroma's PersistentClient is not process-safe, so every use of a store happens under a file
lock: one writer at a time (exclusive), readers shared.  A writer bumps a generation counter when
it finishes, so a long-lived reader can tell that its open client may hold stale state and
reopen it.
"""

from __future__ import annotations

import base64
import contextlib
import errno
import fcntl
import json
import os
import threading
import time
import zlib
from pathlib import Path

from repomem.errors import RepomemError
from repomem.ledger import Version
from repomem.mining import CommitRecord
from repomem.model import canonical_json, short_hash
# Where a store lives and which repository it belongs to: repomem/storepath.py (re-exported for
# callers that import them from here).
from repomem.storepath import default_store_path, resolve_store_path  # noqa: F401

SCHEMA = 3  # 2: version payload in one JSON field; 3: commit records in packs
FOREVER = 253402300799  # 9999-12-31T23:59:59Z: valid_to of a current version (Chroma has no null)
_BATCH = 500  # rows a Chroma call; also commits a record pack


def valid_at(t: int) -> dict:
    return {"$and": [{"valid_from": {"$lte": t}}, {"valid_to": {"$gt": t}}]}


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
    import chromadb
    from chromadb.config import Settings

    client = chromadb.PersistentClient(path=path, settings=Settings(anonymized_telemetry=False,
                                                                    allow_reset=False))
    _CLIENTS[path] = (generation, client)
    return client


class Store:
    def __init__(self, path: Path, embedder_spec: str | None = None, worktree: str = ""):
        self.path = Path(path)
        # Commit records are shared by all worktrees of a repository; each worktree has its own
        # view (its HEAD's fold): meta key, versions collection, snapshot and fold state.
        self.worktree = worktree
        self._client = None
        self._cols: dict = {}
        self._generation = None
        self.embedder_spec = embedder_spec  # asked for on the command line; None = as stored
        self._lock_depth = 0
        self._lock_fd: int | None = None
        self._lock_mode = 0
        self._thread_lock = threading.RLock()

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
        from repomem.viewcache import SNAPSHOT

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
        tmp = self.path / "generation.tmp"
        tmp.write_text(f"{time.time_ns()}-{os.getpid()}")
        os.replace(tmp, self._gen_file())
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
        if self._client is not None and (gen != self._generation
                                         or _CLIENTS.get(str(self.path)) != (gen, self._client)):
            self._cols.clear()
            self._client = None
        self._generation = gen

    # -- chroma --------------------------------------------------------------------------------
    def exists(self) -> bool:
        return (self.path / "chroma.sqlite3").exists()

    def _col(self, name: str):
        col = self._cols.get(name)
        if col is None:
            if self._client is None:
                self._client = _client_for(str(self.path), self._generation)
            meta = {"hnsw:space": "cosine"} if name == "versions" else None
            cname = self.view_name(name) if name == "versions" else name
            col = self._client.get_or_create_collection(f"repomem_{cname}", embedding_function=None,
                                                        metadata=meta)
            self._cols[name] = col
        return col

    def close(self) -> None:
        if self._client is not None:
            self._cols.clear()
            self._client = None
            _drop_client(str(self.path))

    # -- metadata ------------------------------------------------------------------------------
    def get_meta(self, name: str):
        got = self._col("meta").get(ids=[name], include=["documents"])
        return json.loads(got["documents"][0]) if got["ids"] else None

    def set_meta(self, name: str, value) -> None:
        self._col("meta").upsert(ids=[name], embeddings=[[1.0]], documents=[json.dumps(value)])

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
            self.set_meta("schema", SCHEMA)
            self.set_meta("embedder", embedder.name)
        elif (self.get_meta("schema") or 1) != SCHEMA:
            raise RepomemError(f"the store at {self.path} has an older format",
                               hint=f"delete {self.path} and run 'repomem init' again")
        elif have != embedder.name:
            raise RepomemError(f"this store was built with embedder {have!r}, not {embedder.name!r}",
                               hint=f"pass --embedder {have} or use another --store")

    # -- commit records ------------------------------------------------------------------------
    # Records are written in packs: one `repomem_commits` row per ingestion batch lists its
    # commits (what `ingested` reads), and a `repomem_packs` row with the same id holds their
    # records, zlib-compressed in one metadata field.  Chroma's cost is per row (and a document
    # would be full-text indexed), so a row per commit was a quarter of ingestion time.
    def _index(self) -> list[tuple[str, list[str], int]]:
        got = self._col("commits").get(include=["metadatas"])
        return [(i, m["shas"].split(","), int(m["ingested_at"]))
                for i, m in zip(got["ids"], got["metadatas"])]

    def record_shas(self) -> list[str]:
        """Every recorded commit, once per time it was recorded (a test checks: once)."""
        return [sha for _, shas, _ in self._index() for sha in shas]

    def ingested(self) -> set[str]:
        return set(self.record_shas())

    def put_records(self, recs: list[CommitRecord], ingested_at: int) -> None:
        # Never rewritten: a record that exists stays as first ingested (idempotent, and the
        # transaction time of the first ingestion is kept).
        have = self.ingested()
        new = list({r.sha: r for r in recs if r.sha not in have}.values())
        for i in range(0, len(new), _BATCH):
            chunk = new[i:i + _BATCH]
            shas = [r.sha for r in chunk]
            pack_id = "pack-" + short_hash(*shas, n=24)
            blob = zlib.compress(canonical_json({r.sha: r.to_json() for r in chunk}).encode(), 3)
            # Data first, then the index row that makes it count: a crash between the two
            # leaves an orphan that the retry overwrites with identical content.
            self._col("packs").upsert(ids=[pack_id], embeddings=[[1.0]], metadatas=[
                {"records": base64.b64encode(blob).decode("ascii")}])
            self._col("commits").add(ids=[pack_id], embeddings=[[1.0]], metadatas=[
                {"shas": ",".join(shas), "ingested_at": ingested_at}])

    def load_records(self, shas: list[str]) -> dict[str, tuple[CommitRecord, int]]:
        want = set(shas)
        # A pack counts only for the commits its index row lists: a replaced record (see
        # replace_records) stays in its old pack's data but is no longer listed there.
        packs = {pid: (set(pshas), t) for pid, pshas, t in self._index() if want.intersection(pshas)}
        out: dict[str, tuple[CommitRecord, int]] = {}
        ids = sorted(packs)
        for i in range(0, len(ids), 50):
            got = self._col("packs").get(ids=ids[i:i + 50], include=["metadatas"])
            for pid, meta in zip(got["ids"], got["metadatas"]):
                data = json.loads(zlib.decompress(base64.b64decode(meta["records"])))
                listed, t = packs[pid]
                for sha, rec in data.items():
                    if sha in want and sha in listed and sha not in out:
                        out[sha] = (CommitRecord.from_json(rec), t)
        return out

    def replace_records(self, recs: list[CommitRecord], ingested_at: int) -> None:
        """Re-mined records (a shallow clone's boundary commit after ``git fetch --unshallow``)
        take the place of the stored ones: the new pack is written first, then the old index
        rows stop listing those commits.  A crash in between lists a commit twice; the duplicate
        is dropped by the next call (record_shas counts it once per row, load_records takes
        the first pack, and both hold a record of the same commit)."""
        if not recs:
            return
        shas = {r.sha for r in recs}
        old = [(pid, pshas, t) for pid, pshas, t in self._index() if shas.intersection(pshas)]
        pack_id = "pack-" + short_hash("replaced", str(ingested_at), *sorted(shas), n=24)
        blob = zlib.compress(canonical_json({r.sha: r.to_json() for r in recs}).encode(), 3)
        self._col("packs").upsert(ids=[pack_id], embeddings=[[1.0]], metadatas=[
            {"records": base64.b64encode(blob).decode("ascii")}])
        self._col("commits").upsert(ids=[pack_id], embeddings=[[1.0]], metadatas=[
            {"shas": ",".join(sorted(shas)), "ingested_at": ingested_at}])
        for pid, pshas, t in old:
            if pid == pack_id:
                continue
            keep = [x for x in pshas if x not in shas]
            if keep:
                self._col("commits").update(ids=[pid], metadatas=[
                    {"shas": ",".join(keep), "ingested_at": t}])
            else:
                self._col("commits").delete(ids=[pid])

    def record_packs(self) -> list[tuple[str, list[str], int]]:
        """``(pack id, its commits, ingested_at)`` of every pack (for ``index.rebuild``)."""
        return self._index()

    def rewrite_pack(self, pack_id: str, recs: list[CommitRecord]) -> None:
        """Rewrite one pack with re-mined records of the same commits (``repomem rebuild``): the
        index row, and so each commit's transaction time, stays as it was."""
        blob = zlib.compress(canonical_json({r.sha: r.to_json() for r in recs}).encode(), 3)
        self._col("packs").upsert(ids=[pack_id], embeddings=[[1.0]], metadatas=[
            {"records": base64.b64encode(blob).decode("ascii")}])

    def drop_views(self) -> None:
        """Delete every work tree's view (collection, view state, snapshot, fold state) so each
        is rebuilt from the records: after ``repomem rebuild`` no old row may linger in Chroma's
        log, and no work tree may take an emptied collection for a current view."""
        from repomem import foldstate

        self._col("meta")
        for col in self._client.list_collections():
            name = getattr(col, "name", col)
            if name == "repomem_versions" or name.startswith("repomem_versions_"):
                self._client.delete_collection(name)
        self._cols.pop("versions", None)
        metas = self._col("meta").get(include=[])["ids"]
        stale = [m for m in metas if m == "view" or m.startswith("view_")]
        if stale:
            self._col("meta").delete(ids=stale)
        stem = foldstate.NAME.split(".json")[0]
        for f in [*self.path.glob("current-view*.npz"), *self.path.glob(f"{stem}*.json.gz")]:
            f.unlink(missing_ok=True)

    def vacuum(self) -> None:
        """Chroma's own maintenance step (``chroma utils vacuum``) on the closed database:
        deleted rows leave their bytes in free pages until SQLite rewrites the file."""
        import sqlite3

        self.close()
        con = sqlite3.connect(self.path / "chroma.sqlite3", timeout=30)
        try:
            con.execute("VACUUM")
        finally:
            con.close()

    # -- the version view ----------------------------------------------------------------------
    def sync_versions(self, versions: list[Version], embedder,
                      complete: bool = True) -> dict[str, int]:
        """Write these versions, touching only rows that differ.  complete: they are the whole
        view (rows not among them are dropped); else the rest of the view stays as it is."""
        col = self._col("versions")
        if complete:
            existing = col.get(include=["metadatas"])
        elif versions:
            existing = col.get(ids=[v.id for v in versions], include=["metadatas"])
        else:
            existing = {"ids": [], "metadatas": []}
        have = {i: m for i, m in zip(existing["ids"], existing["metadatas"])}
        add, update_meta, stats = [], [], {"added": 0, "updated": 0, "dropped": 0}
        want_ids = set()
        for v in versions:
            want_ids.add(v.id)
            meta = version_meta(v)
            doc = version_document(v)
            meta["doc_hash"] = short_hash(doc)
            old = have.get(v.id)
            if old is None or old.get("doc_hash") != meta["doc_hash"]:
                add.append((v.id, meta, doc))
            elif old != meta:
                update_meta.append((v.id, meta))
        for i in range(0, len(add), _BATCH):
            chunk = add[i:i + _BATCH]
            # No Chroma document: it would be full-text indexed at ~0.5 ms a row, and the text
            # is a function of the payload (version_document) anyway.
            col.upsert(ids=[c[0] for c in chunk], metadatas=[c[1] for c in chunk],
                       embeddings=embedder.embed([c[2] for c in chunk]))
        for i in range(0, len(update_meta), _BATCH):
            chunk = update_meta[i:i + _BATCH]
            col.update(ids=[c[0] for c in chunk], metadatas=[c[1] for c in chunk])
        gone = [i for i in have if i not in want_ids] if complete else []
        for i in range(0, len(gone), _BATCH):
            col.delete(ids=gone[i:i + _BATCH])
        stats.update(added=len(add), updated=len(update_meta), dropped=len(gone))
        return stats

    def count_versions(self) -> int:
        return self._col("versions").count()

    def valid_rows(self, t: int) -> tuple[list[dict], list]:
        """Every version valid at t with its embedding: what an as-of question is ranked over."""
        got = self._col("versions").get(where=valid_at(t), include=["metadatas", "embeddings"])
        rows = [version_row(i, m) for i, m in zip(got["ids"], got["metadatas"])]
        return rows, got["embeddings"] if len(rows) else []

    def rows(self, where: dict | None = None) -> list[dict]:
        got = self._col("versions").get(where=where, include=["metadatas"])
        return [version_row(i, m) for i, m in zip(got["ids"], got["metadatas"])]

    def current_rows(self) -> tuple[list[dict], list]:
        """Versions still open (valid_to = FOREVER), with their embeddings, for the snapshot."""
        got = self._col("versions").get(where={"valid_to": FOREVER},
                                        include=["metadatas", "embeddings"])
        rows = [version_row(i, m) for i, m in zip(got["ids"], got["metadatas"])]
        return rows, got["embeddings"] if len(rows) else []

    def get_rows(self, ids: list[str]) -> list[dict]:
        got = self._col("versions").get(ids=ids, include=["metadatas"])
        return [version_row(i, m) for i, m in zip(got["ids"], got["metadatas"])]
