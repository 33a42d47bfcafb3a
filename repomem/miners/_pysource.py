"""Python source helpers shared by the Python miner's parts: the file's bytes and lines, string
and literal rendering from tree-sitter nodes, identifier words."""

from __future__ import annotations

import ast
import functools
import re
from typing import cast

MAX_TEXT_LINES = 4
_WORDS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_WS = re.compile(r"\s+")


def _collapse(s: str) -> str:
    return _WS.sub(" ", s).strip()


@functools.lru_cache(maxsize=8192)
def _words(name: str) -> tuple[str, ...]:
    """The lower-case words of an identifier; a history asks for the same names in every version
    of a file, so they are remembered (a pure function of the name)."""
    return tuple(w.lower() for w in _WORDS.findall(name))


class _Source:
    """The file's bytes (tree-sitter offsets are byte offsets) and its lines for provenance text."""

    def __init__(self, text: str):
        self.data = text.encode("utf-8", "surrogatepass")
        # tree-sitter counts rows by "\n", so a CRLF file keeps the same rows; drop the "\r".
        lines = text.split("\n")
        self.lines = [ln.rstrip("\r") for ln in lines] if "\r" in text else lines
        # the module-level functions that read the environment (see _pyvalues.env_functions)
        self.env_functions: frozenset[str] = frozenset()

    def text(self, node) -> str:
        return self.data[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def rows(self, first: int, last: int) -> str:
        return "\n".join(self.lines[first : last + 1])


def _first_error_line(node) -> int:
    """1-based row of the earliest ERROR/MISSING node; only subtrees that contain one are visited."""
    best = None
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == "ERROR" or n.is_missing:
            row = n.start_point[0]
            best = row if best is None else min(best, row)
            continue
        stack.extend(c for c in n.children if c.has_error or c.is_missing)
    return (best or 0) + 1


# ----------------------------------------------------------------------------- literals


def _string_value(src: _Source, node) -> str | None:
    """A plain (non-f) string literal's content, or None."""
    if node.type == "concatenated_string":
        parts = [_string_value(src, c) for c in node.named_children if c.type != "comment"]
        return None if any(p is None for p in parts) else "".join(cast("list[str]", parts))
    if node.type != "string" or any(c.type == "interpolation" for c in node.children):
        return None
    raw = src.text(node)
    prefix = raw[: len(raw) - len(raw.lstrip("rRbBuUfF"))]
    if "f" in prefix.lower():  # an f-string without placeholders is still not a literal to us
        return None
    plain = _plain_content(raw, prefix)
    if plain is not None:
        return plain
    try:
        value = ast.literal_eval(raw)
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, str) else raw


def _plain_content(raw: str, prefix: str) -> str | None:
    """The content of a string literal that has no escape to decode (no backslash, no bytes
    prefix, no carriage return or NUL): what ``ast.literal_eval`` gives for it, without
    compiling it (a third of the strings' cost).  None for any other literal."""
    if prefix not in ("", "u", "U") or "\\" in raw or "\r" in raw or "\0" in raw:
        return None
    quote = raw[len(prefix):len(prefix) + 3]
    if quote in ('"""', "'''") and len(raw) >= len(prefix) + 6 and raw.endswith(quote):
        return raw[len(prefix) + 3:-3]
    quote = quote[:1]
    if quote in ('"', "'") and len(raw) >= len(prefix) + 2 and raw.endswith(quote) and "\n" not in raw:
        return raw[len(prefix) + 1:-1]
    return None


def _render_literal(src: _Source, node) -> str | None:
    """Canonical one-line text of a literal, or None when ``node`` is not a pure literal.

    Rebuilt from the parts rather than copied, so comments and line breaks inside a multi-line
    list never leak into the value (a reformat must not look like a new version).
    """
    t = node.type
    if t in ("integer", "float", "true", "false", "none"):
        return src.text(node)
    if t in ("string", "concatenated_string"):
        return src.text(node) if _string_value(src, node) is not None else None
    if t == "unary_operator":
        op, arg = node.children[0].type, node.child_by_field_name("argument")
        if op in ("-", "+") and arg is not None and arg.type in ("integer", "float"):
            return op + src.text(arg)
        return None
    items = [c for c in node.named_children if c.type != "comment"]
    if t == "dictionary":
        out = []
        for pair in items:
            if pair.type != "pair":
                return None
            k = _render_literal(src, pair.child_by_field_name("key"))
            v = _render_literal(src, pair.child_by_field_name("value"))
            if k is None or v is None:
                return None
            out.append(f"{k}: {v}")
        return "{" + ", ".join(out) + "}"
    if t in ("list", "tuple", "set"):
        parts = [_render_literal(src, c) for c in items]
        if any(p is None for p in parts):
            return None
        body = ", ".join(cast("list[str]", parts)) + ("," if t == "tuple" and len(parts) == 1 else "")
        return {"list": "[{}]", "tuple": "({})", "set": "{{{}}}"}[t].format(body)
    return None


def _comment_text(src: _Source, node) -> str:
    """A comment's words, without its ``#`` (or Sphinx's ``#:`` that documents an attribute)."""
    return re.sub(r"^#+:?", "", src.text(node)).strip()
