"""Closed (superseded or removed) fact versions of an embedded store: a table of the record
store's SQLite file (repomem/storage/recordstore.py), beside the commit records they were
folded from.  Chroma keeps the current versions; a version moves here when it is closed.

Why not Chroma: nothing searches closed versions by vector (an as-of question ranks the versions
valid at its time, read by their validity interval), and on a long history they are most of the
rows -- every Chroma row costs an indexed write (~0.3 ms), a row here a few microseconds.
Each row keeps the Chroma metadata it would have had (``store.version_meta`` and its
``doc_hash``) as JSON, the four fields queries filter on as columns, and its embedding
(float32), so an as-of question is ranked exactly as over Chroma's rows.

Queries use Chroma's ``where`` filters (``{"$and": [{"valid_to": {"$gt": t}}, ...]}``) on
those four fields, translated to SQL here, so a caller reads both halves with one filter.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Iterable, Iterator

FIELDS = ("key", "kind", "valid_from", "valid_to")  # what a where filter may name
_OPS = {"$eq": "=", "$ne": "!=", "$lt": "<", "$lte": "<=", "$gt": ">", "$gte": ">="}
_CHUNK = 500  # ids a statement

# The recordstore migration that creates the table (its user_version 2).
MIGRATION = """CREATE TABLE versions (
    view TEXT NOT NULL, id TEXT NOT NULL, key TEXT NOT NULL, kind TEXT NOT NULL,
    valid_from INTEGER NOT NULL, valid_to INTEGER NOT NULL, doc_hash TEXT NOT NULL,
    meta TEXT NOT NULL, embedding BLOB NOT NULL, PRIMARY KEY (view, id));
CREATE INDEX versions_key ON versions (view, key);
CREATE INDEX versions_valid ON versions (view, valid_to, valid_from);"""


def where_sql(where: dict | None) -> tuple[str, list]:
    """A Chroma ``where`` filter on FIELDS as an SQL condition and its parameters.  Anything
    else is a ValueError: a filter this cannot translate must not match every row."""
    if not where:
        return "1", []
    parts, params = [], []
    for name, arg in where.items():
        if name in ("$and", "$or"):
            subs = [where_sql(w) for w in arg]
            if not subs:
                raise ValueError(f"empty {name} in a version filter")
            parts.append("(" + (" AND " if name == "$and" else " OR ").join(s for s, _ in subs) + ")")
            params += [p for _, ps in subs for p in ps]
        elif name in FIELDS:
            ops = arg if isinstance(arg, dict) else {"$eq": arg}
            for op, value in ops.items():
                if op in ("$in", "$nin"):
                    # one parameter, however many values (SQLite caps the parameters of a statement)
                    parts.append(f"{name} {'NOT ' if op == '$nin' else ''}IN "
                                 "(SELECT value FROM json_each(?))")
                    params.append(json.dumps(list(value)))
                elif op in _OPS:
                    parts.append(f"{name} {_OPS[op]} ?")
                    params.append(value)
                else:
                    raise ValueError(f"unsupported operator {op} in a version filter")
        else:
            raise ValueError(f"unsupported field {name} in a version filter")
    return "(" + " AND ".join(parts) + ")", params


def _chunks(ids: list[str]) -> Iterator[list[str]]:
    for i in range(0, len(ids), _CHUNK):
        yield ids[i:i + _CHUNK]


class ClosedVersions:
    """The closed versions of one view (a work tree's ``versions`` name) in CON."""

    def __init__(self, con: sqlite3.Connection, view: str):
        self.con, self.view = con, view

    def present(self) -> bool:
        """Whether the table exists (a read-only store of an older format has none)."""
        return self.con.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                                "name = 'versions'").fetchone() is not None

    def put(self, rows: Iterable[tuple[str, dict, bytes]]) -> None:
        """(id, Chroma metadata with doc_hash, float32 embedding bytes) rows, written as they are."""
        with self.con:
            self.con.executemany(
                "INSERT OR REPLACE INTO versions (view, id, key, kind, valid_from, valid_to, "
                "doc_hash, meta, embedding) VALUES (?,?,?,?,?,?,?,?,?)",
                [(self.view, i, m["key"], m["kind"], m["valid_from"], m["valid_to"],
                  m["doc_hash"], meta_text(m), e) for i, m, e in rows])

    def update_meta(self, rows: list[tuple[str, dict]]) -> None:
        """New metadata for rows whose document (and so embedding) is unchanged."""
        with self.con:
            self.con.executemany(
                "UPDATE versions SET key = ?, kind = ?, valid_from = ?, valid_to = ?, meta = ? "
                "WHERE view = ? AND id = ?",
                [(m["key"], m["kind"], m["valid_from"], m["valid_to"], meta_text(m), self.view, i)
                 for i, m in rows])

    def delete(self, ids: list[str]) -> None:
        with self.con:
            for chunk in _chunks(ids):
                self.con.execute("DELETE FROM versions WHERE view = ? AND id IN "
                                 "(SELECT value FROM json_each(?))", (self.view, json.dumps(chunk)))

    def drop(self) -> None:
        """Every view's closed versions (``repomem rebuild`` folds them all again)."""
        if self.present():
            with self.con:
                self.con.execute("DELETE FROM versions")

    def ids(self) -> list[str]:
        if not self.present():
            return []
        return [r[0] for r in self.con.execute("SELECT id FROM versions WHERE view = ?",
                                               (self.view,))]

    def stored(self, ids: list[str] | None = None) -> dict[str, tuple[str, str]]:
        """id -> (doc_hash, metadata JSON) of these rows (all of the view's when IDS is None)."""
        if not self.present():
            return {}
        if ids is None:
            return {i: (h, m) for i, h, m in self.con.execute(
                "SELECT id, doc_hash, meta FROM versions WHERE view = ?", (self.view,))}
        out: dict[str, tuple[str, str]] = {}
        for chunk in _chunks(ids):
            out.update((i, (h, m)) for i, h, m in self.con.execute(
                "SELECT id, doc_hash, meta FROM versions WHERE view = ? AND id IN "
                "(SELECT value FROM json_each(?))", (self.view, json.dumps(chunk))))
        return out

    def count(self) -> int:
        if not self.present():
            return 0
        return self.con.execute("SELECT count(*) FROM versions WHERE view = ?",
                                (self.view,)).fetchone()[0]

    def get(self, where: dict | None = None, ids: list[str] | None = None,
            embeddings: bool = False) -> tuple[list[str], list[dict], list[bytes]]:
        """(ids, metadatas, embeddings as float32 bytes when asked) of the rows matching WHERE
        (and among IDS when given), in the order they were written."""
        if not self.present():
            return [], [], []
        cond, params = where_sql(where)
        cols = "id, meta" + (", embedding" if embeddings else "")
        out_ids, metas, embs = [], [], []
        for chunk in (_chunks(ids) if ids is not None else [None]):
            q = f"SELECT {cols} FROM versions WHERE view = ? AND {cond}"
            args: list = [self.view, *params]
            if chunk is not None:
                q += " AND id IN (SELECT value FROM json_each(?))"
                args.append(json.dumps(chunk))
            for row in self.con.execute(q + " ORDER BY rowid", args):
                out_ids.append(row[0])
                metas.append(json.loads(row[1]))
                if embeddings:
                    embs.append(row[2])
        return out_ids, metas, embs


def meta_text(meta: dict) -> str:
    return json.dumps(meta, ensure_ascii=False, sort_keys=True)
