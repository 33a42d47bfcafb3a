"""A Chroma server's view for readers and the git hooks (repomem/storage/remote.py, docs/server.md).

Readers never write to the server.  The local snapshot caches the server's view (and, on a
branch, the branch's own commits folded over it); the hooks' worker publishes only on the
default branch."""

from __future__ import annotations

import json

from repomem.adapters import git
from repomem.storage.remote import TOKEN_HEADER


def default_branch(root) -> str:
    """The branch CI publishes: origin's HEAD (set by clone), else main or master."""
    ref = git.git(root, "symbolic-ref", "-q", "--short", "refs/remotes/origin/HEAD",
                  check=False).decode().strip()
    if ref:
        return ref.split("/", 1)[-1]
    have = git.git(root, "branch", "--list", "--format=%(refname:short)", "main", "master",
                   check=False).decode().split()
    return have[0] if have else "main"


def _http_view_state(r) -> dict | None:
    """The server's view state over plain HTTP (Chroma's v2 REST API), without importing
    chromadb's client (~0.8 s of a fresh `ask`).  None on any failure: the caller then takes the
    ordinary path, which reports errors properly -- except a server that does not answer in
    time, which is said at once (the ordinary path would wait for it again)."""
    import urllib.request

    from repomem.storage.serverlimits import max_response, read_timeout

    def load(resp):  # a capped read: the ordinary path reports an oversized answer
        data = resp.read(max_response() + 1)
        if len(data) > max_response():
            raise ValueError("response over the cap")
        return json.loads(data)

    rem = r.store.remote
    url = (rem.url if "://" in rem.url else f"http://{rem.url}").rstrip("/")
    base = f"{url}/api/v2/tenants/default_tenant/databases/default_database/collections"
    headers = {TOKEN_HEADER: rem.token} if rem.token else {}
    try:
        req = urllib.request.Request(f"{base}/{rem.prefix}_meta", headers=headers)
        with urllib.request.urlopen(req, timeout=read_timeout()) as resp:
            cid = load(resp)["id"]
        body = json.dumps({"ids": [r.store.view_name("view")], "include": ["metadatas"]})
        req = urllib.request.Request(f"{base}/{cid}/get", data=body.encode(), method="POST",
                                     headers={**headers, "Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=read_timeout()) as resp:
            got = load(resp)
        state = json.loads(got["metadatas"][0]["value"]) if got["ids"] else None
        return state if isinstance(state, dict) else None  # the ordinary path checks it
    except Exception as e:
        if isinstance(e, TimeoutError) or isinstance(getattr(e, "reason", None), TimeoutError):
            from repomem.storage.remote import explain_remote

            raise explain_remote(e, rem.url) from None
        return None


def snapshot_ready(r) -> None:
    """Before `ask` answers from the local snapshot: it must be of the server's current view
    (and of HEAD).  The usual case, nothing moved, costs two HTTP requests and no chromadb
    import; otherwise `published` refreshes it (or says that nothing is published)."""
    from repomem.service import viewcache
    from repomem.service.servercheck import view_mark
    from repomem.service.view import published

    state = _http_view_state(r)
    if state and state.get("complete"):
        try:
            seen = (r.store.path / "server-view").read_text()
        except OSError:
            seen = None
        snap = viewcache.load_any(r.store)
        if seen == view_mark(state) and snap is not None and \
                snap[0].get("head") == git.head(r.root):
            return
    published(r)
