"""A repomem plugin kept outside the package, the example of docs/extending.md: a language
(Starlark, through an installed tree-sitter grammar and a query file of its own), a file format
(``*.kv``: ``key: value`` lines) and an embedder.  Its distribution's entry points
(tests/miners/test_extending.py writes them) make repomem load all three."""

from __future__ import annotations

from pathlib import Path

from repomem.core.model import CONFIG, Fact
from repomem.miners import MineError
from repomem.miners.lang import Lang
from repomem.miners.lang.walker import FileFacts

# -- a language: a grammar package, a Lang, a query file ------------------------------------------
STARLARK = Lang("starlark", family="starlark", module="tree_sitter_python", func="language",
                query=str(Path(__file__).with_name("starlark.scm")),  # a path: outside repomem
                functions=frozenset({"function_definition", "lambda"}), doc_prefixes=("#",), quotes="\"'",
                strings=frozenset({"string"}),
                literals=frozenset({"integer", "float", "string", "true", "false"}))


class StarlarkMiner:
    name = "starlark"

    def accepts(self, path: str) -> bool:
        return path.endswith(".bzl")

    def mine(self, path: str, text: str) -> list[Fact]:
        return FileFacts(STARLARK, path, text).facts() if text.strip() else []


# -- a file format: one setting per line -----------------------------------------------------------
class KeyValueMiner:
    name = "kv"

    def accepts(self, path: str) -> bool:
        return path.endswith(".kv")

    def mine(self, path: str, text: str) -> list[Fact]:
        facts = []
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            key, sep, value = line.partition(":")
            if not sep or not key.strip():
                raise MineError(f"kv: line {n} is not 'key: value'")  # earlier facts are kept
            key = key.strip()
            facts.append(Fact(key=f"config:{path}:{key}", kind=CONFIG, subject=f"{key} in {path}",
                              value=value.strip(), path=path, line=n, text=line.strip(),
                              purpose=key.replace("_", " ")))
        return facts


STARLARK_MINER = StarlarkMiner()
KV_MINER = KeyValueMiner()


# -- an embedder: letter counts (a store records its name; the entry point has the same name) -----
class LetterEmbedder:
    name = "letters"

    def embed(self, texts: list[str]) -> list[list[float]]:
        out = []
        for text in texts:
            vec = [float(text.lower().count(c)) for c in "abcdefghijklmnopqrstuvwxyz"]
            norm = sum(x * x for x in vec) ** 0.5 or 1.0
            out.append([x / norm for x in vec] if any(vec) else [1.0] + [0.0] * 25)
        return out


def letters(arg: str | None) -> LetterEmbedder:
    return LetterEmbedder()
