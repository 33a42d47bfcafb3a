"""package.json (json) and the JavaScript/TypeScript code facts asked about.  JavaScript has no
standard-library parser; the regular expressions are narrow (JSDoc'd ``function name``,
``exports.name = function``, ``const name =``; ``app.get('/x'`` / ``router.post('/x'``) and their
output for these histories was checked by hand."""

from __future__ import annotations

import json
import re

from extract import first_sentence


def package_json(text: str) -> dict:
    data = json.loads(text)
    out = {}
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
    lines = []
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
