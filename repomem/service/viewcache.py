"""A read-only snapshot of the current facts, so a fresh process can answer without Chroma.

Importing chromadb costs ~1.3 s, more than the whole budget of a pre-prompt hook.  The writer
that materialises the view in Chroma also writes this snapshot (current versions, their
embeddings and the view they came from) under the same exclusive lock; a reader uses it only
when it was written for the HEAD that is checked out now, and falls back to Chroma otherwise
(as-of queries always go to Chroma).  Chroma stays the store of record: the snapshot is
rebuilt from it and deleted before every view change, so a crash never leaves a stale one --
unless it already is the view being written: the post-commit snapshot (service/view.py,
``_provisional``) stays while the writer brings Chroma to it, so a question asked meanwhile is
answered from it instead of waiting for the writer's lock.
Each worktree has its own snapshot (``Store.snapshot_file``): they have their own HEADs.  A
damaged snapshot (truncated, not a snapshot, wrong members) reads as absent and is deleted, so the
next writer rebuilds it.  The file's format: service/snapfile.py (named arrays, plain numbers
only; text as UTF-8 bytes).
"""

from __future__ import annotations

import functools
import json
import logging
from pathlib import Path

from repomem.core.tokens import norm_ident
from repomem.service import snapfile
from repomem.service.lexical import names
from repomem.storage import atomic
from repomem.storage.store import SNAPSHOT, Store

# What a damaged file raises from snapfile.load / json: it is then treated as absent.
_DAMAGED = (ValueError, KeyError, EOFError, UnicodeDecodeError, AttributeError, TypeError)


def _path(store) -> Path:
    """store: a Store (its worktree's snapshot) or a store directory (the main worktree's)."""
    own = getattr(store, "snapshot_file", None)
    return own if own is not None else Path(store) / SNAPSHOT


def _discard_damaged(store, err: Exception) -> None:
    logging.getLogger("repomem").info("snapshot %s unreadable (%s): rebuilt by the next writer",
                                      _path(store), type(err).__name__)
    try:
        _path(store).unlink()
    except OSError:
        pass


def state(store_path: Store | Path) -> dict:
    """The snapshot's state alone ({} when there is none, or it is unreadable)."""
    try:
        with snapfile.load(_path(store_path)) as z:  # members load lazily
            return json.loads(z["state"].tobytes())
    except (OSError, *_DAMAGED):
        return {}


def invalidate(store_path: Store | Path) -> None:
    try:
        _path(store_path).unlink()
    except FileNotFoundError:
        pass


def write(store_path: Store | Path, state: dict, rows: list[dict], embeddings,
          known: dict | None = None, removed: list[dict] | None = None) -> None:
    """state: view id, head, embedder, missing commits.  One file replaced atomically, so a
    reader needs no lock: it sees the whole old snapshot or the whole new one.  KNOWN: tokens of
    documents (see known_docs), when the snapshot they were read from is gone already.
    REMOVED: each removed key's last version (see removed_rows), so a question that names a
    removed fact is answered without the store of record; None: the snapshot has no list."""
    import numpy as np

    from repomem.service.lexical import Lexical
    from repomem.service.rank import facts_columns

    # Provenance spans serve as-of answers, which Chroma serves; the current view needs none.
    rows = [{k: v for k, v in row.items() if k != "spans"} if "spans" in row else row
            for row in rows]
    final = _path(store_path)
    matrix = np.asarray(embeddings, dtype=np.float32)
    matrix = matrix.reshape(len(rows), -1) if rows else np.zeros((0, 1), dtype=np.float32)
    lex = Lexical.build(rows, known if known is not None else _known_docs(final))
    # what ranking reads about each row (rank.facts_columns): loaded, not recomputed, by
    # every fresh process that asks
    columns = np.frombuffer(json.dumps(facts_columns(rows)).encode(), dtype=np.uint8)
    with atomic.replacing(final) as fh:
        members = dict(lex.arrays(), facts=columns)
        if removed is not None:
            members.update(_removed_members(removed))
        snapfile.save(fh, dict(
            embeddings=matrix,
            rows=np.frombuffer(json.dumps(rows, ensure_ascii=False).encode(), dtype=np.uint8),
            state=np.frombuffer(json.dumps(state).encode(), dtype=np.uint8), **members))


# What a removed fact's note needs (its names, value, subject, when and by which commit it
# went); its source text and provenance spans are left out of the snapshot.
_REMOVED_DROP = ("spans", "text", "purpose", "score")


def removed_rows(closed: list[dict], live: set[str]) -> list[dict]:
    """Each key's last version among CLOSED whose key is in no current version (LIVE keys):
    the facts a removed-name note quotes, latest removal first."""
    last: dict[str, dict] = {}
    for x in closed:
        if x["key"] not in live and x["valid_to"] >= last.get(x["key"], {}).get("valid_to", 0):
            last[x["key"]] = x
    out = [{k: v for k, v in x.items() if k not in _REMOVED_DROP} for x in last.values()]
    return sorted(out, key=lambda x: (-x["valid_to"], x["key"]))


def patch_removed(old: list[dict], closed: list[dict], live: set[str]) -> list[dict]:
    """OLD's removed facts after new commits CLOSED these versions; LIVE: the keys current
    after them.  A key that came back is no longer removed."""
    return removed_rows([x for x in old if x["key"] not in live] + closed, live)


def removed_names(x: dict) -> set[str]:
    """The names a question may call a removed fact by: its names, and as code calls it
    (click.get_terminal_size, Context.invoke)."""
    return names(x, camel=True) | {norm_ident(q) for q in _qualnames()(x)}


@functools.cache
def _qualnames():
    from repomem.service.rank import qualnames  # (ranking's module: imported when first used)

    return qualnames


def _removed_code() -> str:
    """What the snapshot's index of removed names was computed by: the code of the name
    functions (the ranking columns' fingerprint covers them, rank.columns_code) and of
    removed_names itself.  An index by other code is not read."""
    import hashlib

    from repomem.service.rank import columns_code

    return hashlib.sha256(columns_code().encode() + removed_names.__code__.co_code +
                          repr(removed_names.__code__.co_names).encode()).hexdigest()[:16]


def _removed_members(removed: list[dict]) -> dict:
    """The removed list as one JSON array (``removed``: what load_removed reads), where each
    fact's text starts and ends in it (``removed_at``), and which facts bear each name
    (``removed_names``): a fresh process that meets a name no current fact bears parses the
    few facts that bore it, not the whole list (~1,700 facts on httpx: ~20 ms of a cold ask)."""
    import numpy as np

    parts, at, pos = [], [], 1
    index: dict[str, list[int]] = {}
    for i, x in enumerate(removed):
        text = json.dumps(x, ensure_ascii=False).encode()
        at.append((pos, pos + len(text)))
        parts.append(text)
        pos += len(text) + 2  # the ", " between items, as json.dumps writes a list
        for name in removed_names(x):
            index.setdefault(name, []).append(i)
    blob = b"[" + b", ".join(parts) + b"]"
    return {"removed": np.frombuffer(blob, dtype=np.uint8),
            "removed_at": np.array(at, dtype=np.int64).reshape(len(at), 2),
            "removed_names": np.frombuffer(json.dumps(
                {"code": _removed_code(), "names": index}, ensure_ascii=False).encode(),
                dtype=np.uint8)}


def _read_once(cache: dict, p: Path, read):
    """READ(the open snapshot) for the file at P, kept in CACHE (one entry: the last file read)
    while the file is the same one (inode, mtime, size)."""
    st = p.stat()
    ident = (st.st_ino, st.st_mtime_ns, st.st_size)
    hit = cache.get(str(p))
    if hit and hit[0] == ident:
        return hit[1]
    with snapfile.load(p) as z:
        got = read(z)
    cache.clear()
    cache[str(p)] = (ident, got)
    return got


def _named_index(z):
    if "removed_names" in z.files and "removed_at" in z.files:
        index = snapfile.json_member(z["removed_names"])
        if isinstance(index, dict) and index.get("code") == _removed_code():
            return index["names"], z["removed"].tobytes(), z["removed_at"]
    return None


_NAMED: dict = {}  # store path -> (file identity, (names -> indices, removed text, offsets) or None)


def removed_named(store_path, wanted) -> dict[str, list[dict]] | None:
    """{name: the removed facts that bear it} for the names WANTED (of removed_names), read
    from the snapshot's index of removed names, the facts in the removed list's order; None
    when the snapshot has no index computed by this code (then load_removed)."""
    try:
        got = _read_once(_NAMED, _path(store_path), _named_index)
        if got is None:
            return None
        names, blob, at = got
        return {n: [json.loads(blob[at[i, 0]:at[i, 1]]) for i in names[n]]
                for n in wanted if n in names}
    except (OSError, IndexError, TypeError, *_DAMAGED):
        return None


_REMOVED: dict = {}  # store path -> (file identity, removed list or None)


def load_removed(store_path) -> list[dict] | None:
    """The snapshot's removed facts; None when it has no list (written by an older repomem) or
    cannot be read."""
    try:
        return _read_once(_REMOVED, _path(store_path),
                          lambda z: snapfile.json_member(z["removed"]) if "removed" in z.files else None)
    except (OSError, *_DAMAGED):
        return None


def restamp(store_path: Store | Path, state: dict) -> bool:
    """Write the snapshot again with a new state and the same contents: commits that opened or
    closed no version (docs, tests, a README) need neither the rows parsed nor the lexical index
    rebuilt.  False when there is no readable snapshot to copy."""
    import numpy as np

    final = _path(store_path)
    try:
        with snapfile.load(final) as z:
            members = {k: z[k] for k in z.files if k != "state"}
    except OSError:
        return False
    except _DAMAGED as e:
        _discard_damaged(store_path, e)
        return False
    with atomic.replacing(final) as fh:
        snapfile.save(fh, dict(state=np.frombuffer(json.dumps(state).encode(), dtype=np.uint8),
                               **members))
    return True


def known_docs(store) -> dict:
    """The tokens of the current snapshot's documents, read before the writer replaces it."""
    return _known_docs(_path(store))


def _known_docs(path: Path) -> dict:
    """The tokens the previous snapshot's lexical index was built from (none: tokenise all)."""
    try:
        with snapfile.load(path) as z:
            return json.loads(z["lex_docs"].tobytes()) if "lex_docs" in z else {}
    except (OSError, ValueError, KeyError):
        return {}


def _read(store_path: Store | Path, head: str | None, any_head: bool = False):
    try:
        with snapfile.load(_path(store_path)) as z:
            state = json.loads(z["state"].tobytes())
            if not any_head and (head is None or state.get("head") != head):
                return None
            return state, snapfile.json_member(z["rows"]), z["embeddings"]
    except OSError:
        return None
    except _DAMAGED as e:
        _discard_damaged(store_path, e)
        return None


def _columns_current(z) -> bool:
    """Whether the snapshot's ranking columns were computed by this code (rank.columns_code):
    a snapshot of an older repomem has none, or others, and is rewritten by the next writer
    (``repomem ingest``); meanwhile each process computes them itself."""
    from repomem.service.rank import columns_code

    if "facts" not in z:
        return False
    head = z["facts"][:200].tobytes()  # {"code": "<16 hex digits>", ... comes first
    return head.startswith(b'{"code": "' + columns_code().encode() + b'"')


def _removed_index_current(z) -> bool:
    """Whether a snapshot with a removed list has the index of its names, computed by this
    code (removed_named): else each fresh process that meets an unknown name parses the whole
    list until the next writer (``repomem ingest``) writes the snapshot again."""
    if "removed" not in z:
        return True
    return "removed_names" in z and "removed_at" in z and \
        json.loads(z["removed_names"].tobytes()).get("code") == _removed_code()


def exists(store_path: Store | Path, head: str | None) -> bool:
    """Whether a whole snapshot of HEAD's view is there, in this repomem's file format
    (service/snapfile.py), its lexical index built by this tokenizer and its ranking columns
    and index of removed names by this code (else every fresh process would read the older
    format, index the rows or compute the columns itself until the next commit)."""
    from repomem.core.tokens import TOKENIZER

    try:
        with snapfile.load(_path(store_path)) as z:  # members load lazily
            if json.loads(z["state"].tobytes()).get("head") != head:
                return False
            z["rows"], z["embeddings"]  # a truncated file fails here, not at the next read
            return isinstance(z, snapfile.Snapshot) and "lex_tokenizer" in z \
                and json.loads(z["lex_tokenizer"].tobytes()) == TOKENIZER \
                and _columns_current(z) and _removed_index_current(z)
    except OSError:
        return False
    except _DAMAGED as e:
        _discard_damaged(store_path, e)
        return False


def load_any(store_path: Store | Path):
    """The snapshot whatever HEAD it was written for (the writer patches it forward)."""
    return _read(store_path, None, any_head=True)


_LOADED: dict = {}  # store path -> (file identity, snapshot): a warm process parses it once


def load_search(store_path):
    """(state, rows, embeddings, lexical index or None) of the snapshot, whatever HEAD it was
    written for; None without one.  Reused while the file is the same (writers replace it)."""
    from repomem.service.lexical import Lexical
    from repomem.service.rank import offer_columns

    p = _path(store_path)
    try:
        st = p.stat()
    except OSError:
        return None
    ident = (st.st_ino, st.st_mtime_ns, st.st_size)
    hit = _LOADED.get(str(p))
    if hit and hit[0] == ident:
        offer_columns(hit[1][1], hit[2])  # (another snapshot's may have been offered meanwhile)
        return hit[1]
    try:
        with snapfile.load(p) as z:
            state = json.loads(z["state"].tobytes())
            rows = snapfile.json_member(z["rows"])
            snap = (state, rows, z["embeddings"], Lexical.from_arrays(z, len(rows)))
            columns = z["facts"].tobytes() if "facts" in z else None
    except OSError:
        return None
    except _DAMAGED as e:
        _discard_damaged(store_path, e)
        return None
    _LOADED.clear()
    _LOADED[str(p)] = (ident, snap, columns)
    # ranking's columns of these rows, computed by the writer: ranking checks that its own code
    # computed them, else computes them itself
    offer_columns(rows, columns)
    return snap

