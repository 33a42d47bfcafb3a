"""How much of a question is worked on.  The ranking's cost grows faster than a question's
length (each identifier of the question is matched against the others and against every
candidate row), and a stack trace pasted into an agent's prompt reaches `context` through the
hook and the MCP server whole: a 1 MB question never finished.  Only its first part is used
(cut at a word), which keeps the cost linear in the length and capped; the result says so."""

from __future__ import annotations

import logging

MAX_QUESTION = 2000  # characters: ~0.05 s of ranking on a small store, well under 1 s on express

log = logging.getLogger("repomem")


def bounded_question(question: str) -> tuple[str, str | None]:
    """(the part of the question to answer, a note when it was cut, else None)."""
    if len(question) <= MAX_QUESTION:
        return question, None
    cut = question[:MAX_QUESTION]
    space = cut.rfind(" ", MAX_QUESTION - 200)
    if space > 0:
        cut = cut[:space]
    note = (f"the question has {len(question):,} characters: it was answered from its first "
            f"{len(cut):,}")
    log.warning("%s", note)
    return cut, note
