"""The commit record: what one commit says about every file it touches.

A record depends on the commit alone (its tree and its first parent's), so it is the unit the
stores keep and the ledger folds; the miners (repomem.miners.mining) produce it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from repomem.core.model import Fact

TREE = "tree:"  # the name of a record of a whole tree (service/current.py): "tree:<commit>"


def tree_name(head: str) -> str:
    return TREE + head


def tree_head(applied: list[str]) -> str | None:
    """The commit whose tree a ledger was folded from, when it was (``applied[0]``)."""
    return applied[0][len(TREE):] if applied and applied[0].startswith(TREE) else None


@dataclass
class CommitRecord:
    sha: str
    parent: str | None
    ct: int
    files: dict[str, list[Fact]] = field(default_factory=dict)  # path -> facts ([] = deleted)
    links: list[tuple[str, str]] = field(default_factory=list)  # (old anchor, new anchor)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (path, reason)
    moves: list[tuple[str, str]] = field(default_factory=list)  # (old path, new path): git's renames

    def to_json(self) -> dict:
        out = {"sha": self.sha, "parent": self.parent, "ct": self.ct,
               "files": {p: [f.to_dict() for f in fs] for p, fs in sorted(self.files.items())},
               "links": [list(x) for x in self.links],
               "skipped": [list(x) for x in self.skipped]}
        if self.moves:
            out["moves"] = [list(x) for x in self.moves]
        return out

    @classmethod
    def from_json(cls, d: dict) -> "CommitRecord":
        return cls(d["sha"], d["parent"], d["ct"],
                   {p: [Fact.from_dict(f) for f in fs] for p, fs in d["files"].items()},
                   [tuple(x) for x in d["links"]], [tuple(x) for x in d["skipped"]],
                   [tuple(x) for x in d.get("moves", ())])  # none in records of MINERS_VERSION < 16


