"""A Chroma server's view for readers and the git hooks (repomem/remote.py, docs/server.md).

Readers never write to the server.  The local snapshot caches the server's view (and, on a
branch, the branch's own commits folded over it); the hooks' worker publishes only on the
default branch."""

from __future__ import annotations

import json
import os

from repomem import git
from repomem.errors import RepomemError
from repomem.remote import TOKEN_HEADER


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
