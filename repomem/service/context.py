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


# An agent's prompt is a task more often than a question: its leading verb and "the bug where"
# say what to do, not what it is about ("fix the bug where redirect drops the query" is about
# redirect and the query, not about the `lint:fix` script).
_TASK = re.compile(
    r"^\s*(?:please\s+)?(?:fix|add|implement|refactor|update|change|make|write|remove|delete|"
    r"rename|debug|investigate|improve|support|handle|extend|clean\s+up|speed\s+up)\b\s*"
    r"(?:(?:the|a|an|this)\s+)?(?:(?:bug|issue|problem|crash|regression|failure)s?\b\s*"
    r"(?:(?:where|that|when|in|with|of|so\s+that)\b)?)?", re.I)


def task_subject(prompt: str) -> str:
    """The prompt without its task framing (what it is about, for ranking); the prompt itself
    when nothing else is left."""
    rest = _TASK.sub("", prompt, count=1)
    return rest if re.search(r"\w", rest) else prompt


def build_context(r, question: str, budget: int = 400, k: int = 8,
                  overlay: list[dict] | None = None) -> str:
    """overlay: uncommitted facts from the watcher, shown flagged and ahead of committed ones
    for the same key."""
    # an empty prompt matches nothing (ask would rank arbitrary facts); a date in the prompt is
    # no time asked (the context is the current facts)
    result = ask(r, task_subject(question), k=k) if re.search(r"\w", question) else {"facts": []}
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
