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
# Each pattern starts at a literal word (process.env, import.meta.env, environ, getenv), found by
# str.find; what may stand before it (os., a cast) is looked at by hand.
_JS_READ = re.compile(
    rf"""(?:process|import\.meta)\.env(?:\.(?P<dot>{_NAME})|\[\s*(?P<q>['"`])(?P<key>{_NAME})(?P=q)\s*\])"""
    rf"""(?P<close>\s*(?:,\s*\d+\s*)?\))?(?P<assign>\s*=(?!=))?"""
    rf"""(?:\s*(?:\|\||\?\?)\s*(?:(?P<default>{_JS_LITERAL}){_END}|(?P<other>)))?""", re.M)
_CAST = re.compile(r"(?<![\w$.])(?:Number|parseInt|parseFloat|String|Boolean)\(\s*$")
_PY_READ = re.compile(
    rf"""(?:environ\.(?:get|setdefault)\(|getenv\()\s*(?P<q>['"])(?P<name>{_NAME})(?P=q)"""
    rf"""\s*(?:,\s*(?:default\s*=\s*)?(?P<default>{_PY_LITERAL})\s*\)|(?P<other>,)|\))?"""
    rf"""(?:\s+or\s+(?:(?P<alt>{_PY_LITERAL}){_PY_END}|(?P<code>)))?"""
    rf"""|environ\[\s*(?P<q2>['"])(?P<item>{_NAME})(?P=q2)\s*\](?P<assign>\s*=(?!=))?""", re.M)
_WORD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$.")
_FROM_OS = re.compile(r"^\s*from\s+os\s+import\b[^\n]*\b(?:environ|getenv)\b", re.M)


# What a read is worth when it has no literal default: Python's and JavaScript's value of an
# unset variable, a read that fails without one, a default that is code.  Placeholders that
# the redactor knows are no secrets.
UNSET = {True: "None", False: "undefined"}
REQUIRED = "<required>"
COMPUTED = "<computed>"
NO_DEFAULT = frozenset({*UNSET.values(), REQUIRED, COMPUTED})


@dataclass(frozen=True)
class Read:
    name: str
    default: str | None  # the literal as written (quotes included), None when there is none
    computed: bool  # the default is code (``process.env.PORT || config.port``), not a literal
    span: tuple[int, int]  # of the default's content (inside its quotes), else of the read
    start: int  # where the read starts in the text
    required: bool  # os.environ["NAME"]: no default, a KeyError without it


def _occurrences(text: str, word: str):
    """Where word occurs in text (str.find: many times faster than a regex scanning for it)."""
    i = text.find(word)
    while i >= 0:
        yield i
        i = text.find(word, i + 1)


def reads(text: str, python: bool):
    """The reads of environment variables in text (writes left out), in order."""
    words = ("environ", "getenv") if python else ("process.env", "import.meta.env")
    starts = sorted(i for w in words for i in _occurrences(text, w))
    if not starts:
        return
    bare = python and "from os import" in text and _FROM_OS.search(text) is not None
    pattern = _PY_READ if python else _JS_READ
    for pos in starts:
        m = pattern.match(text, pos)
        if m is None:
            continue
        at = m.start()
        if python and text.startswith("os.", at - 3):
            at -= 3  # os.environ..., unless it is another object's os (self.os.environ)
        if m.group("assign") or at > 0 and text[at - 1] in _WORD_CHARS \
                or python and at == m.start() and not bare:
            continue
        if not python and m.group("close") is not None:  # Number(process.env.PORT) || 8080
            cast = _CAST.search(text, max(0, at - 16), at)
            if cast is None:  # foo(process.env.X) || 'y': the default is foo's, not the variable's
                yield Read(m.group("dot") or m.group("key"), None, False, m.span(), at, False)
                continue
            at = cast.start()
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
        yield Read(name, default, computed, span, at, python and m.group("item") is not None)
