"""Read paths: ask, facts, history, changes, context.  Only versions valid at the asked time are
ever handed to an answering model; history is for explicit history queries."""

from __future__ import annotations

import json
import re
import time
from datetime import datetime, timezone

from repomem.adapters import git
from repomem.adapters.embed import get_embedder
from repomem.core.errors import RepomemError
from repomem.core.model import DESCRIPTIVE_ATTRS
from repomem.core.render import code
from repomem.service import viewcache
from repomem.service.disagree import annotate as note_disagreements
from repomem.service.lexical import own_names
from repomem.service.question import asked_when as asked_when  # (re-exported: the CLI's, MCP's)
from repomem.service.question import has_word, is_words, mentions, parse
from repomem.service.repo import Repo, check_intact
from repomem.storage.store import FOREVER


def ensure_view(r: Repo) -> int:
    """service.view.ensure_view, imported when a question needs the store of record: the view
    module brings the miners, which a question the snapshot answers (the hook's) never needs."""
    from repomem.service.view import ensure_view as ensure

    return ensure(r)


def coverage(r: Repo) -> dict | None:
    """service.view.coverage, imported only when a question reads the store of record (see
    ensure_view)."""
    from repomem.service.view import coverage as cover

    return cover(r)


def history_rows(r: Repo, t: int) -> tuple[list[dict], list]:
    """service.view.history_rows, imported only when an as-of question needs it."""
    from repomem.service.view import history_rows as rows

    return rows(r, t)


_DATE = re.compile(r"^\d{4}-?\d{2}-?\d{2}$")  # 2026-01-01 and 20260101 alike: a whole day
_MIN_TS = -62135596800  # 0001-01-01T00:00:00Z, the first second a datetime can show




def asked(question: str, as_of: str | None) -> str | None:
    """The time a question is asked about: as_of, else the date it names; an empty question is
    an error (it would match arbitrary facts)."""
    if not has_word(question):
        raise RepomemError("the question is empty",
                           hint='ask in words, e.g. repomem ask "which port does the API listen on?"')
    return as_of if as_of is not None else parse(question).asked_when


def iso(ts: int | None) -> str | None:
    if ts is None or ts >= FOREVER:
        return None
    return datetime.fromtimestamp(ts, timezone.utc).isoformat()


def parse_when(r: Repo, when: str | None) -> int:
    """ISO 8601 date (end of that day, UTC; basic 20260101 or extended 2026-01-01), datetime
    (UTC unless it has an offset), or a git revision (the commit's valid time).  A time past
    the last representable second is that second (the current facts); one before year 1 (UTC)
    is an error."""
    if when is None:
        return int(time.time())
    when = when.strip()
    t = None
    try:
        if _DATE.match(when):
            d = datetime.fromisoformat(when).replace(hour=23, minute=59, second=59)
            t = int(d.replace(tzinfo=timezone.utc).timestamp())
        else:
            d = datetime.fromisoformat(when.replace("Z", "+00:00"))
            if d.tzinfo is None:
                d = d.replace(tzinfo=timezone.utc)
            t = int(d.timestamp())
    except (ValueError, OverflowError):
        pass
    if t is not None:
        if t < _MIN_TS:
            raise RepomemError(f"{when!r} is before the year 1 (UTC)",
                               hint="give a date or datetime from 0001-01-01T00:00:00Z on")
        return min(t, FOREVER - 1)  # versions still valid have valid_to = FOREVER
    try:
        sha = git.resolve_commit(r.root, when)
    except RepomemError:
        raise RepomemError(f"cannot read {when!r} as a date or a revision",
                           hint="use an ISO 8601 date (2026-03-01), a datetime "
                                "(2026-03-01T12:00:00+02:00) or a git revision") from None
    chain = git.first_parent_chain(r.root)
    eff = git.effective_times(chain)
    if sha in eff:
        return eff[sha]
    return git.commit_infos(r.root, [sha])[0].ct


def fact_json(row: dict, tx: bool = False) -> dict:
    """A version as the JSON contract shows it.  Transaction time (when the commit was ingested)
    is left out unless asked for: it differs between two stores that ingested the same history
    at different moments, while everything else is a function of the history alone."""
    out = {"key": row["key"], "kind": row["kind"], "subject": row["subject"],
            "value": row["value"], "attrs": dict(json.loads(row["attrs"])),
            "valid_from": iso(row["valid_from"]), "valid_to": iso(row["valid_to"]),
            "commit": row["commit"], "path": row["path"], "line": row["line"],
            "text": row["text"], "purpose": row["purpose"],
            "superseded_by": row["superseded_by"] or None, "end_reason": row["end_reason"] or None}
    if tx:
        out["recorded_at"] = iso(row["recorded_at"])
    return out


def at_time(row: dict, t: int) -> dict:
    """The version with the provenance it had at t: the path, line and text of the span valid
    then (a value that moved keeps one version and a span per place it stood)."""
    spans = row.get("spans") or ()
    cur = None
    for span in spans:
        if span[0] <= t:
            cur = span
    if cur is None or (cur[1], cur[2], cur[3]) == (row["path"], row["line"], row["text"]):
        return row
    # a subject that says its file ("PORT in pkg/_config.py") says the file of then too (the
    # value stood in pkg/config.py before git renamed it)
    subject = row["subject"].replace(f" in {row['path']}", f" in {cur[1]}") \
        if cur[1] != row["path"] and row["path"] else row["subject"]
    return dict(row, path=cur[1], line=cur[2], text=cur[3], subject=subject)


def _search_snapshot(r: Repo, question: str, n: int):
    """The current view from the snapshot the last writer left: no Chroma import, so a fresh
    process answers fast.  Used for this HEAD, or for a first-parent ancestor a few commits back
    (new commits whose indexing has not finished: the answer is the last indexed state, the
    same a Chroma query would give now, and says how many commits it lacks).  None when it
    cannot be used (another branch, a reset, no snapshot)."""
    if r.store.remote is not None:  # the snapshot caches the server's view: bring it up to date
        from repomem.service.serverview import snapshot_ready

        snapshot_ready(r)
    elif not r.store.exists():
        return None
    else:
        check_intact(r)  # a snapshot of a damaged store would answer as if nothing happened
    # No store lock: the snapshot is one file that writers replace atomically.
    snap = viewcache.load_search(r.store)
    if snap is None:
        return None
    state, rows, matrix, lex = snap
    behind = _behind(r.root, state.get("head"))
    if behind is None:
        return None
    t = int(time.time())
    emb = get_embedder(state["embedder"])
    ranked, lineage = _rank_current(rows, matrix, lex, question, emb, t, n)
    return t, ranked, lineage, state.get("missing", 0) + behind, rows


_SPANS: list = [None, None]  # (rows, their valid_from and valid_to as numpy): once per snapshot


def _rank_current(rows: list[dict], matrix, lex, question: str, emb, t: int, n: int):
    """Rank the snapshot's rows valid at t (all of them, unless a version closed after the
    snapshot was written) for the question; (rows, lineage)."""
    import numpy as np

    from repomem.service.lexical import Lexical
    from repomem.service.rank import rank
    from repomem.service.scorer import similarities

    if _SPANS[0] is not rows:
        _SPANS[:] = [rows, (np.array([x["valid_from"] for x in rows], dtype=np.int64),
                            np.array([x["valid_to"] for x in rows], dtype=np.int64))]
    start, end = _SPANS[1]
    valid = (start <= t) & (t < end)
    if not valid.all():
        keep = np.flatnonzero(valid)
        rows, matrix = [rows[i] for i in keep], matrix[keep]
        lex = Lexical.build(rows)
    elif lex is None:
        lex = Lexical.build(rows)
    return rank(question, rows, similarities(matrix, emb.embed([question])[0], emb), lex, t, n)


_BEHIND: dict[tuple[str, str | None], tuple[tuple, int | None]] = {}


def _behind(root, head: str | None) -> int | None:
    """git.first_parent_distance from the snapshot's HEAD to HEAD, read again only when HEAD or
    its branch moved (a warm process asks many questions of one HEAD; each git call is a
    process)."""
    stamp = _head_stamp(root)
    key = (str(root), head)
    hit = _BEHIND.get(key)
    if stamp is not None and hit is not None and hit[0] == stamp:
        return hit[1]
    behind = git.first_parent_distance(root, head, "HEAD")
    if stamp is not None:
        _BEHIND[key] = (stamp, behind)
    return behind


def _head_stamp(root) -> tuple | None:
    """What HEAD points at, as the files say it: HEAD's text, its branch's ref file, and the
    packed refs' size and time; None when the layout is not the plain one (then git is asked)."""
    from pathlib import Path

    try:
        gitdir = Path(root) / ".git"
        if gitdir.is_file():  # a worktree: "gitdir: <path>"
            gitdir = Path(root, gitdir.read_text().split(":", 1)[1].strip())
        head = (gitdir / "HEAD").read_text().strip()
        common = gitdir
        if (gitdir / "commondir").exists():
            common = gitdir / (gitdir / "commondir").read_text().strip()
        if not head.startswith("ref: "):
            return (head,)
        ref = common / head[5:]
        loose = ref.read_text().strip() if ref.exists() else ""
        packed = common / "packed-refs"
        st = packed.stat() if packed.exists() else None
        return (head, loose, st and (st.st_size, st.st_mtime_ns))
    except (OSError, IndexError, UnicodeDecodeError):
        return None


def _search_store(r: Repo, question: str, t: int, n: int, given: tuple | None = None):
    """Every version valid at t from Chroma (or GIVEN: rows and their embeddings), ranked the
    same way as the snapshot's rows."""
    from repomem.service.lexical import Lexical
    from repomem.service.rank import rank
    from repomem.service.scorer import similarities

    with r.store.reader():
        emb = get_embedder(r.store.get_meta("embedder"))
        rows, embeddings = given if given is not None else r.store.valid_rows(t)
    rows = [at_time(x, t) for x in rows]
    if not rows:
        return [], [], rows
    sims = similarities(embeddings, emb.embed([question])[0], emb)
    return (*rank(question, rows, sims, Lexical.build(rows), t, n), rows)


def _rerank(question: str, rows: list[dict]) -> list[dict]:
    """Rank candidate rows that carry a vector distance (the RAG baselines of the benchmark):
    the same ranking as ask(), over these rows only."""
    import numpy as np

    from repomem.service.lexical import Lexical
    from repomem.service.rank import rank

    if not rows:
        return []
    sims = 1.0 - np.array([x["distance"] for x in rows], dtype=np.float64)
    return rank(question, rows, sims, Lexical.build(rows), 0, len(rows))[0]


def _removed(r: Repo, question: str, rows: list[dict], t: int,
             snapshot: bool = False, store_ok: bool = True) -> list[dict]:
    """Notes for the names the question gives that no fact valid at t bears, but a fact removed
    by then did ("is colorama still a dependency?": removed in 2f1c... on 2023-05-02, it was
    ``colorama; platform_system == 'Windows'``).  SNAPSHOT: ROWS are the snapshot's, whose
    removed facts (each removed key's last version) are read then; without that list (a
    snapshot of an older repomem, or ROWS from the store) the store of record is read, unless
    STORE_OK is false (the pre-prompt hook: then no note)."""
    from repomem.service.rowindex import gone_cache
    from repomem.service.tiers import unnamed

    asked, kinds = unnamed(question, rows)
    if not asked:
        return []
    gone = gone_cache(rows)  # a warm process (MCP, the bench): the same view, read once
    by_name = gone.get(frozenset(kinds))
    named = viewcache.removed_named(r.store, asked) if snapshot and by_name is None else None
    if named is not None:  # the snapshot's index: only the facts that bore the asked names
        by_name = {n: sorted((x for x in xs if x["valid_to"] <= t and
                              (not kinds or x["kind"] in kinds)),
                             key=lambda x: (-x["valid_to"], x["key"]))
                   for n, xs in named.items()}
    elif by_name is None:
        listed = viewcache.load_removed(r.store) if snapshot else None
        if listed is not None:
            last = [x for x in listed if x["valid_to"] <= t and (not kinds or x["kind"] in kinds)]
        elif store_ok:
            live = {x["key"] for x in rows}
            where: dict = {"valid_to": {"$lte": t}}
            if kinds:
                where = {"$and": [where, {"kind": {"$in": sorted(kinds)}}]}
            with r.store.reader():
                closed = r.store.rows(where)
            last = viewcache.removed_rows(closed, live)
        else:
            return []
        by_name = {}
        for x in sorted(last, key=lambda x: (-x["valid_to"], x["key"])):  # latest first
            for n in viewcache.removed_names(x):  # (as the snapshot's index has them)
                by_name.setdefault(n, []).append(x)
        gone[frozenset(kinds)] = by_name
    return [{"name": raw, "key": x["key"], "now": None, "was": x["value"], "subject": x["subject"],
             "commit": x.get("end_commit") or "", "at": x["valid_to"]}
            for name, raw in asked.items() for x in by_name.get(name, [])[:REMOVED_MAX]]


REMOVED_MAX = 3  # notes per removed name (a package in several manifests, say)


def _key_versions(r: Repo, facts: list[dict], t: int) -> dict[str, list[dict]]:
    """Every version of these facts' keys that began by t, oldest first, from the store of
    record (the snapshot holds current versions only); read once for first_seen and previous."""
    keys = sorted({f["key"] for f in facts})
    with r.store.reader():
        rows = _with_moved(r, r.store.rows({"$and": [{"key": {"$in": keys}},
                                                     {"valid_from": {"$lte": t}}]}))
    # a key's versions from before its file was renamed are its own
    moved = {old: x["key"] for x in rows for old in x.get("moved_from") or ()}
    by_key: dict[str, list[dict]] = {}
    for x in sorted(rows, key=lambda x: x["valid_from"]):
        if x["valid_from"] <= t:
            by_key.setdefault(_moved_to(moved, x["key"]), []).append(x)
    return by_key


def _moved_to(moved: dict[str, str], key: str) -> str:
    for _ in range(MOVES_MAX):
        if key not in moved:
            break
        key = moved[key]
    return key


MOVES_MAX = 16  # renames of one file followed back (a cycle a -> b -> a ends too)


def _with_moved(r: Repo, rows: list[dict]) -> list[dict]:
    """ROWS with the versions of the keys they were under before their file was renamed
    (``moved_from``), back through every rename; the caller holds the store's reader lock."""
    seen = {x["id"] for x in rows}
    done = {x["key"] for x in rows}
    todo = sorted({k for x in rows for k in x.get("moved_from") or ()} - done)
    for _ in range(MOVES_MAX):
        if not todo:
            break
        done.update(todo)
        more = [x for x in r.store.rows({"key": {"$in": todo}}) if x["id"] not in seen]
        seen.update(x["id"] for x in more)
        rows = rows + more
        todo = sorted({k for x in more for k in x.get("moved_from") or ()} - done)
    return rows


def _first_seen(facts: list[dict], versions: dict[str, list[dict]]) -> None:
    """Each fact's first_seen: the date and commit of its key's first version."""
    for f in facts:
        v = versions.get(f["key"])
        if v:
            f["first_seen"] = {"date": iso(v[0]["valid_from"]), "commit": v[0]["commit"],
                               "value": v[0]["value"]}




def _reached(facts: list[dict], versions: dict[str, list[dict]], number: str) -> None:
    """Each package's or Python's fact's reached: the last version (by the versions' t) whose
    floor reached NUMBER (7 is reached by 7.0, 7.4 or 8.0) after one below it, or its first
    version when that was already there (``from``: None); none when it never did."""
    from repomem.service.quoted import version_floor

    asked = tuple(int(p) for p in number.split("."))
    for f in facts:
        if f["kind"] not in ("dependency", "python"):
            continue
        found: dict | None = None
        last_below: dict | None = None
        came_from: str | None = None
        state = ""  # "below" or "at" the number, after the versions so far
        for x in versions.get(f["key"], ()):
            floor = version_floor(x["value"])
            if floor is None:
                continue
            if floor[:len(asked)] >= asked:
                if state != "at":
                    found, came_from = x, last_below["value"] if last_below else None
                state = "at"
            else:
                state, last_below = "below", x
        if found is not None:
            f["reached"] = {"version": number, "value": found["value"],
                            "date": iso(found["valid_from"]), "commit": found["commit"],
                            "from": came_from}




def _change(r: Repo, facts: list[dict], versions: dict[str, list[dict]] | None) -> None:
    """Each fact's change: the commit that set its value (with VERSIONS, the one that first set
    its key), its date, author and message's first line (redacted as any text shown is)."""
    from repomem.core.secrets import redact_text

    picked = {}
    for f in facts:
        first = (versions or {}).get(f["key"])
        picked[id(f)] = (first[0]["commit"], iso(first[0]["valid_from"])) if first \
            else (f["commit"], f["valid_from"])
    known = git.authors_and_subjects(r.root, [sha for sha, _ in picked.values()])
    for f in facts:
        sha, date = picked[id(f)]
        if sha in known:
            author, subject = known[sha]
            f["change"] = {"commit": sha, "date": date, "author": redact_text(author),
                           "subject": redact_text(subject)}


ADOPTED_POOL = 20  # candidates whose history "when did we start using X?" reads for the earliest


def _adopted(facts: list[dict], versions: dict[str, list[dict]], name: str) -> None:
    """Each setting's or package's adopted, for "when did click switch to flit?": the version
    since which its value has said NAME (build-backend flit_core.buildapi, ``from`` the
    setuptools.build_meta before it), or its first version when only its name or its file's
    says NAME (the flit dependency, tool.ruff.fix, a hook of .pre-commit-config.yaml: ``from``
    None); none when none does.  The facts that say it come first, the earliest first: the
    question asks when the project took it up, and click's ruff dependency of 2025 (uv's
    dependency groups) is not when [tool.ruff] came, 2023."""
    since: dict[int, int] = {}
    for f in facts:
        run = versions.get(f["key"])
        if not run or f["kind"] in ("function", "class", "route"):
            continue
        start = 0
        if mentions(f["value"], name):
            start = len(run) - 1
            while start > 0 and mentions(run[start - 1]["value"], name):
                start -= 1
        elif not mentions(own_names(f["key"])[0] if f["kind"] != "dependency" else f["key"], name) \
                and not mentions(f["path"] or "", name):
            continue  # (a setting of the tool's own file, .pre-commit-config.yaml, came with it)
        got = run[start]
        f["adopted"] = {"name": name, "value": got["value"], "date": iso(got["valid_from"]),
                        "commit": got["commit"], "from": run[start - 1]["value"] if start else None}
        since[id(f)] = got["valid_from"]
    facts.sort(key=lambda f: (0, since[id(f)]) if id(f) in since else (1, 0))  # stable


def _previous(facts: list[dict], versions: dict[str, list[dict]], t: int) -> None:
    """Each fact's previous: the last value its key held before the current one (by t), with
    the date and commit it was set by (a signature's change is a version of the same value) and
    the date it changed; none for a key that never held another value."""
    for f in facts:
        earlier = [x for x in reversed(versions.get(f["key"], ())) if x["valid_to"] <= t]
        # the version that held it last, and the first version of that value's run
        at = next((k for k, x in enumerate(earlier) if x["value"] != f["value"]), None)
        if at is None:
            continue
        last = run = earlier[at]
        for x in earlier[at + 1:]:  # back over versions of the same value that followed one another
            if x["value"] != last["value"] or x["valid_to"] != run["valid_from"]:
                break
            run = x
        f["previous"] = {"value": last["value"], "date": iso(run["valid_from"]),
                         "commit": run["commit"], "until": iso(last["valid_to"])}


def lineage_json(note: dict) -> dict:
    out = {"name": note["name"], "now": note["now"], "key": note["key"],
           "commit": note["commit"], "date": iso(note["at"])}
    if note["now"] is None:  # removed: what it was
        out.update(was=note["was"], subject=note["subject"])
    return out


_NAME = re.compile(r"[A-Za-z_]\w*\Z")
_VALUED = ("constant", "config")


_VALUED_NAMES: list = [None, None]  # (rows, their settings and constants by name): once per list


def _valued_names(rows: list[dict]) -> dict[str, list[dict]]:
    if _VALUED_NAMES[0] is not rows:
        named: dict[str, list[dict]] = {}
        for row in rows:
            if row["kind"] in _VALUED:
                named.setdefault(row["key"].rsplit(":", 1)[-1], []).append(row)
        _VALUED_NAMES[:] = [rows, named]
    return _VALUED_NAMES[1]


def _refer(facts: list[dict], rows: list[dict]) -> None:
    """A setting or constant whose value is another one's name (httpx's ``max_redirects:
    int = DEFAULT_MAX_REDIRECTS``) gets that one's value valid at the same time as
    ``refers``, so an answer says 20, not only the name: the one of the same file, else of the
    same folder (an import from a sibling module), else the only one of that name."""
    wanted = {f["value"] for f in facts if f["kind"] in _VALUED and _NAME.match(f["value"] or "")}
    if not wanted:
        return
    named = _valued_names(rows)
    for f in facts:
        found = [x for x in named.get(f["value"], ()) if x["key"] != f["key"]] \
            if f["kind"] in _VALUED else []
        folder = f["path"].rpartition("/")[0]
        found = [x for x in found if x["path"] == f["path"]] \
            or [x for x in found if x["path"].rpartition("/")[0] == folder] or found
        if len(found) == 1:
            x = found[0]
            f["refers"] = {"key": x["key"], "value": x["value"], "path": x["path"],
                           "line": x["line"], "commit": x["commit"]}


def ask(r: Repo, question: str, as_of: str | None = None, k: int = 5,
        snapshot_only: bool = False, floor: bool = False) -> dict:
    """The k best facts valid now (or at as_of), best first.  lineage: for each retired name the
    question used, the key's current name and when it changed (the only place an old name is
    ever shown).  snapshot_only: the current facts of the snapshot alone, never the store of
    record -- no chromadb import, no wait for a writer (the pre-prompt hook); no facts when the
    snapshot cannot answer for this HEAD, and none of the history a question may ask beside
    them (first seen, the value before, the change).  floor: only the facts above the
    relevance floor (rank.relevant), none at all for a question with nothing to look up.
    A fact that other files state alike is shown once, its ``same_in`` naming them (copies.py)."""
    from repomem.service.bounds import bounded_question
    from repomem.service.copies import fold, where
    from repomem.service.rank import relevant
    from repomem.service.tiers import taken_up

    question, cut = bounded_question(question)  # the one place a question's cost is bounded
    # more candidates when the question may ask when a name was taken up (see _adopted)
    q = parse(question)
    # (and twice k: the copies of a fact in other files are folded into it, see copies.py)
    n = max(k, ADOPTED_POOL) if not snapshot_only and (q.adopted or q.added) else 2 * k
    hit = _search_snapshot(r, question, n) if as_of is None else None
    cover = None
    if hit is not None:
        t, ranked, lineage, missing, rows = hit
    elif snapshot_only:
        return {"question": question, "as_of": None, "answer": None, "facts": [], "lineage": [],
                "unindexed_commits": 0, "unavailable": True}
    else:
        missing = ensure_view(r)
        t = parse_when(r, as_of)
        cover = coverage(r)  # None unless the history behind a tree view is being indexed
        if cover is None or t >= cover["tree"]:
            ranked, lineage, rows = _search_store(r, question, t, n)
        elif t < cover["whole_before"]:
            ranked, lineage, rows = _search_store(r, question, t, n, history_rows(r, t))
        else:  # never a partial answer: say how far the history is indexed
            return {"question": question, "as_of": iso(t), "answer": None, "facts": [],
                    "lineage": [], "unindexed_commits": 0, "complete": False,
                    "history_indexed_to": iso(cover["reached"])}
    if floor:
        ranked = relevant(question, ranked)
    facts = [dict(fact_json(x), score=x["score"]) for x in ranked]
    took = taken_up(q, rows) if n > k else None
    versions: dict[str, list[dict]] | None = None
    if took and facts:  # when it came to say the name, not when it first held anything: the
        # earliest of the candidates first (see _adopted)
        versions = _key_versions(r, facts, t)
        _adopted(facts, versions, took)
    facts, copies = fold(facts)  # a fact once, naming the other files that state it
    del facts[k:]
    for f in facts:
        if f["key"] in copies:
            f["same_in"] = [where(c) for c in copies[f["key"]]]
    shown = {f["key"] for f in facts}  # the ranking's notes on names are of the facts it ranked
    lineage = [x for x in lineage if x["key"] in shown] + \
        _removed(r, question, rows, t, snapshot=hit is not None, store_ok=not snapshot_only)
    _refer(facts, rows)
    note_disagreements(facts, rows)  # another file says otherwise (service/disagree.py)
    since, before, reached = q.since_when, q.before, q.reached
    who_why = q.who_why and not snapshot_only
    first_set = who_why and q.first_set
    if facts and not snapshot_only and (since or before or reached or first_set):
        if versions is None:
            versions = _key_versions(r, facts, t)
        if since and not took:
            _first_seen(facts, versions)
        if before:
            _previous(facts, versions, t)
        if reached:
            _reached(facts, versions, reached)
    if facts and who_why:
        _change(r, facts, versions if first_set else None)  # (read above when first_set)
    out = {"question": question, "as_of": iso(t), "answer": facts[0]["value"] if facts else None,
           "facts": facts, "lineage": [lineage_json(x) for x in lineage],
           "unindexed_commits": missing, **({"note": cut} if cut else {})}
    if hit is None and as_of is not None and cover is not None:  # answered mid-backfill
        out.update(complete=True, history_indexed_to=iso(cover["reached"]))
    return out


def facts(r: Repo, as_of: str | None = None, kind: str | None = None, tx: bool = False) -> dict:
    ensure_view(r)
    t = parse_when(r, as_of)
    cover = coverage(r) if as_of is not None else None  # mid-backfill, see ask()
    if cover is not None and t < cover["tree"]:
        if t >= cover["whole_before"]:
            return {"as_of": iso(t), "facts": [], "complete": False,
                    "history_indexed_to": iso(cover["reached"])}
        rows = [x for x in history_rows(r, t)[0] if not kind or x["kind"] == kind]
    else:
        where: dict[str, list[dict]] = {"$and": [{"valid_from": {"$lte": t}},
                                                 {"valid_to": {"$gt": t}}]}
        if kind:
            where["$and"].append({"kind": kind})
        with r.store.reader():
            rows = r.store.rows(where)
    rows = [at_time(x, t) for x in rows]
    rows.sort(key=lambda x: (x["kind"], x["path"], x["key"]))
    out: dict = {"as_of": iso(t), "facts": [fact_json(x, tx) for x in rows]}
    if cover is not None:
        out.update(complete=True, history_indexed_to=iso(cover["reached"]))
    return out


def history(r: Repo, key: str, tx: bool = False, words: bool = True) -> dict:
    """All versions of a key, oldest first.  KEY may also be a fact's current subject or value
    (a function's name), a method's qualified name or alias (``Context.invoke``, ``res.set``),
    or a name one of its earlier versions bore: it is resolved to the key of the current fact
    it names.  Words that name nothing ("minimum python version") are asked as a question, and
    the best answer's key is the one shown (``answering`` says so); with WORDS false they are
    an unknown key, like any other key that names nothing: an error naming the nearest keys,
    never another key's history."""
    ensure_view(r)
    with r.store.reader():
        rows = r.store.rows({"key": key})
        if not rows:
            from repomem.service.columns import qualnames

            current = r.store.rows({"valid_to": {"$gt": int(time.time())}})
            keys = sorted({x["key"] for x in current if key in (x["value"], x["subject"])})
            if not keys:  # a method by its qualified name or an alias (res.type, res.contentType)
                keys = sorted({x["key"] for x in current if key in qualnames(x)})
            if not keys:  # an old name: the versions that remember bearing it (removed keys too)
                keys = sorted({x["key"] for x in r.store.rows()
                               if any(key == f[0] for f in x.get("former") or ())})
            if len(keys) > 1:
                raise RepomemError(f"{key!r} names {len(keys)} keys",
                                   hint="pass one of: " + ", ".join(keys[:5]))
            if keys:
                key = keys[0]
                rows = r.store.rows({"key": key})
    asked = None
    if not rows and words and is_words(key):
        # words, not a name: "minimum python version" is the key its best answer has
        best = ask(r, key, k=1)["facts"]
        if best:
            asked, key = key, best[0]["key"]
            with r.store.reader():
                rows = r.store.rows({"key": key})
    if not rows:
        near = nearest_keys(r, key)
        raise RepomemError(f"unknown key: {code(key)}",
                           hint=("the nearest keys: " + ", ".join(code(k) for k in near)) if near else
                           "list keys with 'repomem facts', or ask with 'repomem ask'")
    with r.store.reader():  # and before its file was renamed, under the old path's key
        rows = _with_moved(r, rows)
    rows.sort(key=lambda x: (x["valid_from"], x["valid_to"]))
    out: dict = {"key": key, "versions": [fact_json(x, tx) for x in rows]}
    if asked is not None:
        out["answering"] = asked
    cover = coverage(r)
    if cover is not None:  # the view is HEAD's tree: earlier versions are not indexed yet
        out.update(complete=False, history_indexed_to=iso(cover["reached"]))
    return out


NEAREST = 5  # keys an unknown key's error names


def nearest_keys(r: Repo, key: str) -> list[str]:
    """Keys of current facts nearest to KEY: spelled alike (difflib), then the best answers to
    it read as words."""
    import difflib

    with r.store.reader():
        current = sorted({x["key"] for x in r.store.rows({"valid_to": {"$gt": int(time.time())}})})
    near = difflib.get_close_matches(key, current, n=NEAREST, cutoff=0.6)
    if len(near) < NEAREST and has_word(key):
        near += [f["key"] for f in ask(r, key, k=NEAREST)["facts"] if f["key"] not in near]
    return near[:NEAREST]


def changes(r: Repo, since: str) -> dict:
    """Supersessions and removals since WHEN, oldest first: what an agent must unlearn.
    A date includes that whole day (since 2026-02-10 = from 00:00 UTC); a revision excludes the
    commit itself, like ``git log REV..HEAD``."""
    ensure_view(r)
    t = parse_when(r, since)
    if _DATE.match(since.strip()):
        t -= 86400  # parse_when gives the day's last second (right for --as-of); since = its start
    with r.store.reader():
        rows = r.store.rows({"$and": [{"valid_to": {"$gt": t}}, {"valid_to": {"$lt": FOREVER}}]})
        succ_ids = [x["superseded_by"] for x in rows if x["superseded_by"]]
        succ = {}
        if succ_ids:
            succ = {x["id"]: x for x in r.store.get_rows(succ_ids)}
    rows.sort(key=lambda x: (x["valid_to"], x["key"]))
    out = []
    for x in rows:
        s = succ.get(x["superseded_by"])
        out.append({"key": x["key"], "kind": x["kind"], "subject": x["subject"],
                    "change": x["end_reason"], "at": iso(x["valid_to"]), "commit": x["end_commit"],
                    "from_value": x["value"], "to_value": s["value"] if s else None,
                    "path": s["path"] if s else x["path"], "line": s["line"] if s else x["line"]})
        if s:  # the same value with another signature, handler or location is a change too
            a, b = dict(json.loads(x["attrs"])), dict(json.loads(s["attrs"]))
            out[-1]["attrs_changed"] = {k: [a.get(k), b.get(k)] for k in sorted(a.keys() | b.keys())
                                        if a.get(k) != b.get(k) and k not in DESCRIPTIVE_ATTRS}
    return {"since": iso(t + 1 if _DATE.match(since.strip()) else t), "changes": out}
