"""What every miner shares: the MineError it raises, the Miner protocol and the bounds on a
file's facts.  Apart from the registry (``repomem.miners``) so that the miner modules, which the
registry imports, import none of it back."""

from __future__ import annotations

from typing import Protocol

from repomem.core.model import Fact

MAX_FILE_BYTES = 1_000_000
MAX_FACTS_PER_FILE = 2000  # ~35 KB of peak memory each in a full ingest (Chroma, embeddings)
MAX_TEXT = 200  # characters of a fact's source text: an excerpt around its value
MAX_PURPOSE = 400
MAX_VALUE = 1000  # longer values keep a digest of the rest, so a change still supersedes


class MineError(Exception):
    """The file could not be parsed; the message is one line saying why."""


class Miner(Protocol):
    name: str

    def accepts(self, path: str) -> bool: ...

    def mine(self, path: str, text: str) -> list[Fact]: ...


def excerpt(text: str, value: str, limit: int = MAX_TEXT) -> str:
    """At most ``limit`` characters of ``text``, centred on ``value`` where it occurs."""
    if len(text) <= limit:
        return text
    i = text.find(value[:60]) if value else -1
    start = 0 if i < 0 else max(0, min(i - limit // 4, len(text) - limit))
    out = text[start:start + limit]
    return ("…" if start else "") + out + ("…" if start + limit < len(text) else "")


def too_many(n: int, what: str = "facts") -> MineError:
    kind = "config" if what == "settings" else "file"
    return MineError(f"{kind} too large ({n} {what}, limit {MAX_FACTS_PER_FILE}): "
                     "skipped, facts kept")
