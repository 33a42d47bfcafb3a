"""The pure core: what a mined fact is, and the small records built from facts.

Nothing here touches git, Chroma or the file system.  Miners produce :class:`Fact`
objects from one file's text; the ledger folds them, commit by commit, into versions.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

# Kinds of fact.  A kind is part of every key, so two kinds never supersede each other.
FUNCTION = "function"
ROUTE = "route"
CONSTANT = "constant"
CONFIG = "config"
DEPENDENCY = "dependency"
PYTHON = "python"  # the required / supported Python versions
DOCKER = "docker"  # Dockerfile base images, exposed ports, ENV and ARG defaults
CLASS = "class"  # like a function: its name is the value, its identity survives renames
KINDS = (FUNCTION, CLASS, ROUTE, CONSTANT, CONFIG, DEPENDENCY, PYTHON, DOCKER)
# Internal kinds: stated by files and folded by the ledger (route prefixes across files), but
# never versions of their own, never shown.
ROUTER = "router"
MOUNT = "mount"
WIRING = (ROUTER, MOUNT)


# Attributes that describe a fact version without being part of its value: what a function's
# body calls, catches and says in its comments changes with most edits of the body, and the
# function is the same one.
DESCRIPTIVE_ATTRS = frozenset({"calls", "catches", "notes"})


@dataclass(frozen=True)
class Fact:
    """One fact as it stands in one version of one file.

    ``key`` says what the fact is about and never contains its value.  Facts that belong to a
    Python function (the function itself, its routes) carry an ``anchor`` -- ``path::qualname``
    as it is in this file version -- and a ``key`` that is only a suffix such as ``"function"`` or
    ``"route"``: the ledger turns the anchor into a stable identity that survives renames and
    moves, and the final key is ``f"{key}:{identity}"``.

    ``value`` is the answer a question about the fact wants (a port number, a function's name, a
    version spec, a route).  ``attrs`` are further value components (a signature, a location):
    a change to any of them is a new version too.  ``line``/``text``/``path`` are provenance and do
    not make a new version on their own.  ``purpose`` is the text questions are matched against.
    ``fingerprint`` is only used inside one commit to recognise a renamed or moved function.
    """

    key: str
    kind: str
    subject: str
    value: str
    path: str
    line: int
    text: str
    purpose: str
    attrs: tuple[tuple[str, str], ...] = ()
    anchor: str | None = None
    # a str once stored; while mining, an identity.Fingerprint (made on demand)
    fingerprint: Any = field(default="", compare=False)
    is_set: bool = False

    def value_id(self) -> tuple:
        """What supersession compares: the value and its other components, never provenance,
        nor what only describes the version (DESCRIPTIVE_ATTRS, updated in place like a purpose)."""
        attrs = self.attrs
        if any(k in DESCRIPTIVE_ATTRS for k, _ in attrs):
            attrs = tuple(a for a in attrs if a[0] not in DESCRIPTIVE_ATTRS)
        return (self.value, attrs, self.is_set)

    def to_dict(self) -> dict:
        # Written out by hand: dataclasses.asdict deep-copies and was a tenth of ingestion time.
        # ``attrs`` stays a tuple of pairs: JSON writes it as the same nested arrays, and
        # copying every pair into a list was most of the time of serialising a record.
        return {"key": self.key, "kind": self.kind, "subject": self.subject, "value": self.value,
                "path": self.path, "line": self.line, "text": self.text, "purpose": self.purpose,
                "attrs": self.attrs, "anchor": self.anchor, "is_set": self.is_set}

    @classmethod
    def from_dict(cls, d: dict) -> "Fact":
        d = dict(d)
        d["attrs"] = tuple(tuple(a) for a in d.get("attrs", ()))
        return cls(**d)


def file_setting(path: str, dotted: str, value: str, line: int, text: str, purpose: str,
                 attrs: tuple[tuple[str, str], ...] = (), kind: str = CONFIG) -> Fact:
    """A setting keyed by its file: ``<kind>:<path>:<dotted>``, its subject "<dotted> in <path>"
    (LINE 1-based)."""
    return Fact(key=f"{kind}:{path}:{dotted}", kind=kind, subject=f"{dotted} in {path}", value=value,
                path=path, line=line, text=text, purpose=purpose, attrs=attrs)


# Which manifest a dependency stated in several files of one project is taken from: the
# declared metadata first, then pinned requirement files, then anything else.
_MANIFEST_RANK = {"pyproject.toml": 0, "setup.cfg": 1, "setup.py": 2}


def precedence(fact: Fact) -> tuple[int, str]:
    """Sort key of the files stating one key: the lowest is the effective fact.

    Only dependencies and the Python requirement can be stated by several files (their key
    names a project, not a file); for every other kind the order is the path's, which is at
    least deterministic.
    """
    if fact.kind not in (DEPENDENCY, PYTHON):
        return (0, fact.path)
    base = fact.path.rsplit("/", 1)[-1]
    rank = _MANIFEST_RANK.get(base, 3 if base.endswith(".txt") else 4)
    return (rank, fact.path)


def set_value(items) -> str:
    """Canonical text of a set-valued fact: sorted (versions numerically), comma separated.

    Two sets with the same members always give the same string, so comparing values compares sets.
    """

    def sort_key(item: str):
        parts = []
        for p in item.replace("-", ".").split("."):
            parts.append((0, int(p), "") if p.isdigit() else (1, 0, p))
        return parts

    return ", ".join(sorted({str(i).strip() for i in items if str(i).strip()}, key=sort_key))


def short_hash(*parts: str, n: int = 12) -> str:
    h = hashlib.sha1("\x00".join(parts).encode("utf-8", "surrogateescape"))
    return h.hexdigest()[:n]


def canonical_json(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
