"""The supersession ledger: a fold of commit records, in first-parent order, into fact versions.

State is derived, never mutated in place by ingestion: the records are the source of truth and
the versions are recomputed from them.  A key's value at time t is its value in the latest record
at or before t that mentions it, so ingestion order, re-reads and crash-replays cannot change the
outcome.  No similarity score and no LLM decides supersession: a key whose value differs is a new
version, a key that disappears is removed.

The one non-local piece is function identity.  A record says "anchor a.py::f became b.py::g"
(from the commit's own diff); the fold carries f's identity over to g, so the rename or move is a
new version of the same key, not a new fact.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from repomem.core import buildprops
from repomem.core.buildprops import is_gradle_script
from repomem.core.model import CONFIG, MOUNT, ROUTE, ROUTER, WIRING, Fact, precedence, short_hash
from repomem.core.records import CommitRecord
from repomem.core.routes import join

SUPERSEDED = "superseded"
REMOVED = "removed"


@dataclass
class Version:
    id: str
    key: str
    kind: str
    subject: str
    value: str
    attrs: tuple[tuple[str, str], ...]
    is_set: bool
    valid_from: int
    commit: str
    recorded_at: int
    path: str
    line: int
    text: str
    purpose: str
    valid_to: int | None = None
    superseded_by: str | None = None
    end_reason: str | None = None
    end_commit: str | None = None
    # Lineage: (value, commit, time) of each earlier value of this key, oldest first, with the
    # commit and time that value ended.  Lets a question that names a retired name find the
    # key's current version.  Only short one-line values (names, routes, settings): a question
    # never spells out a retired docstring.  Tuples (immutable defaults) so older fold caches
    # still load.
    former: tuple = ()
    # Provenance spans: (from_time, path, line, text) each time the same value moved (a line or a
    # file move), so an as-of answer cites where the value stood then.  Empty: never moved.
    spans: tuple = ()
    # Keys this key's earlier versions are under: a setting of a file git says was renamed
    # (httpx/config.py -> httpx/_config.py) goes on under the new path's key.
    moved_from: tuple = ()

    def valid_at(self, t: int) -> bool:
        return self.valid_from <= t and (self.valid_to is None or t < self.valid_to)


def final_key(fact: Fact, identity: str | None) -> str:
    if fact.anchor is None:
        return fact.key
    base, _, suffix = fact.key.partition("#")
    return f"{base}:{identity}" + (f"#{suffix}" if suffix else "")


class Ledger:
    """Apply records one at a time, oldest first along one first-parent chain."""

    _wiring: WiringTable | None  # built on first use (no class attribute: see _wiring_table)

    def __init__(self) -> None:
        self.files: dict[str, dict[str, Fact]] = {}  # path -> final key -> fact
        self.key_paths: dict[str, set[str]] = {}  # final key -> paths that state it
        self.identity: dict[str, str] = {}  # anchor -> function identity
        self.open: dict[str, Version] = {}  # final key -> its current version
        self.versions: list[Version] = []
        # Closed versions a saved fold state no longer lists (repomem/foldstate.py): the
        # ledger never needs them again; the count keeps ``total_versions`` right.
        self.closed_before = 0
        self.applied: list[str] = []
        self.dirty: set[str] = set()  # ids of versions created or changed since the caller reset it

    @property
    def total_versions(self) -> int:
        return self.closed_before + len(self.versions)

    def _effective(self, key: str) -> Fact | None:
        # A key stated in several files (a dependency in requirements.txt and pyproject.toml of
        # one project) takes its value from the file ranked first by model.precedence.
        paths = self.key_paths.get(key)
        if not paths:
            return None
        if len(paths) == 1:
            fact = self.files[next(iter(paths))][key]
        else:
            fact = min((self.files[p][key] for p in paths), key=precedence)
        if fact.kind == ROUTE and fact.attrs and any(k == "router" for k, _ in fact.attrs):
            return compose_route(fact, self._wiring_table())
        if is_gradle_script(fact.path) and any(k == buildprops.PROPERTIES for k, _ in fact.attrs):
            return buildprops.resolve(fact, self._stated)
        return fact

    def _stated(self, path: str, key: str) -> Fact | None:
        return self.files.get(path, {}).get(key)

    # -- Gradle properties from other files (see core/buildprops.py) --------------------------
    def _properties_changed(self, new_states: dict[str, dict[str, Fact]]) -> bool:
        def values(state):
            return {k: f.value for k, f in state.items() if f.kind == CONFIG}
        return any(buildprops.rereads(p) and values(self.files.get(p, {})) != values(st)
                   for p, st in new_states.items())

    def _property_keys(self) -> set[str]:
        """Keys of build scripts' facts whose value reads a property of another file."""
        return {k for k, ps in self.key_paths.items() if k.startswith(("dependency:gradle:", "config:"))
                for p in ps if is_gradle_script(p)
                and any(a == buildprops.PROPERTIES for a, _ in self.files[p][k].attrs)}

    # -- route prefixes across files (see miners/_pyroutes.py) ---------------------------------
    def _wiring_table(self) -> "WiringTable":
        table = getattr(self, "_wiring", None)  # absent in a fold state saved by an older version
        if table is None:
            table = self._wiring = WiringTable(
                [f for k, ps in self.key_paths.items() if k.startswith(_WIRING_PREFIXES)
                 for f in (self.files[p][k] for p in ps)])
        return table

    def _wiring_changed(self, new_states: dict[str, dict[str, Fact]]) -> bool:
        def wiring(state):
            return {k: f.value_id() for k, f in state.items() if f.kind in WIRING}
        return any(wiring(self.files.get(p, {})) != wiring(st) for p, st in new_states.items())

    def _routed_keys(self) -> set[str]:
        """Keys of routes whose value depends on a router's prefix or mounts."""
        return {k for k, ps in self.key_paths.items() if k.startswith("route:")
                for p in ps if any(a == "router" for a, _ in self.files[p][k].attrs)}

    def __getstate__(self):
        state = dict(self.__dict__)
        state.pop("_wiring", None)  # a cache: rebuilt from the files on first use
        return state

    def apply(self, rec: CommitRecord, valid_time: int, recorded_at: int = 0) -> None:
        self.applied.append(rec.sha)
        link_src = {old for old, _ in rec.links}
        carried = {new: self.identity[old] for old, new in rec.links if old in self.identity}

        new_states: dict[str, dict[str, Fact]] = {}
        new_anchors: dict[str, str] = {}
        for path, facts in rec.files.items():
            state: dict[str, Fact] = {}
            for f in facts:
                ident = None
                if f.anchor is not None:
                    ident = new_anchors.get(f.anchor)
                    if ident is None:
                        ident = carried.get(f.anchor)
                    if ident is None and f.anchor not in link_src:
                        ident = self.identity.get(f.anchor)
                    if ident is None:
                        ident = short_hash(f.anchor, rec.sha)
                    new_anchors[f.anchor] = ident
                state[final_key(f, ident)] = f
            new_states[path] = state

        affected: set[str] = set()
        for path, state in new_states.items():
            affected.update(self.files.get(path, {}))
            affected.update(state)
        rewired = self._wiring_changed(new_states)
        if rewired:  # a prefix or mount changed: every routed route may have a new full path
            affected |= self._routed_keys()  # (routes this commit adds are in its files)
        if self._properties_changed(new_states):  # a gradle.properties or an ext property changed
            affected |= self._property_keys()
        affected = {k for k in affected if not k.startswith(_WIRING_PREFIXES)}
        before = {k: self._effective(k) for k in affected}
        if rewired:
            self._wiring = None
        # the keys each renamed file stated, read before its state is replaced
        moved = [(a, b, list(self.files.get(a, {}))) for a, b in rec.moves]

        for path, state in new_states.items():
            for k in self.files.get(path, {}):
                self.key_paths[k].discard(path)
                if not self.key_paths[k]:
                    del self.key_paths[k]
            for f in self.files.get(path, {}).values():
                if f.anchor is not None and f.anchor not in new_anchors:
                    self.identity.pop(f.anchor, None)
            if state:
                self.files[path] = state
                for k in state:
                    self.key_paths.setdefault(k, set()).add(path)
            else:
                self.files.pop(path, None)
        self.identity.update(new_anchors)

        for old_path, new_path, keys in moved:
            self._carry_over(old_path, new_path, keys, before)

        for key in sorted(affected):
            old, new = before[key], self._effective(key)
            cur = self.open.get(key)
            if new is None:
                if cur is not None:
                    self._close(cur, valid_time, rec.sha, REMOVED, None)
            elif cur is None or old is None or new.value_id() != old.value_id():
                v = Version(short_hash(key, rec.sha, n=16), key, new.kind, new.subject, new.value,
                            new.attrs, new.is_set, valid_time, rec.sha, recorded_at, new.path,
                            new.line, new.text, new.purpose)
                if cur is not None:
                    # Fresh tuples: a fold state read back from JSON holds lists, and a list
                    # shared with the closed version must not grow with the new one.
                    v.former = tuple(tuple(f) for f in cur.former)
                    v.moved_from = tuple(cur.moved_from)
                    if cur.value != new.value and len(cur.value) <= 120 and "\n" not in cur.value:
                        v.former += ((cur.value, rec.sha, valid_time),)
                    self._close(cur, valid_time, rec.sha, SUPERSEDED, v.id)
                self.open[key] = v
                self.versions.append(v)
                self.dirty.add(v.id)
            elif cur is not None:
                # Same value, new provenance (the line moved): not a new version, but a new span,
                # so an as-of answer before this commit still cites the old place.
                if (cur.path, cur.line, cur.text) != (new.path, new.line, new.text):
                    spans = tuple(tuple(p) for p in cur.spans) or \
                        ((cur.valid_from, cur.path, cur.line, cur.text),)
                    if spans[-1][0] == valid_time:  # two commits in one second: the later wins
                        spans = spans[:-1]
                    cur.spans = spans + ((valid_time, new.path, new.line, new.text),)
                if (cur.path, cur.line, cur.text, cur.subject, cur.purpose, cur.attrs) != \
                        (new.path, new.line, new.text, new.subject, new.purpose, new.attrs):
                    cur.path, cur.line, cur.text = new.path, new.line, new.text
                    cur.subject, cur.purpose, cur.attrs = new.subject, new.purpose, new.attrs
                    self.dirty.add(cur.id)

    def _carry_over(self, old_path: str, new_path: str, keys: list[str],
                    before: dict[str, Fact | None]) -> None:
        """A file git says this commit renamed: each open version of a key of the old path
        (``constant:httpx/config.py:DEFAULT_TIMEOUT``) whose counterpart the new path states
        now, and which nothing states any more, goes on as the new key's open version: the
        same value keeps its valid_from (a span cites the new place), a new value supersedes
        it as for any other change.  Only keys that name their file are carried; a function's
        or class's identity follows moves by itself."""
        infix = f":{old_path}:"
        for key_a in keys:  # the old path's keys (KEYS), those that name it
            fact = before.get(key_a)
            _, sep, rest = key_a.partition(":")
            if not sep or not rest.startswith(old_path + ":") or fact is None:
                continue
            key_b = key_a.replace(infix, f":{new_path}:", 1)
            cur = self.open.get(key_a)
            if cur is None or key_b not in before or before[key_b] is not None \
                    or key_b in self.open or self._effective(key_a) is not None \
                    or self._effective(key_b) is None:
                continue
            del self.open[key_a]
            cur.key = key_b
            cur.moved_from = (*cur.moved_from, key_a)
            self.open[key_b] = cur
            before[key_b], before[key_a] = fact, None  # key_b's new fact is compared with key_a's
            self.dirty.add(cur.id)

    def _close(self, v: Version, t: int, sha: str, reason: str, successor: str | None) -> None:
        v.valid_to, v.end_commit, v.end_reason, v.superseded_by = t, sha, reason, successor
        del self.open[v.key]
        self.dirty.add(v.id)


_WIRING_PREFIXES = (f"{ROUTER}:", f"{MOUNT}:")
_MAX_DEPTH = 8  # mounts nested deeper than this (or in a cycle) leave the route relative


class WiringTable:
    """Every current router prefix and mount, by router id."""

    def __init__(self, facts: list[Fact]):
        self.routers: dict[str, Fact] = {}
        self.mounts: dict[str, list[Fact]] = {}
        for f in sorted(facts, key=lambda f: (f.path, f.key)):
            if f.kind == ROUTER:
                self.routers.setdefault(f.key.split(":", 1)[1], f)
        for f in sorted(facts, key=lambda f: (f.path, f.key)):
            if f.kind == MOUNT:
                self.mounts.setdefault(self.canon(dict(f.attrs)["child"]), []).append(f)

    def canon(self, rid: str) -> str:
        """The defining router's id for an id as imported (``pkg.api:r`` for ``src.pkg.api:r``)."""
        if rid in self.routers or not rid:
            return rid
        hits = [k for k in self.routers if k.endswith("." + rid)]
        return hits[0] if len(hits) == 1 else rid

    def prefix(self, rid: str, depth: int = 0) -> tuple[str, bool]:
        """(prefix of router ``rid``, resolved): resolved is False when some prefix above the
        route is not a literal, and then the prefix is only the known part below it."""
        rid = self.canon(rid)
        own = self.routers.get(rid)
        own_ok = own is None or dict(own.attrs).get("literal") == "true"
        own_prefix = own.value if own is not None and own_ok else ""
        mounts = self.mounts.get(rid)
        if not mounts:
            return own_prefix, own_ok
        if depth >= _MAX_DEPTH:
            return own_prefix, False
        mount, m = mounts[0], dict(mounts[0].attrs)
        if m["given"] == "true":
            if m["literal"] != "true":
                return (own_prefix if m["mode"] == "prepend" else ""), False
            if m["mode"] == "override":  # Flask: the url_prefix given replaces the blueprint's
                mid, ok = mount.value, True
            else:
                mid, ok = join(mount.value, own_prefix) if own_ok else "", own_ok
        else:
            mid, ok = own_prefix, own_ok
        if not ok:
            return mid, False
        parent, parent_ok = self.prefix(m["parent"], depth + 1) if m["parent"] else ("", True)
        return (join(parent, mid) if parent_ok else mid), parent_ok


def compose_route(fact: Fact, table: WiringTable) -> Fact:
    """The route with its full path: the mounts' and the router's prefixes over its own path."""
    attrs = dict(fact.attrs)
    prefix, ok = table.prefix(attrs["router"])
    attrs.pop("relative", None)
    if not ok:
        attrs["relative"] = "true"
    value = f"{fact.value.split(' ', 1)[0]} {join(prefix, attrs['path'])}"
    return dataclasses.replace(fact, value=value, attrs=tuple(sorted(attrs.items())))


def fold(records: list[tuple[CommitRecord, int, int]]) -> Ledger:
    """records: (record, valid time, recorded_at) in first-parent order, oldest first."""
    ledger = Ledger()
    for rec, t, recorded in records:
        ledger.apply(rec, t, recorded)
    return ledger

