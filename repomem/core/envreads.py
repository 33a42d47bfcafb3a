"""Reads of environment variables in source text: what the envvars miner states and what the
redactor must hide (a secret-named variable's literal default, ``process.env.JWT_SECRET ||
'superSecret'``).  Found by pattern, not by parsing: a read is the same in a function body, a
module, a class or an argument list.

JavaScript / TypeScript: ``process.env.NAME``, ``process.env['NAME']``, ``import.meta.env.NAME``
(maybe in ``Number(...)`` or ``parseInt(..., 10)``), then ``|| literal`` or ``?? literal``.
Python: ``os.environ.get("NAME"[, literal])``, ``os.getenv("NAME"[, default=literal])``,
``os.environ.setdefault("NAME", literal)``, each maybe followed by ``or literal``, and
``os.environ["NAME"]``; ``environ`` and ``getenv`` without ``os.`` only where the module imports
them from os (a WSGI app's ``environ.get("PATH_INFO")`` is a request's, not the process's).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_JS_LITERAL = r"""'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`[^`$\\\n]*`|-?\d[\d_.]*|true|false|null"""
_PY_LITERAL = r"""'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|-?\d[\d_.]*|True|False|None"""
_END = r"(?=\s*(?:[,;)\]}:]|//|$))"  # a literal that is the whole default, not the start of code
_PY_END = r"(?=\s*(?:[,)\]}:]|#|$))"
_JS_READ = re.compile(
    rf"""(?P<cast>(?<![\w$.])(?:Number|parseInt|parseFloat|String|Boolean)\(\s*)?"""
    rf"""(?<![\w$.])(?:process|import\.meta)\.env(?:\.(?P<dot>{_NAME})|\[\s*(?P<q>['"`])(?P<key>{_NAME})(?P=q)\s*\])"""
    rf"""(?(cast)(?:\s*,\s*\d+)?\s*\))(?P<assign>\s*=(?!=))?"""
    rf"""(?:\s*(?:\|\||\?\?)\s*(?:(?P<default>{_JS_LITERAL}){_END}|(?P<other>)))?""", re.M)
_PY_READ = re.compile(
    rf"""(?<![\w.])(?:os\.)?(?:environ\.(?:get|setdefault)\(|getenv\()\s*(?P<q>['"])(?P<name>{_NAME})(?P=q)"""
    rf"""\s*(?:,\s*(?:default\s*=\s*)?(?P<default>{_PY_LITERAL})\s*\)|(?P<other>,)|\))?"""
    rf"""(?:\s+or\s+(?:(?P<alt>{_PY_LITERAL}){_PY_END}|(?P<code>)))?"""
    rf"""|(?<![\w.])(?:os\.)?environ\[\s*(?P<q2>['"])(?P<item>{_NAME})(?P=q2)\s*\](?P<assign>\s*=(?!=))?""", re.M)

_FROM_OS = re.compile(r"^\s*from\s+os\s+import\b[^\n]*\b(?:environ|getenv)\b", re.M)


@dataclass(frozen=True)
class Read:
    name: str
    default: str | None  # the literal as written (quotes included), None when there is none
    computed: bool  # the default is code (``process.env.PORT || config.port``), not a literal
    span: tuple[int, int]  # of the default's content (inside its quotes), else of the read
    start: int  # where the read starts in the text
    required: bool  # os.environ["NAME"]: no default, a KeyError without it


def reads(text: str, python: bool):
    """The reads of environment variables in text (writes left out), in order."""
    if ("environ" not in text and "getenv" not in text) if python else ".env" not in text:
        return
    bare = python and _FROM_OS.search(text) is not None
    for m in (_PY_READ if python else _JS_READ).finditer(text):
        if m.group("assign") or python and not bare and not m.group(0).startswith("os."):
            continue
        name = (m.group("name") or m.group("item")) if python else (m.group("dot") or m.group("key"))
        group = "default" if m.group("default") is not None else "alt" if python and m.group("alt") else None
        default: str | None = None
        span = m.span()
        if group is not None:
            default = m.group(group)
            a, b = m.span(group)
            span = (a + 1, b - 1) if default[:1] in "'\"`" else (a, b)
        computed = default is None and (m.group("other") is not None
                                        or python and m.group("code") is not None)
        yield Read(name, default, computed, span, m.start(),
                   python and m.group("item") is not None)
