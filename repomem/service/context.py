"""The Markdown block handed to an agent before its prompt: current facts only, with their
source text and provenance, within a token budget.  Retired values are never shown -- the
answering model does measurably worse when it sees "was A, now B"."""

from __future__ import annotations

import re

from repomem.service.query import ask, lineage_line, value_note


def approx_tokens(text: str) -> int:
    # ~4 characters a token for English and code; close enough for a budget.
    return (len(text) + 3) // 4


def render_fact(f: dict, uncommitted: bool = False) -> str:
    date = (f.get("valid_from") or "")[:10]
    where = f"{f['path']}:{f['line']}"
    if uncommitted:
        prov = f"{where}, UNCOMMITTED edit (file modified {f.get('modified', '?')})"
    else:
        prov = f"{where}, commit {f['commit'][:10]}, {date}"
    text = "\n".join("    " + ln for ln in (f.get("text") or "").splitlines()[:4])
    return f"- {f['subject']}: `{f['value']}`{value_note(f)} ({prov})\n{text}\n"


def build_context(r, question: str, budget: int = 400, k: int = 8,
                  overlay: list[dict] | None = None) -> str:
    """overlay: uncommitted facts from the watcher, shown flagged and ahead of committed ones
    for the same key."""
    # an empty prompt matches nothing (ask would rank arbitrary facts); a date in the prompt is
    # no time asked (the context is the current facts)
    result = ask(r, question, k=k) if re.search(r"\w", question) else {"facts": []}
    facts = result["facts"]
    over = {f["key"]: f for f in (overlay or [])}
    head = "## Repository facts (repomem: current values from git"
    head += ", plus uncommitted edits)\n" if over else ")\n"
    # A retired name the question used: say what it is now (the only place an old name shows).
    head += "".join(f"- {lineage_line(n)}\n" for n in result.get("lineage", ()))
    parts, used = [head], approx_tokens(head)
    for f in facts:
        block = render_fact(over[f["key"]], uncommitted=True) if f["key"] in over else render_fact(f)
        cost = approx_tokens(block)
        if used + cost > budget:
            break
        parts.append(block)
        used += cost
    if len(parts) == 1:
        parts.append("- (no indexed fact matches this question)\n")
    return "".join(parts)
