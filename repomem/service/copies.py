"""Copies of a fact in other files: the same kind, subject, value and source text stated by
several files (a sample's ``initial/`` and ``complete/`` folders, an example's copy of the root
``pyproject.toml``'s ``requires-python``, a tutorial's ``main`` in each of its variants).

An answer shows such a fact once, naming the other files (``same_in``), so that its copies do not
take the places of other facts: a question's first three facts are three different things, and an
agent's block spends its tokens on one bullet where it would spend them on several.  The fact kept
is the best ranked of its copies; its copies are listed in ranking order."""

from __future__ import annotations

# kinds whose subject says what the fact is whatever file states it: a function, a Python
# requirement, a dependency (a pin of Spring Boot's parent in a sample's twin folders)
_COPIED_KINDS = frozenset({"function", "class", "route", "python", "dependency"})


def subject_less_path(f: dict) -> str:
    """The fact's subject less the path its provenance names anyway ("PORT in api/config.py",
    "required Python version (pyproject.toml)")."""
    subject, path = f["subject"], f.get("path") or ""
    for tail in (f" in {path}", f" ({path})"):
        if path and subject.endswith(tail) and len(subject) > len(tail):
            return subject[: -len(tail)]
    return subject


def source_text(f: dict) -> str:
    """The fact's source text, white space collapsed."""
    return " ".join((f.get("text") or "").split())


def fold(facts: list[dict]) -> tuple[list[dict], dict[str, list[dict]]]:
    """FACTS less the copies of an earlier one -- the same kind, subject, value and source text
    in another file, the subject naming its file or the fact being code, a Python requirement
    or a dependency -- and the copies of each kept fact, by its key."""
    first: dict[tuple, str] = {}
    kept: list[dict] = []
    copies: dict[str, list[dict]] = {}
    for f in facts:
        subject = subject_less_path(f)
        if subject == f["subject"] and f["kind"] not in _COPIED_KINDS:
            kept.append(f)  # its subject does not say which file: no copy of another
            continue
        sig = (f["kind"], subject, f["value"], source_text(f))
        if sig in first:
            copies.setdefault(first[sig], []).append(f)
            continue
        first[sig] = f["key"]
        kept.append(f)
    return kept, copies


def where(f: dict) -> dict:
    """A copy as an answer names it: its file and line, and its key."""
    return {"path": f["path"], "line": f.get("line"), "key": f["key"]}
