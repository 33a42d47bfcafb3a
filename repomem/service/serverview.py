"""A Chroma server's view for readers and the git hooks (repomem/storage/remote.py, docs/server.md).

Readers never write to the server.  The local snapshot caches the server's view (and, on a
branch, the branch's own commits folded over it); the hooks' worker publishes only on the
default branch."""

from __future__ import annotations

import json

from repomem.adapters import git
from repomem.core.errors import RepomemError
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

    from repomem.storage.remote import max_response, read_timeout

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


# -- the published repository's identity and the view's health ------------------------------------
IDENTITY = "identity"  # meta row: {"roots": the root commits of the history first published}


def _roots(root) -> list[str]:
    """HEAD's root commits (in a shallow clone: its boundary commits, as git reports them)."""
    return sorted(git.git(root, "rev-list", "--max-parents=0", "HEAD",
                          check=False).decode().split())


def _has_commit(root, sha) -> bool:
    return isinstance(sha, str) and bool(git.git(
        root, "rev-parse", "-q", "--verify", "--end-of-options", f"{sha}^{{commit}}",
        check=False).strip())


def check_identity(r, publishing: bool) -> None:
    """A name on the server is bound to the history first published under it (its root
    commits), as an embedded store is to its first commit (repomem/storage/storepath.py): a
    publish from another history is refused, and a reader of another history is told, instead
    of answering with that repository's facts.  A history that shares a root, or holds the
    published head (a shallow clone, whose roots are its boundary), is the same repository."""
    from repomem.storage.rowcheck import bad_row

    rem = r.store.remote
    have = r.store.get_meta(IDENTITY)
    mine = _roots(r.root)
    if have is None:
        if publishing and mine:
            r.store.set_meta(IDENTITY, {"roots": mine})
        return
    theirs = have.get("roots") if isinstance(have, dict) else None
    if not isinstance(theirs, list) or not all(isinstance(s, str) for s in theirs):
        raise bad_row(rem, f"{rem.prefix}_meta", IDENTITY, "not a list of root commits")
    if set(theirs) & set(mine) or any(_has_commit(r.root, s) for s in theirs):
        return
    head = (r.store.get_meta(r.store.view_name("view")) or {}).get("head")
    if _has_commit(r.root, head):
        return
    root = theirs[0][:10] if theirs else "?"
    if publishing:
        raise RepomemError(f"{rem.name} on {rem.url} is another repository's history (its root "
                           f"commit {root} is not in this one); nothing was published",
                           hint="publish this repository under its own name: --name NAME "
                                "(or REPOMEM_NAME), or its origin URL's default")
    raise RepomemError(f"the history published as {rem.name} on {rem.url} is not this "
                       f"repository's (its root commit {root} is not in this one)",
                       hint="pass the name this repository is published under: --name NAME "
                            "(or REPOMEM_NAME)")


def check_view(r, state: dict) -> None:
    """A reader's check of the published view before it is read: the versions collection is
    there and holds as many rows as the publisher wrote (a deleted or emptied collection is not
    "no facts").  Never creates anything on the server."""
    from repomem.storage.rowcheck import BadRow, repair_hint

    want = state.get("rows")
    if not isinstance(want, int):
        return  # published before rows were counted: the next publish counts them
    name = f"{r.store.prefix}_{r.store.view_name('versions')}"
    try:
        have = r.store._chroma().get_collection(name).count()
    except RepomemError:
        raise
    except Exception as e:
        if "does not exist" not in str(e) and "NotFound" not in type(e).__name__:
            raise
        raise BadRow(f"the Chroma server's collection {name} is missing",
                     hint=repair_hint(r.store.remote)) from None
    if have != want:
        raise BadRow(f"the Chroma server's collection {name} holds {have} of the {want} fact "
                     "versions published", hint=repair_hint(r.store.remote))


def publish(r, create: bool = True) -> dict:
    """Publish HEAD's first-parent history (``repomem publish``, the hooks' worker on the
    default branch): identity first, then the commits the server lacks, then the view checked
    against the fold and repaired when a row is invalid, missing or extra (the view is not
    trusted to exist: anyone with the token can delete it)."""
    import logging

    from repomem.service.ingest import ingest
    from repomem.storage.rowcheck import BadRow

    check_identity(r, publishing=True)
    try:
        stats = ingest(r, all_history=True, create=create, progress=False)
    except BadRow as e:  # the view as it is cannot be read: it is rebuilt below
        logging.getLogger("repomem").warning("%s: rebuilding the view", e)
        stats = None
    problem = _verify(r, force=stats is None)
    if stats is None:
        stats = ingest(r, all_history=True, create=create, progress=False)
    if problem is not None:  # what the view holds now, not what ingest found before
        with r.store.reader():
            stats["versions"] = r.store.count_versions()
    stats["repaired"] = problem
    return stats


def _verify(r, force: bool) -> str | None:
    """The published view against what the fold says it must hold: every row valid, as many
    rows as versions.  A mismatch refolds the records and rewrites what differs; the state then
    gets a new mark, so readers' cached snapshots of the broken view are refreshed."""
    import time

    from repomem.service import summaries
    from repomem.service.repo import _embedder
    from repomem.service.view import sync_view
    from repomem.storage import foldstate
    from repomem.storage.rowcheck import BadRow

    view = r.store.view_name("view")
    name = f"{r.store.prefix}_{r.store.view_name('versions')}"
    with r.store.writer():
        state = r.store.get_meta(view) or {}
        problem = "the view could not be read" if force else None
        if problem is None:
            try:
                have = len(r.store.rows())  # every row read, and checked
            except BadRow as e:
                problem = str(e)
            else:
                ledger = foldstate.load(r.store, summaries.digest(r.store.path))
                want = ledger.total_versions if ledger is not None else state.get("rows")
                if isinstance(want, int) and have != want:
                    problem = f"{name} held {have} of {want} fact versions"
        if problem is None and isinstance(state.get("rows"), int):
            return None
        if problem is not None:
            r.store.set_meta(view, {})  # not complete: sync_view folds every record again
        sync_view(r, _embedder(r, False))
        state = r.store.get_meta(view) or {}
        mark = time.time_ns() if problem is not None else state.get("repaired")
        r.store.set_meta(view, dict(state, rows=r.store.count_versions(), repaired=mark))
    return problem


def view_mark(state: dict) -> str:
    """What a reader's cached snapshot is of: the view's id, and its repair when it had one."""
    return f"{state.get('id')}@{state['repaired']}" if state.get("repaired") else \
        str(state.get("id"))
