"""recordstore.RecordStore on a Chroma server (repomem/remote.py, docs/server.md): commit
records, metadata and fold state as rows of `<repo>_records`, `<repo>_meta`, `<repo>_folds`.

Rows are fetched by id, never searched: each has a constant one-dimensional embedding.  A
record's id is its commit and Chroma's `add` keeps the first row of an id (a second add of it
is ignored), which is what makes two publishers at once safe."""

from __future__ import annotations

import base64
import hashlib
import json
import zlib
from typing import TYPE_CHECKING

from repomem.core.model import canonical_json, short_hash
from repomem.core.records import CommitRecord
from repomem.storage.rowcheck import bad_row

if TYPE_CHECKING:  # annotations only
    from repomem.storage.remote import Remote

_ONE = [[1.0]]
_CHUNK = 200_000  # characters of a fold-state row (requests stay small)
_PAGE = 1000


def _pack(obj) -> str:
    raw = canonical_json(obj).encode("utf-8", "surrogatepass")
    return base64.b64encode(zlib.compress(raw, 3)).decode("ascii")


def _unpack(text: str):
    return json.loads(zlib.decompress(base64.b64decode(text)).decode("utf-8", "surrogatepass"))


class ChromaRecords:
    """recordstore.RecordStore on a Chroma server (see the module docstring)."""

    def __init__(self, remote: Remote, client_fn):
        self.remote = remote
        self._client_fn = client_fn
        self._cols: dict = {}

    def _col(self, kind: str):
        col = self._cols.get(kind)
        if col is None:
            col = self._client_fn().get_or_create_collection(
                f"{self.remote.prefix}_{kind}", embedding_function=None)
            self._cols[kind] = col
        return col

    def _all(self, kind: str, include: list[str], where: dict | None = None):
        """Every row, in pages (a server caps what one response may carry)."""
        ids: list[str] = []
        metas: list[dict] = []
        off = 0
        while True:
            got = self._col(kind).get(include=include, where=where, limit=_PAGE, offset=off)
            ids += got["ids"]
            metas += got["metadatas"] or [None] * len(got["ids"])
            if len(got["ids"]) < _PAGE:
                return ids, metas
            off += _PAGE

    def exists(self) -> bool:
        return self.get_meta("schema") is not None

    def close(self) -> None:
        self._cols.clear()

    # -- records ---------------------------------------------------------------------------
    def ingested(self) -> set[str]:
        return set(self._all("records", [])[0])

    def _checked(self, ids: list, metas: list) -> list[tuple[str, dict]]:
        """Record rows (sha, metadata) whose order fields have the types repomem writes."""
        for sha, m in zip(ids, metas):
            if not (isinstance(sha, str) and isinstance(m, dict)
                    and all(type(m.get(f)) is int for f in ("ingested_at", "seq"))
                    and isinstance(m.get("batch"), str) and isinstance(m.get("data"), str)):
                raise bad_row(self.remote, f"{self.remote.prefix}_records", sha,
                              "not a commit record row")
        return list(zip(ids, metas))

    def record_shas(self) -> list[str]:
        ids, metas = self._all("records", ["metadatas"])
        order = sorted(self._checked(ids, metas),
                       key=lambda x: (x[1]["ingested_at"], x[1]["batch"], x[1]["seq"]))
        return [i for i, _ in order]

    def _write(self, recs: list[CommitRecord], batch: str, ingested_at: int, how: str) -> None:
        col = self._col("records")
        for i in range(0, len(recs), 100):
            chunk = recs[i:i + 100]
            getattr(col, how)(ids=[r.sha for r in chunk], embeddings=_ONE * len(chunk),
                              metadatas=[{"batch": batch, "ingested_at": ingested_at,
                                          "seq": i + j, "data": _pack(r.to_json())}
                                         for j, r in enumerate(chunk)])

    def put_records(self, recs: list[CommitRecord], ingested_at: int) -> None:
        # Only absent ids are added: a record stays as first published (another publisher's
        # copy of it is the same record, mined from the same commit).
        new = list({r.sha: r for r in recs}.values())
        if not new:
            return
        have = set(self._col("records").get(ids=[r.sha for r in new], include=[])["ids"])
        new = [r for r in new if r.sha not in have]
        if new:
            batch = "pack-" + short_hash(*(r.sha for r in new), n=24)
            self._write(new, batch, ingested_at, "add")

    def load_records(self, shas: list[str]) -> dict[str, tuple[CommitRecord, int]]:
        out = {}
        want = list(dict.fromkeys(shas))
        for i in range(0, len(want), 200):
            got = self._col("records").get(ids=want[i:i + 200], include=["metadatas"])
            for sha, m in self._checked(got["ids"], got["metadatas"]):
                try:
                    out[sha] = (CommitRecord.from_json(_unpack(m["data"])), m["ingested_at"])
                except Exception:  # any shape of damage: zlib, base64, JSON, the record's fields
                    raise bad_row(self.remote, f"{self.remote.prefix}_records", sha,
                                  "its commit record does not decode") from None
        return out

    def replace_records(self, recs: list[CommitRecord], ingested_at: int) -> None:
        if recs:
            batch = "pack-" + short_hash("replaced", str(ingested_at),
                                         *sorted(r.sha for r in recs), n=24)
            self._write(recs, batch, ingested_at, "upsert")

    def record_packs(self) -> list[tuple[str, list[str], int]]:
        packs: dict[str, tuple[list[str], int]] = {}
        ids, metas = self._all("records", ["metadatas"])
        for sha, m in sorted(self._checked(ids, metas),
                             key=lambda x: (x[1]["ingested_at"], x[1]["batch"], x[1]["seq"])):
            packs.setdefault(m["batch"], ([], m["ingested_at"]))[0].append(sha)
        return [(b, shas, t) for b, (shas, t) in packs.items()]

    def rewrite_pack(self, pack_id: str, recs: list[CommitRecord]) -> None:
        col = self._col("records")
        for r in recs:
            m = col.get(ids=[r.sha], include=["metadatas"])["metadatas"]
            if m and m[0]["batch"] == pack_id:
                col.update(ids=[r.sha], metadatas=[dict(m[0], data=_pack(r.to_json()))])

    # -- metadata --------------------------------------------------------------------------
    def get_meta(self, name: str):
        got = self._col("meta").get(ids=[name], include=["metadatas"])
        if not got["ids"]:
            return None
        try:
            return json.loads(got["metadatas"][0]["value"])
        except (KeyError, TypeError, ValueError, IndexError):
            raise bad_row(self.remote, f"{self.remote.prefix}_meta", name,
                          "its value is not JSON") from None

    def set_meta(self, name: str, value) -> None:
        self._col("meta").upsert(ids=[name], embeddings=_ONE,
                                 metadatas=[{"value": json.dumps(value)}])

    def delete_meta(self, names: list[str]) -> None:
        if names:
            self._col("meta").delete(ids=names)

    def meta_names(self) -> list[str]:
        return sorted(self._all("meta", [])[0])

    # -- fold state: chunks, then a head row naming them by digest (written last) -------------
    def load_fold(self, view: str) -> dict | None:
        col = self._col("folds")
        head = col.get(ids=[view], include=["metadatas"])
        if not head["ids"]:
            return None
        m = head["metadatas"][0]
        ids = [f"{view}:{m['digest']}:{i}" for i in range(m["chunks"])]
        got = col.get(ids=ids, include=["metadatas"])
        parts = dict(zip(got["ids"], (x["data"] for x in got["metadatas"])))
        text = "".join(parts.get(i, "") for i in ids)
        if hashlib.sha256(text.encode()).hexdigest()[:24] != m["digest"]:
            return None  # a torn write: the caller folds the records again
        return _unpack(text)

    def fold_digest(self, view: str) -> str | None:
        head = self._col("folds").get(ids=[view], include=["metadatas"])
        return head["metadatas"][0]["digest"] if head["ids"] else None

    def save_fold(self, view: str, state: dict) -> str:
        col = self._col("folds")
        text = _pack(state)
        digest = hashlib.sha256(text.encode()).hexdigest()[:24]
        chunks = [text[i:i + _CHUNK] for i in range(0, len(text), _CHUNK)] or [""]
        ids = [f"{view}:{digest}:{i}" for i in range(len(chunks))]
        for i, c in zip(ids, chunks):
            col.upsert(ids=[i], embeddings=_ONE, metadatas=[{"view": view, "data": c}])
        col.upsert(ids=[view], embeddings=_ONE,
                   metadatas=[{"view": view, "digest": digest, "chunks": len(chunks)}])
        # Chunks of older states of this view go (a concurrent reader of one gets a digest
        # mismatch, and folds the records itself).
        old = [i for i in col.get(where={"view": view}, include=[])["ids"]
               if i != view and not i.startswith(f"{view}:{digest}:")]
        if old:
            col.delete(ids=old)
        return digest

    def drop_folds(self) -> None:
        ids = self._all("folds", [])[0]
        for i in range(0, len(ids), 500):
            self._col("folds").delete(ids=ids[i:i + 500])

    def vacuum(self) -> None:
        pass  # the server's own maintenance (chroma utils vacuum on its host)
