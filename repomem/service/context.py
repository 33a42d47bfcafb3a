"""The Markdown block handed to an agent before its prompt: current facts only, with their
source text and provenance, within a token budget.  Retired values are never shown -- the
answering model does measurably worse when it sees "was A, now B"."""

from __future__ import annotations

from repomem.core.render import block
from repomem.service.query import ask
from repomem.service.question import has_word, parse, task_subject
from repomem.service.render import fact_lines, lineage_line


def approx_tokens(text: str) -> int:
    # ~4 characters a token for English and code; close enough for a budget.
    return (len(text) + 3) // 4


def render_fact(f: dict, uncommitted: bool = False) -> str:
    return "".join(line + "\n" for line in fact_lines(f, uncommitted))


HEADER = "## Repository facts (repomem: current values from git)"
HEADER_OVERLAY = "## Repository facts (repomem: current values from git, plus uncommitted edits)"


def _answer(r, text: str, k: int, snapshot_only: bool | None) -> dict:
    result = ask(r, task_subject(text), k=k, snapshot_only=True, floor=True)
    if result.get("unavailable") and not snapshot_only:
        result = ask(r, task_subject(text), k=k, floor=True)
    return result


def _shared(ranked: list[list[dict]]) -> list[dict]:
    """One list from the rankings of a prompt's asks: each one's best, then each one's second,
    ...; a fact once."""
    out: list[dict] = []
    seen: set[str] = set()
    for j in range(max((len(x) for x in ranked), default=0)):
        for facts in ranked:
            if j < len(facts) and facts[j]["key"] not in seen:
                seen.add(facts[j]["key"])
                out.append(facts[j])
    return out


def build_context(r, question: str, budget: int = 400, k: int = 8,
                  overlay: list[dict] | None = None, snapshot_only: bool | None = None) -> str:
    """The block for QUESTION, or "" when nothing relevant is known (no block at all: an agent
    is better off with nothing than with facts about something else).  overlay: uncommitted
    facts from the watcher, shown flagged and ahead of committed ones for the same key.
    The current-view snapshot answers, whatever the prompt: no chromadb import, no wait for a
    writer's lock.  When it cannot (no snapshot of this HEAD's line yet), snapshot_only=True
    gives no block (the pre-prompt hook) and None reads the store of record."""
    # an empty prompt matches nothing (ask would rank arbitrary facts); a date in the prompt is
    # no time asked (the context is the current facts)
    results: list[dict] = []
    if has_word(question):
        # a prompt of several asks ("upgrade Django to 6.1 and Wagtail to 7.5"): each looked up
        # on its own, then the whole, sharing the budget
        parts = parse(question).asks
        results = [_answer(r, text, k, snapshot_only) for text in
                   (parts + (question,) if len(parts) > 1 else parts)]
    facts = _shared([x["facts"] for x in results])
    lineage = list({(n["key"], n["name"]): n for x in results for n in x.get("lineage", ())}.values())
    over = {f["key"]: f for f in (overlay or [])}
    # A retired name the question used: say what it is now (the only place an old name shows).
    lines = [f"- {lineage_line(n)}" for n in lineage]
    header = HEADER_OVERLAY if over else HEADER
    used = approx_tokens(block(header, lines))
    for f in facts:
        shown = fact_lines(over[f["key"]], uncommitted=True) if f["key"] in over else fact_lines(f)
        cost = approx_tokens("\n".join(shown) + "\n")
        if used + cost > budget:
            break
        lines += shown
        used += cost
    return block(header, lines) if lines else ""
