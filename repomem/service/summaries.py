"""Purpose summaries for undocumented functions, written by an Ollama model on request
(``repomem summarize --llm ollama:MODEL``) and cached in the store directory by
(model, body hash): a function body is summarised once, whatever commit or name it has.

A summary only ever stands in for a missing docstring.  ``apply`` swaps it in as the purpose text
of the function's versions (the text questions are matched against); a function with a docstring
keeps it.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import json
from pathlib import Path

from repomem.storage import atomic

CACHE = "summaries.v1.json"

PROMPT = """Summarise what this Python function does in one plain sentence of at most 20 words,
for a developer searching the code base. Say what it does, not how. No preamble.

{code}"""


def _path(store_dir: Path) -> Path:
    return Path(store_dir) / CACHE


def load(store_dir: Path) -> dict:
    try:
        data = json.loads(_path(store_dir).read_text())
    except (FileNotFoundError, ValueError):
        data = {}
    data.setdefault("bodies", {})
    data.setdefault("functions", {})
    return data


def digest(store_dir: Path) -> str | None:
    """A digest of the cache file's contents (None without one): the view is rebuilt when it
    changes."""
    try:
        return hashlib.sha1(_path(store_dir).read_bytes()).hexdigest()[:16]
    except FileNotFoundError:
        return None


def save(store_dir: Path, data: dict) -> None:
    p = _path(store_dir)
    atomic.write_text(p, json.dumps(data, indent=1, sort_keys=True))


def body_hash(code: str) -> str:
    return hashlib.sha1(code.encode("utf-8", "surrogateescape")).hexdigest()


def undocumented(source: str, line: int) -> str | None:
    """The source of the function defined at ``line`` if it has no docstring, else None."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.lineno == line:
            if ast.get_docstring(node):
                return None
            return ast.get_source_segment(source, node)
    return None


def apply(store_dir: Path, versions: list) -> list:
    """Versions with cached summaries as purpose text where the miner had no docstring (the
    summarised function version: same key and commit)."""
    data = load(store_dir)
    if not data["functions"]:
        return versions
    out = []
    for v in versions:
        s = data["functions"].get(v.key)
        text = s and data["bodies"].get(s["model"], {}).get(s["body"])
        if text and v.kind == "function" and v.commit == s["commit"]:
            v = dataclasses.replace(v, purpose=text)
        out.append(v)
    return out
