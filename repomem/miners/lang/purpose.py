"""Purposes of functions: doc comment text, or words of the signature when there is none."""

from __future__ import annotations

import functools
import re

from repomem.miners._pysource import _collapse, _words

_DIRECTIVE = re.compile(r"^(eslint|istanbul|@ts-|prettier|jshint|global |go:|nolint|#region|#endregion)")
# characters of a doc's summary: MAX_PURPOSE keeps room for what a route or a setting appends to it
MAX_DOC = 300
# where a Python docstring's summary ends without a blank line: a Sphinx field (``:param x:``),
# a Google-style section heading (``Args:``), a doctest
_PY_SECTION = re.compile(r"^(:(param|parameter|arg|argument|key|keyword|type|returns?|rtype|raises?|except|"
                         r"exception|var|ivar|cvar|vartype|yields?)\b|(Args|Arguments|Parameters|Returns|Yields|"
                         r"Raises|Examples?|Notes?|Attributes|Keyword Args):$|>>>)")


_UNNAMED = ("self", "this", "req", "res", "next", "ctx")  # parameters every handler has


def param_names(ff, params) -> list[str]:
    out = []
    for p in params.named_children if params is not None else ():
        if p.type in ff.lang.comments or p.type in ("self_parameter", "this"):
            continue
        if ff.lang.family == "kotlin" and p.type != "parameter":  # a default value, an annotation
            continue
        several = p.children_by_field_name("name")
        if len(several) > 1:  # Go declares several of one type: `tag, author, limit string`
            out += [name for m in several if m.type == "identifier"
                    and (name := ff.text(m)) not in _UNNAMED]
            continue
        n = p
        for fld in ("name", "pattern", "left"):
            n = p.child_by_field_name(fld) or n
            if n is not p:
                break
        if n is p and ff.lang.family == "kotlin" and p.named_child_count:
            n = p.named_children[0]  # Kotlin names no field: `name: Type`
        if n.type in ("identifier", "shorthand_property_identifier_pattern"):
            name = ff.text(n)
            if name not in _UNNAMED:
                out.append(name)
    return out


def describe(name: str, params: list[str], returns: str) -> str:
    out = " ".join(_words(name)) or name
    if params:
        out += f" ({', '.join(params)})"
    if returns:
        out += f" returns {returns}"
    return out


_MARKER = re.compile(r"^\s*(/\*\*+|/\*|\*/|\*|///|//)")
_CLOSE = re.compile(r"\*/\s*$")


def doc_text(comments: list[str]) -> str | None:
    """The first paragraph of doc comments, comment markers and ``@tags`` dropped."""
    return _doc_text(tuple(comments))


@functools.lru_cache(maxsize=8192)  # a function's doc comment is the same in most file versions
def _doc_text(comments: tuple[str, ...]) -> str | None:
    lines: list[str] = []
    for c in comments:
        for ln in c.splitlines():
            s = _MARKER.sub("", ln)
            s = _CLOSE.sub("", s).strip()
            if not lines and (not s or _DIRECTIVE.match(s)):
                continue
            if not s or s.startswith("@"):
                if lines:
                    return _collapse(" ".join(lines))[:MAX_DOC]
                continue
            lines.append(s)
    return _collapse(" ".join(lines))[:MAX_DOC] if lines else None


@functools.lru_cache(maxsize=8192)  # a function's docstring is the same in most file versions
def docstring_summary(doc: str) -> str:
    """A Python docstring's first paragraph on one line: its summary up to the first blank line,
    so a sentence wrapped onto the next line is whole (its first line alone is a fragment that
    misses the words a question uses); a field list, a section heading or a doctest ends it too."""
    lines: list[str] = []
    for ln in doc.splitlines():
        s = ln.strip()
        if not s and not lines:
            continue
        if not s or _PY_SECTION.match(s):
            break
        lines.append(s)
    return _collapse(" ".join(lines))[:MAX_DOC]
