"""The Markdown block handed to an agent before its prompt: current facts only, with their
provenance (and the source text of the first ones), within a token budget.  Retired values are
never shown -- the answering model does measurably worse when it sees "was A, now B".

The block is written to fit many facts in few tokens (on the training repositories' task
prompts, the needed fact was often ranked 9th-15th, past what a full rendering fits in 400
tokens): a subject does not repeat the path its provenance names, a function or class is its
name and what it is (``prompt`` function), the source line is shown for the first SOURCED facts
only, white space collapsed, and the copies of a fact in other files (an example's pyproject.toml
stating the same ``requires-python``) are one bullet naming where else it is.  Every mined string
still goes through :func:`repomem.core.render.code`."""

from __future__ import annotations

from collections.abc import Sequence

from repomem.core.render import block, code, plain
from repomem.service import scorer
from repomem.service.copies import fold, source_text, subject_less_path
from repomem.service.query import ask
from repomem.service.question import has_word, parse, task_subject
from repomem.service.render import disagree_lines, fact_lines, lineage_line, same_in_line, value_note

ASK_K = 16  # facts looked up per ask: a compact block of 400 tokens shows 12-16
SOURCED = 3  # facts shown with their source line and commit...
SOURCED_SMALL, SMALL_BUDGET = 1, 300  # ...one in a block under 300 tokens (the hook's 250),
# where a source line costs as many tokens as a fact
SOURCE_MAX = 100  # characters of a source line
RECENT_DAYS = 30  # a fact committed this close to the latest one shown says its day
COPIES_SHOWN = 6  # other files of a copied fact named
# the words a code fact's subject starts with ("method Context.invoke"): shown as repomem's own
# text after the name; a subject of any other shape is shown whole, as a code span
_CODE_WORDS = frozenset({"function", "method", "class", "struct", "interface", "trait", "enum",
                         "type"})


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


_SETTING_KINDS = frozenset({"config", "constant"})  # whose source line may say less than the bullet


def _states(text: str, value: str) -> bool:
    """Whether a setting's source line states its value: the first line of a declaration
    spread over several (``help: Annotated[``) says less than the bullet, and is left out."""
    return " ".join(value.split()) in text


def _head(f: dict) -> str:
    """What the fact is: ``name`` function / ``name`` method of ``Owner`` for code whose value
    is its name, else ``subject``: ``value``."""
    subject, value = subject_less_path(f), f["value"]
    word, _, name = subject.partition(" ")
    if word in _CODE_WORDS and value:
        if name == value:
            return f"{code(value)} {word}"
        if name.endswith("." + value):
            return f"{code(value)} {word} of {code(name[:-len(value) - 1])}"
    return f"{code(subject)}: {code(value)}"


def compact_lines(f: dict, copies: Sequence[dict] = (), uncommitted: bool = False,
                  source: bool = True, recent: str = "") -> list[str]:
    """A fact for the agent's block: one bullet (what it is, its value, where), its source line
    and commit when SOURCE, the day it was committed when SOURCE or on or after RECENT (an ISO
    day: a value changed lately is the one an agent's memory may hold stale), the other files
    that state the same (COPIES), the files that disagree."""
    where = f"{code(f['path'])}:{int(f.get('line') or 0)}"
    if uncommitted:
        prov = f"{where}, UNCOMMITTED edit (file modified {plain(f.get('modified', '?'), 40)})"
    else:
        day = plain(f.get("valid_from") or "", 10)[:10] or "?"
        if source:
            prov = f"{where}, {day} {plain(f.get('commit') or '?', 10)[:7]}"
        else:
            prov = f"{where}, {day}" if recent and day >= recent else where
    lines = [f"- {_head(f)}{value_note(f)} ({prov})"]
    text = source_text(f) if source else ""
    if text and (f["kind"] not in _SETTING_KINDS or _states(text, f["value"])):
        lines.append(f"  source: {code(text, SOURCE_MAX)}")
    return lines + same_in_line({"same_in": copies}, "  ", COPIES_SHOWN) + disagree_lines(f, "  ")


def removed_line(f: dict) -> str:
    """A committed fact the work tree no longer states: what it was about, never its value."""
    return (f"- {code(subject_less_path(f))}: removed in the work tree ({code(f['path'])}, UNCOMMITTED "
            f"edit, file modified {plain(f.get('modified', '?'), 40)})")


def _recent(facts: list[dict]) -> str:
    """The first day of the RECENT_DAYS before the latest commit among FACTS ("" for none)."""
    import datetime as dt

    days = [str(f.get("valid_from") or "")[:10] for f in facts]
    try:
        latest = dt.date.fromisoformat(max((d for d in days if d), default=""))
    except ValueError:
        return ""
    return (latest - dt.timedelta(days=RECENT_DAYS)).isoformat()


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


def build_context(r, question: str, budget: int = 400, k: int = ASK_K,
                  overlay: list[dict] | None = None, snapshot_only: bool | None = None) -> str:
    """The block for QUESTION, or "" when nothing relevant is known (no block at all: an agent
    is better off with nothing than with facts about something else).  overlay: uncommitted
    facts from the watcher, shown flagged and ahead of committed ones for the same key; a fact
    the work tree no longer states is shown as removed, without its committed value.
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
        with scorer.surface("context"):
            results = [_answer(r, text, k, snapshot_only) for text in
                       (parts + (question,) if len(parts) > 1 else parts)]
    # (each ask folded its own copies, `same_in`; the asks' lists may still share one)
    facts, copies = fold(_shared([x["facts"] for x in results]))
    lineage = list({(n["key"], n["name"]): n for x in results for n in x.get("lineage", ())}.values())
    over = {f["key"]: f for f in (overlay or [])}
    # A retired name the question used: say what it is now (the only place an old name shows).
    lines = [f"- {lineage_line(n)}" for n in lineage]
    recent = _recent(facts)
    sourced = SOURCED_SMALL if budget < SMALL_BUDGET else SOURCED
    header = HEADER_OVERLAY if over else HEADER
    used = approx_tokens(block(header, lines))
    for n, f in enumerate(facts):
        if over.get(f["key"], {}).get("removed"):  # its committed value is not current
            shown = [removed_line(over[f["key"]])]
        elif f["key"] in over:
            shown = compact_lines(over[f["key"]], uncommitted=True, source=n < sourced)
        else:
            shown = compact_lines(f, f.get("same_in", []) + copies.get(f["key"], []),
                                  source=n < sourced,
                                  recent=recent)
        cost = approx_tokens("\n".join(shown) + "\n")
        if used + cost > budget:
            continue  # a shorter fact ranked after it may still fit
        lines += shown
        used += cost
    return block(header, lines) if lines else ""
