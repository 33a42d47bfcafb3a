"""Lineage notes for the values a question quotes: "we listened on 8000: what is the port
now?" says an earlier value of the best facts, and "when did we drop Python 3.7?" a version
floor by its number (repomem.service.rank adds the notes; ranking is not changed by them)."""

from __future__ import annotations

import re

from repomem.service.question import Question, code_shaped, says_major

_CODE_NAMES = ("function", "class")


def retired_values(q: Question, top: list[dict], t: int, have: set, taken: set) -> list[dict]:
    """Lineage notes for the best facts whose earlier value the question quotes ("we listened on
    8000: what is the port now?").  Ranking is not changed: the value is no name to match.
    taken: names the question gave a current function or class (a new `Client` after the old
    one became `AsyncClient`): no note says such a name is now another's."""
    words = set(q.literal_words)
    out = []
    for row in top:
        former = row.get("former") or ()
        after = [f[0] for f in former[1:]] + [row["value"]]  # what each earlier value became
        for (value, commit, ended), then in zip(former, after):
            if row["kind"] in _CODE_NAMES and (value in taken or not (
                    code_shaped(value) or f"`{value}`" in q.text)):
                continue  # a plain word is no name: "how does express set the header?" says
                # nothing of res.set, renamed res.header in 2012 (_exact matches code names)
            if ended <= t and len(value) >= 3 and _quoted(row, value, words, then, q.text) \
                    and value != row["value"] \
                    and (row["key"], value) not in have and value.lower() not in ("true", "false"):
                out.append({"name": value, "key": row["key"], "now": row["value"],
                            "commit": commit, "at": ended})
    return out


# one version floor or pin (">=3.7", "^4.17", "==2.0.*"): "when did we drop Python 3.7?"
_FLOOR = re.compile(r"(?:>=|~=|==|\^|~)\s*v?(\d+(?:\.\d+)*)(?:\.\*)?")
_BARE_VERSION = re.compile(r"\s*v?(\d+(?:\.\d+)*)\s*")  # an exact pin as npm writes it: 4.2.1
# the floor among exclusions ("!=3.0.*,!=3.1.*,>=2.7"): its major version, "drop Python 2"
_LOWER = re.compile(r"(?:^|,)\s*(?:>=|~=|\^|~)\s*v?(\d+)(?:\.\d+)*\s*(?=,|$)")
_ZEROS = re.compile(r"(?:\.0)+$")


def version_floor(value: str) -> tuple[int, ...] | None:
    """A version value's floor as numbers: its first lower bound or pin (``>=7.4`` of
    ``<7.5,>=7.4``, ``^4.17.1``, ``==0.9.1``), or a bare version (``4.2.1``); None for none."""
    m = _FLOOR.search(value or "") or _BARE_VERSION.fullmatch(value or "")
    return tuple(int(p) for p in m.group(1).split(".")) if m else None


def _quoted(row: dict, value: str, words: set[str], then: str = "", question: str = "") -> bool:
    """Whether the question quotes an earlier value: as it was written, or a runtime's or
    package's version floor by its number ("drop Python 3.7": ``>=3.7``; "node 0.10":
    ``>= 0.10.0``), or by its major version after the runtime's or package's name when the
    value after it (THEN) left that major ("drop Python 2": the last ``!=3.0.*,...,>=2.7``)."""
    if value in words:
        return True
    if row["kind"] not in ("python", "dependency"):
        return False
    m = _FLOOR.fullmatch(value.strip())
    if m is not None and _ZEROS.sub("", m.group(1)) in {_ZEROS.sub("", w) for w in words}:
        return True
    major, after = _LOWER.search(value.strip()), _LOWER.search(then.strip())
    if major is None or (after is not None and after.group(1) == major.group(1)):
        return False
    name = "python" if row["kind"] == "python" else row["key"].rsplit(":", 1)[-1]
    return says_major(question, name, major.group(1))
