"""Small text helpers shared by the config and dependency miners.

Parsers such as ``tomllib`` and ``json`` return values without positions, so the miners find a
fact's line heuristically in the source text; the helpers for that, and for turning key paths into
the words a question is matched against, live here.
"""

from __future__ import annotations

import functools
import re

from repomem.core.tokens import uncamel

_SEP = re.compile(r"[^A-Za-z0-9]+")
_TYPE_SUFFIXES = {"toml", "yaml", "yml", "json", "ini", "cfg", "txt", "py", "lock", "conf"}


def words(*parts) -> str:
    """``("server", "maxConnections")`` -> ``"server max connections"``; list indexes dropped.

    Questions are phrased in words, keys in identifiers: splitting both camelCase and separators
    lets "max connections" match ``maxConnections`` and ``MAX_CONNECTIONS``.
    """
    out: list[str] = []
    for part in parts:
        if isinstance(part, int):
            continue
        for w in _SEP.split(uncamel(str(part))):
            if w and not w.isdigit():
                out.append(w.lower())
    return " ".join(out)


def path_words(path: str) -> str:
    """``config/production.toml`` -> ``"config production"`` (directories and stem, no suffix).

    Only a known file-type suffix is dropped: in ``.env.production`` the suffix is the environment.
    """
    dirs, _, base = path.rpartition("/")
    stem = base.lstrip(".")
    if "." in stem and stem.rsplit(".", 1)[1].lower() in _TYPE_SUFFIXES:
        stem = stem.rsplit(".", 1)[0]
    return words(*dirs.split("/"), stem) if dirs else words(stem)


def line_of(text: str, offset: int) -> int:
    """1-based line number of a character offset."""
    return text.count("\n", 0, offset) + 1


def source_line(lines: list[str], line: int) -> str:
    return lines[line - 1].rstrip("\r\n") if 1 <= line <= len(lines) else ""


@functools.lru_cache(maxsize=4096)  # one pattern per package name: re's own cache thrashes
def _multiline(pattern: str) -> re.Pattern:
    return re.compile(pattern, re.MULTILINE)


def find_after(text: str, pattern: str, start: int = 0, nth: int = 1) -> int:
    """Offset of the ``nth`` match of regex ``pattern`` at or after ``start``; -1 if none."""
    rx = _multiline(pattern)
    pos = start
    for _ in range(nth):
        m = rx.search(text, pos)
        if not m:
            return -1
        pos = m.end()
        found = m.start()
    return found


def _comment_start(line: str, prefixes: str) -> int:
    """Index of an end-of-line comment (prefix at line start or after whitespace, not in quotes)."""
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in prefixes and (i == 0 or line[i - 1] in " \t"):
            return i
    return -1


def comment_for(lines: list[str], line: int, prefixes: str) -> str:
    """The comment on a fact's line, else a whole-line comment just above it ('' if none).

    Authors explain a setting in exactly these two places, and the explanation is the best text
    to match a question against.
    """
    if not prefixes or not 1 <= line <= len(lines):
        return ""
    here = lines[line - 1]
    i = _comment_start(here, prefixes)
    if i > 0 and here[:i].strip():
        return here[i:].lstrip(prefixes).strip()
    if line >= 2:
        above = lines[line - 2].strip()
        if above and above[0] in prefixes and not above.startswith("#!"):
            return above.lstrip(prefixes).strip()
    return ""


def strip_comment(line: str, prefixes: str = "#") -> str:
    i = _comment_start(line, prefixes)
    return line if i < 0 else line[:i]


def locate(text: str, *patterns: str) -> int:
    """Line of the last pattern found, each searched after the previous one (1 if none): the
    line of ``[tool.poetry.dependencies]`` then ``requests`` below it."""
    pos, found = 0, -1
    for pat in patterns:
        off = find_after(text, pat, pos)
        if off >= 0:
            pos, found = off + 1, off
    return line_of(text, found) if found >= 0 else 1


def sub_table(data: dict, name: str) -> dict:
    """The sub-table ``name`` of a parsed TOML/JSON document; {} when absent or not a table."""
    value = data.get(name)
    return value if isinstance(value, dict) else {}


# What a function's body calls (``bcrypt.hash``, ``jwt.sign``, ``self.session.commit``): how a
# function does its work, searchable where its name and docstring say nothing of it ("how are
# passwords hashed?": createUser).  Found in the body's text: keywords that take parentheses
# are no calls.
_CALL = re.compile(r"(?<![\w$.])((?:[A-Za-z_$][\w$]*\s*\.\s*)*[A-Za-z_$][\w$]*)\s*\(")
_NOT_CALLS = frozenset({"if", "elif", "for", "while", "switch", "catch", "function", "return",
                        "with", "and", "or", "not", "in", "is", "lambda", "yield", "await",
                        "typeof", "sizeof", "assert", "del", "except", "print", "super", "func",
                        "fn", "match", "new", "throw", "raise", "else", "async", "def", "class",
                        # builtins that say nothing of what a function does
                        "len", "isinstance", "issubclass", "str", "int", "float", "bool", "list",
                        "dict", "set", "tuple", "type", "getattr", "setattr", "hasattr", "range",
                        "enumerate", "zip", "sorted", "repr", "iter", "next", "min", "max", "any",
                        "all", "require", "String", "Number", "Boolean", "Array.isArray",
                        "Object.keys", "make", "append", "panic", "println!", "format!"})
MAX_CALLS = 16


_QUOTED = {'"': r'"(?:[^"\\\n]|\\.)*"', "'": r"'(?:[^'\\\n]|\\.)*'", "`": r"`(?:[^`\\]|\\.)*`"}


@functools.lru_cache(maxsize=8)
def _strings(quotes: str) -> re.Pattern:
    """String literals delimited by QUOTES (triple-quoted ones first: Python's, Java's text
    blocks); a template literal's ``${call()}`` goes with it."""
    triple = [r'"""[\s\S]*?"""'] + ([r"'''[\s\S]*?'''"] if "'" in quotes else [])
    return re.compile("|".join(triple + [_QUOTED[q] for q in quotes]))


# A Python body's comments (after its string literals are stripped); the other languages' come
# from their syntax tree (the walker's query), which knows a comment from a string or a regex
_PY_COMMENT = re.compile(r"#([^\n]*)")
# A comment that is a tool's directive ("# pragma: no cover", "// eslint-disable-line") or a
# note to the authors (TODO): not what the function does
_DIRECTIVE = re.compile(r"^(?:pragma\b|noqa\b|type:|fmt:|pylint:|mypy:|eslint|nolint|@ts-|istanbul\b"
                        r"|prettier-ignore|c8\b|TODO\b|FIXME\b|XXX\b|HACK\b|nosec\b|NOSONAR)", re.I)
MAX_NOTES = 240  # characters of a body's comments kept


def body_attrs(body: str, quotes: str = "\"'`", python: bool = False) -> tuple[str, str, str]:
    """What a body calls, what it catches and, for a PYTHON body, what its comments say: the
    names it calls, each once, in order of first call (at most MAX_CALLS), and the exception
    types it catches, likewise; none read inside a string literal delimited by QUOTES (``raise
    ValueError("use connect() first")`` calls no ``connect``), which are stripped once for all
    three, nor inside a comment; the comments' words (notes_of).  The other languages' bodies
    come with their comments cut out (the walker reads them from the syntax tree)."""
    code = _strings(quotes).sub('""', body)
    notes = ""
    if python and "#" in code:
        notes = notes_of(m.group(1) for m in _PY_COMMENT.finditer(code))
        code = _PY_COMMENT.sub(" ", code)
    out: dict[str, None] = {}
    for name in _CALL.findall(code):
        if name in _NOT_CALLS:
            continue
        out["".join(name.split())] = None
        if len(out) >= MAX_CALLS:
            break
    return ", ".join(out), _caught(code), notes


def is_directive(comment: str) -> bool:
    """Whether a comment's text (markers stripped) is a tool's directive or a note to the authors."""
    return _DIRECTIVE.match(comment.strip()) is not None


def notes_of(comments) -> str:
    """What COMMENTS (their texts, markers and all) say, in order, tools' directives and notes to
    the authors left out: at most MAX_NOTES characters."""
    said: list[str] = []
    size = 0
    for comment in comments:
        for line in comment.splitlines():
            text = " ".join(line.strip(" \t*/#!").split())
            if len(text) < 3 or is_directive(text) or not any(c.isalpha() for c in text):
                continue
            said.append(text)
            size += len(text) + 2
            if size >= MAX_NOTES:
                return "; ".join(said)[:MAX_NOTES]
    return "; ".join(said)


# What a function's body catches: Python's ``except (EOFError, KeyboardInterrupt) as e:`` (and
# ``except*``), Java's ``catch (IOException | TimeoutException e)``; JavaScript's untyped
# ``catch (err)`` names nothing.  "How does click handle keyboard interrupts?": Command.main.
_CATCH = re.compile(
    r"(?<![\w$.])except\*?[ \t]*\(?\s*((?:[A-Za-z_][\w.]*\s*,\s*)*[A-Za-z_][\w.]*)\s*,?\s*\)?"
    r"[ \t]*(?:as[ \t]+\w+[ \t]*)?:"
    r"|(?<![\w$.])catch\s*\(\s*(?:final\s+)?((?:[A-Za-z_][\w.]*\s*\|\s*)*[A-Za-z_][\w.]*)\s+[A-Za-z_]\w*\s*\)")


def _caught(code: str) -> str:
    """The exception types a body (its string literals stripped) catches."""
    if "except" not in code and "catch" not in code:
        return ""  # most bodies: the regex would scan them for nothing
    out: dict[str, None] = {}
    for py, java in _CATCH.findall(code):
        for name in re.split(r"[\s,|]+", py or java):
            if name:
                out[name] = None
    return ", ".join(list(out)[:MAX_CALLS])
