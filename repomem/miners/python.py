"""Python miner: functions, methods, classes, API routes, constants and settings, via tree-sitter
queries (:mod:`repomem.miners.lang.python`).

tree-sitter (rather than :mod:`ast`) because it reads code for any Python version without caring
which interpreter runs repomem, and it reports exact rows for every token.
"""

from __future__ import annotations

from repomem.core.model import Fact


class PythonMiner:
    name = "python"

    def accepts(self, path: str) -> bool:
        return path.endswith(".py")

    def mine(self, path: str, text: str) -> list[Fact]:
        from repomem.miners.lang.python import file_facts

        return file_facts(path, text)


MINER = PythonMiner()
