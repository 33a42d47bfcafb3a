"""package.json (json) and the JavaScript/TypeScript code facts asked about.  JavaScript has no
standard-library parser; the regular expressions are narrow (JSDoc'd ``function name``,
``exports.name = function``, ``const name =``; ``app.get('/x'`` / ``router.post('/x'``) and their
output for these histories was checked by hand."""

from __future__ import annotations

import json
import re

from bench.realtruth.extract import first_sentence


def package_json(text: str) -> dict:
    data = json.loads(text)
    out: dict[tuple, str] = {}
    for field, group in (("dependencies", "main"), ("devDependencies", "dev")):
        for name, spec in (data.get(field) or {}).items():
            out[("dep", group, name.lower())] = str(spec)
    if isinstance((data.get("engines") or {}).get("node"), str):
        out[("engine-node",)] = data["engines"]["node"]
    if isinstance(data.get("version"), str):
        out[("version",)] = data["version"]
    return out


_JS_DOC_FN = re.compile(
    r"/\*\*((?:[^*]|\*(?!/))*)\*/\s*\n"
    r"\s*(?:(?:export\s+)?(?:async\s+)?function\s+(\w+)|(?:exports|app|res|req|proto)\.(\w+)\s*=\s*function"
    r"|(?:export\s+)?const\s+(\w+)\s*=)")


def jsdoc_summary(block: str) -> str:
    """The first sentence of a JSDoc block's description (up to a blank line or a tag)."""
    lines: list[str] = []
    for raw in block.splitlines():
        line = raw.strip().lstrip("*").strip()
        if line.startswith("@") or (not line and lines):
            break
        if line:
            lines.append(line)
    return first_sentence(" ".join(lines))


def js_functions(text: str) -> dict:
    """JSDoc'd functions: ("def", name) -> the JSDoc's first sentence (regex: JS has no
    standard-library parser; the patterns are the ones express and the TypeScript app use)."""
    out = {}
    for m in _JS_DOC_FN.finditer(text):
        name = m.group(2) or m.group(3) or m.group(4)
        out[("def", name)] = jsdoc_summary(m.group(1))
    return out


_JS_ROUTE = re.compile(r"""\b(?:app|router)\.(get|post|put|delete|patch)\(\s*['"]([^'"]+)['"]""")


def js_routes(text: str, prefix: str = "") -> dict:
    out = {}
    for m in _JS_ROUTE.finditer(text):
        path = (prefix.rstrip("/") + m.group(2)) if prefix else m.group(2)
        out[("route", m.group(1).upper(), path)] = f"{m.group(1).upper()} {path}"
    return out


# Definitions whose body a rename keeps: ``function name(``, ``x.name = function``,
# ``const name = (async) function`` / ``(...) =>`` / ``arg =>`` with a braced body.
_JS_DEF = re.compile(
    r"(?:^|[\s;(])(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*(\w+)\s*\("
    r"|(?:^|[\s;])(?:[\w$]+(?:\.prototype)?)\.(?!exports\b)(\w+)\s*=\s*(?:async\s+)?function\b"
    r"|(?:^|[\s;])(?:export\s+)?(?:const|let|var)\s+(\w+)\s*(?::[^=\n]+)?=\s*(?:async\s+)?"
    r"(?:function\b|\([^()]*(?:\([^()]*\)[^()]*)*\)\s*(?::\s*[^=\n{]+)?=>|\w+\s*=>)", re.M)


def _skip_string(text: str, i: int) -> int:
    """Index after the string literal starting at i (', " or `; template holes not parsed)."""
    quote, i = text[i], i + 1
    while i < len(text) and text[i] != quote:
        i += 2 if text[i] == "\\" else 1
    return i + 1


def braced_body(text: str, start: int) -> str | None:
    """The text between the first '{' at or after START and its matching '}', comments left
    out and whitespace collapsed; None when the braces do not balance (strings and comments are
    skipped; a regular expression literal holding a brace is not, and only loses that one
    definition)."""
    i = text.find("{", start)
    if i < 0 or "\n" in text[start:i] and text[start:i].count("\n") > 3:
        return None
    depth, out, i = 0, [], i
    while i < len(text):
        ch = text[i]
        if ch in "'\"`":
            j = _skip_string(text, i)
            out.append(text[i:j])
            i = j
            continue
        if text.startswith("//", i):
            i = text.find("\n", i) if "\n" in text[i:] else len(text)
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = len(text) if j < 0 else j + 2
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return " ".join("".join(out[1:]).split())
        out.append(ch)
        i += 1
    return None


def body_fingerprints(text: str) -> dict:
    """name -> the comment-free, whitespace-collapsed body of each JS/TS definition with a braced
    body (renames.py compares them across a commit, as ``extract.body_fingerprints`` does for
    Python); a name defined twice in a file is left out."""
    out: dict = {}
    seen: set = set()
    for m in _JS_DEF.finditer(text):
        name = m.group(1) or m.group(2) or m.group(3)
        body = braced_body(text, m.end())
        if body is None:
            continue
        if name in seen:
            out.pop(name, None)
            continue
        seen.add(name)
        out[name] = body
    return out
