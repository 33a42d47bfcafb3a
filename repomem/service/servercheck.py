"""The checks a reader and a publisher make of a Chroma server's view (docs/server.md): the
name's identity (the history first published under it) and the versions collection's health.
Apart from repomem/service/serverview.py and the publish path so that the reader's path
(repomem/service/view.py) imports neither the write path nor itself back."""

from __future__ import annotations

from repomem.adapters import git
from repomem.core.errors import RepomemError

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


def view_mark(state: dict) -> str:
    """What a reader's cached snapshot is of: the view's id, and its repair when it had one."""
    return f"{state.get('id')}@{state['repaired']}" if state.get("repaired") else \
        str(state.get("id"))
