"""A Chroma server as the store (issue 13): `--chroma URL` / $REPOMEM_CHROMA_URL.

Everything a store keeps lives on the server, in collections named from the repository's
identity (the normalised remote URL, or --name): `<repo>_versions` (the fact versions, as in the
embedded store), `<repo>_records` (one row per commit, id = the sha), `<repo>_meta` (id = the
name) and `<repo>_folds` (the fold state, in chunks).  Only a lock, the generation counter and
the current-view snapshot stay in a local cache folder: a fresh clone needs nothing else.

The server has no file lock.  What the local lock gives the embedded store (one writer) comes
from ids here: a record's id is its commit, so `put_records` adds only absent ids, two
publishers at once write the same rows, and a killed publisher leaves whole rows that the next
run skips.  See docs/server.md.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import zlib
from dataclasses import dataclass
from urllib.parse import urlsplit

from repomem import git
from repomem.errors import RepomemError
from repomem.mining import CommitRecord
from repomem.model import canonical_json, short_hash

TOKEN_HEADER = "X-Chroma-Token"
_ONE = [[1.0]]  # rows fetched by id, never searched: a constant one-dimensional embedding
_CHUNK = 200_000  # characters of a fold-state row (requests stay small)
_PAGE = 1000


@dataclass(frozen=True)
class Remote:
    url: str
    token: str | None
    name: str  # the repository identity; collections are named from it

    @property
    def prefix(self) -> str:
        """A valid Chroma collection name stem: readable, and unique by a hash of the name."""
        slug = re.sub(r"[^a-zA-Z0-9]+", "-", self.name).strip("-")[:40] or "repo"
        return f"rm-{slug}-{short_hash(self.name, n=8)}"

    def client(self):
        import chromadb
        from chromadb.config import Settings

        parts = urlsplit(self.url if "://" in self.url else f"http://{self.url}")
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise RepomemError(f"not a Chroma server URL: {self.url}",
                               hint="pass --chroma http://HOST:PORT (or set REPOMEM_CHROMA_URL)")
        headers = {TOKEN_HEADER: self.token} if self.token else None
        try:
            client = chromadb.HttpClient(
                host=parts.hostname, port=parts.port or (443 if parts.scheme == "https" else 80),
                ssl=parts.scheme == "https", headers=headers,
                settings=Settings(anonymized_telemetry=False))
            client.list_collections(limit=1)  # an authenticated call: a wrong token fails here
        except RepomemError:
            raise
        except Exception as e:
            raise explain_remote(e, self.url) from None
        return client


def explain_remote(exc: BaseException, url: str | None = None) -> RepomemError | None:
    """A server-side failure as one line with a hint, or None when it is not one."""
    where = f"the Chroma server at {url}" if url else "the Chroma server"
    text = f"{type(exc).__name__}: {exc}".lower()
    if any(m in text for m in ("unauthorized", "forbidden", "401", "403", "authenticat")):
        return RepomemError(f"{where} refused the token",
                            hint="check REPOMEM_CHROMA_TOKEN (sent as the X-Chroma-Token header)")
    if any(m in text for m in ("connect", "connection refused", "name or service not known",
                               "timed out", "timeout", "nodename nor servname",
                               "temporary failure in name resolution", "remoteprotocolerror",
                               "bad gateway", "service unavailable", "502", "503")):
        return RepomemError(f"{where} is unreachable (no connection, or it broke off)",
                            hint="check the URL (--chroma / REPOMEM_CHROMA_URL) and that the "
                                 "server runs: curl URL/api/v2/heartbeat")
    return None


def from_args(args, root) -> Remote | None:
    """The server asked for (--chroma, else $REPOMEM_CHROMA_URL), or None: the embedded store."""
    url = getattr(args, "chroma", None) or os.environ.get("REPOMEM_CHROMA_URL")
    if not url:
        return None
    name = getattr(args, "name", None) or os.environ.get("REPOMEM_NAME") or repo_identity(root)
    return Remote(url, os.environ.get("REPOMEM_CHROMA_TOKEN") or None, name)


def normalise_url(url: str) -> str:
    """git@github.com:Org/Repo.git, https://user@github.com/Org/Repo -> github.com/org/repo."""
    url = url.strip()
    m = re.match(r"^(?:[\w.-]+@)?([\w.-]+):(?!//)(.*)$", url)  # scp-like syntax
    if m and "://" not in url:
        host, path = m.group(1), m.group(2)
    else:
        parts = urlsplit(url)
        host, path = parts.hostname or "", parts.path
    path = re.sub(r"\.git/?$", "", path.strip("/"))
    return f"{host.lower()}/{path.lower()}".strip("/")


def repo_identity(root) -> str:
    url = git.config_get(root, "remote.origin.url")
    if not url:
        raise RepomemError("this repository has no remote 'origin' to name it on the server",
                           hint="pass --name NAME (the same in every clone), or set REPOMEM_NAME")
    return normalise_url(url)


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
        ids, metas, off = [], [], 0
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

    def record_shas(self) -> list[str]:
        ids, metas = self._all("records", ["metadatas"])
        order = sorted(zip(ids, metas), key=lambda x: (x[1]["ingested_at"], x[1]["batch"],
                                                         x[1]["seq"]))
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
            for sha, m in zip(got["ids"], got["metadatas"]):
                out[sha] = (CommitRecord.from_json(_unpack(m["data"])), m["ingested_at"])
        return out

    def replace_records(self, recs: list[CommitRecord], ingested_at: int) -> None:
        if recs:
            batch = "pack-" + short_hash("replaced", str(ingested_at),
                                         *sorted(r.sha for r in recs), n=24)
            self._write(recs, batch, ingested_at, "upsert")

    def record_packs(self) -> list[tuple[str, list[str], int]]:
        packs: dict[str, tuple[list[str], int]] = {}
        for sha in self.record_shas():
            m = self._col("records").get(ids=[sha], include=["metadatas"])["metadatas"][0]
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
        return json.loads(got["metadatas"][0]["value"]) if got["ids"] else None

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

    def save_fold(self, view: str, state: dict) -> None:
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

    def drop_folds(self) -> None:
        ids = self._all("folds", [])[0]
        for i in range(0, len(ids), 500):
            self._col("folds").delete(ids=ids[i:i + 500])

    def vacuum(self) -> None:
        pass  # the server's own maintenance (chroma utils vacuum on its host)


def published(r) -> int:
    """A reader's check before a query on the server: something is published for this
    repository; the local snapshot is brought to it (and to the branch's own commits).
    Returns the commits of HEAD's first-parent history the server lacks (the caller warns about
    them, as about unindexed commits in the embedded store)."""
    state = r.store.get_meta(r.store.view_name("view")) or {}
    if not state.get("complete"):
        raise RepomemError(f"nothing published for {r.store.remote.name} on "
                           f"{r.store.remote.url} yet",
                           hint="run 'repomem publish' (in CI, on the default branch)")
    _refresh_snapshot(r, state)
    have = r.store.ingested()
    return sum(1 for c in git.first_parent_chain(r.root) if c.sha not in have)


def _refresh_snapshot(r, state: dict) -> None:
    """The snapshot (a local cache) of the server's view, patched with HEAD's own commits when
    HEAD is a few first-parent commits past the published head (a branch's view: the default
    branch's ledger plus the branch's commits, folded locally and never published from here).
    Rewritten only when the server's view or HEAD moved."""
    from repomem import index, viewcache
    from repomem.embed import get_embedder

    base = r.store.path / "server-view"
    head = git.head(r.root)
    snap = viewcache.load_any(r.store)
    try:
        seen = base.read_text()
    except OSError:
        seen = None
    if seen == state["id"] and snap is not None and snap[0].get("head") == head:
        return
    with r.store.writer():  # the local lock: one process writes the cache at a time
        emb = get_embedder(r.store.get_meta("embedder"))
        index._write_snapshot(r, state, emb, 0)
        if head != state.get("head"):
            index.provisional_snapshot(r)  # records it mines stay local: readers never publish
        tmp = base.with_suffix(f".tmp{os.getpid()}")
        tmp.write_text(state["id"])
        os.replace(tmp, base)


def default_branch(root) -> str:
    """The branch CI publishes: origin's HEAD (set by clone), else main or master."""
    ref = git.git(root, "symbolic-ref", "-q", "--short", "refs/remotes/origin/HEAD",
                  check=False).decode().strip()
    if ref:
        return ref.split("/", 1)[-1]
    have = git.git(root, "branch", "--list", "--format=%(refname:short)", "main", "master",
                   check=False).decode().split()
    return have[0] if have else "main"


def hook_catch_up(r) -> dict:
    """The git hooks' worker in server mode: on the default branch it publishes (what the hook
    could not publish while the server was down goes with it: publishing adds every commit the
    server lacks); on any other branch it only refreshes the local branch view, since the
    server holds the default branch's ledger."""
    from repomem.index import ingest

    head = git.head(r.root)
    if git.current_branch(r.root) == default_branch(r.root):
        return dict(ingest(r, all_history=True, create=False, progress=False), head=head)
    published(r)
    return {"new": 0, "head": head}


def _http_view_state(r) -> dict | None:
    """The server's view state over plain HTTP (Chroma's v2 REST API), without importing
    chromadb's client (~0.8 s of a fresh `ask`).  None on any failure: the caller then takes the
    ordinary path, which reports errors properly."""
    import urllib.request

    rem = r.store.remote
    url = (rem.url if "://" in rem.url else f"http://{rem.url}").rstrip("/")
    base = f"{url}/api/v2/tenants/default_tenant/databases/default_database/collections"
    headers = {TOKEN_HEADER: rem.token} if rem.token else {}
    try:
        req = urllib.request.Request(f"{base}/{rem.prefix}_meta", headers=headers)
        with urllib.request.urlopen(req, timeout=5) as resp:
            cid = json.load(resp)["id"]
        body = json.dumps({"ids": [r.store.view_name("view")], "include": ["metadatas"]})
        req = urllib.request.Request(f"{base}/{cid}/get", data=body.encode(), method="POST",
                                     headers={**headers, "Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=5) as resp:
            got = json.load(resp)
        return json.loads(got["metadatas"][0]["value"]) if got["ids"] else None
    except Exception:
        return None


def snapshot_ready(r) -> None:
    """Before `ask` answers from the local snapshot: it must be of the server's current view
    (and of HEAD).  The usual case, nothing moved, costs two HTTP requests and no chromadb
    import; otherwise `published` refreshes it (or says that nothing is published)."""
    from repomem import viewcache

    state = _http_view_state(r)
    if state and state.get("complete"):
        try:
            seen = (r.store.path / "server-view").read_text()
        except OSError:
            seen = None
        snap = viewcache.load_any(r.store)
        if seen == state.get("id") and snap is not None and snap[0].get("head") == git.head(r.root):
            return
    published(r)
