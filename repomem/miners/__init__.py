"""Miners turn one file's text into facts.  They never call git or Chroma.

Each miner module exposes ``MINER``, an object meeting :class:`Miner`; ``ALL_MINERS`` below is the
one registry.  Several miners may accept one file (``pyproject.toml`` has settings *and*
dependencies); their facts are concatenated.  A miner that cannot parse a file raises
:class:`MineError`: the caller then keeps the file's earlier facts (a broken intermediate commit
must not retire anything).
"""

from __future__ import annotations

from typing import Protocol

from repomem.model import Fact

MAX_FILE_BYTES = 1_000_000
# Bumped whenever a miner's output changes (new kinds, keys or values): a store mined by an older
# version holds records that a re-mine would write differently.
MINERS_VERSION = 3


class MineError(Exception):
    """The file could not be parsed; the message is one line saying why."""


class Miner(Protocol):
    name: str

    def accepts(self, path: str) -> bool: ...

    def mine(self, path: str, text: str) -> list[Fact]: ...


def _registry() -> list[Miner]:
    from repomem.miners import config, deps, docker, manifests, python
    from repomem.miners.lang import walker

    return [python.MINER, config.MINER, deps.MINER, docker.MINER, walker.MINER, manifests.MINER]


_MINERS: list[Miner] | None = None


def all_miners() -> list[Miner]:
    global _MINERS
    if _MINERS is None:
        _MINERS = _registry()
    return _MINERS


def wants(path: str) -> bool:
    """True when some miner reads this path (cheap: decides which blobs git must hand over)."""
    return any(m.accepts(path) for m in all_miners())


def mine_file(path: str, data: bytes) -> list[Fact]:
    """All facts of one file version, secrets redacted.  Raises MineError when it can't be read."""
    from repomem.secrets import redact_fact

    if len(data) > MAX_FILE_BYTES:
        raise MineError(f"{len(data)} bytes is over the {MAX_FILE_BYTES}-byte limit")
    if b"\x00" in data[:8192]:
        raise MineError("binary file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise MineError(f"not UTF-8 ({e.reason} at byte {e.start})") from None
    facts: list[Fact] = []
    for miner in all_miners():
        if miner.accepts(path):
            facts.extend(miner.mine(path, text))
    return [redact_fact(f) for f in facts]
