"""What agent-facing adapters (the MCP server, the pre-prompt hooks, ``ask --llm``) share:
one path to the prompt context, and an LLM answer written from current facts only.

Everything goes through :func:`repomem.service.context.build_context` / :func:`repomem.service.query.ask`, so
the rules there (current values only, provenance on every fact, the token budget, uncommitted
edits flagged) hold for every agent interface alike.
"""

from __future__ import annotations

from repomem.core.render import MARKER
from repomem.service import ports
from repomem.service.context import build_context, render_fact
from repomem.service.query import ask
from repomem.service.render import lineage_line

OVERLAY_FILE = "overlay.json"  # integrations.overlay.NAME, not imported here: it loads the miners
HOOK_BUDGET = 250  # tokens: a pre-prompt block should cost little on every turn


def load_overlay(r) -> list[dict] | None:
    """Uncommitted facts from the watcher, when a running watcher keeps them and the process
    installed the overlay's loader (service/ports.py); None otherwise.  Best effort by design:
    context without the overlay is still correct for committed state."""
    load = ports.overlay()
    if load is None or not (r.store.path / OVERLAY_FILE).exists():  # no watcher: no miners' import
        return None
    try:
        return load(r) or None
    except Exception:  # a broken overlay must not cost the agent its committed context
        return None


def prompt_context(r, prompt: str, budget: int = HOOK_BUDGET,
                   snapshot_only: bool | None = None) -> str:
    """The context block for an agent's prompt ("" when nothing relevant is known); see
    build_context for snapshot_only."""
    return build_context(r, prompt, budget=budget, overlay=load_overlay(r),
                         snapshot_only=snapshot_only)


SYSTEM = """You answer questions about a software repository.
Use ONLY the facts given below; they are the current values from the repository's git history.
Do not guess and do not use outside knowledge. If the facts do not answer the question, say so.
Answer in one to three sentences, and cite the file:line and the commit (first 10 characters) of
each fact you rely on, like (config/production.toml:3, commit 563028b6f1)."""


def llm_answer(r, question: str, model: str, as_of: str | None = None, k: int = 5) -> dict:
    """ask(), then let an Ollama model phrase the answer from those facts alone.  The facts given
    to the model are exactly the ones returned, so the citations can be checked against them."""
    from repomem.adapters.ollama_client import chat

    result = ask(r, question, as_of, k)
    facts = result["facts"]
    if not facts:
        result["llm_answer"] = "No indexed fact matches this question."
        return result
    when = f"as of {result['as_of']}" if as_of else "current"
    block = "".join(render_fact(f) for f in facts)
    # The question may use a retired name: say what it is now, or the model cannot connect them.
    notes = "".join(f"Note: {lineage_line(n)}.\n" for n in result.get("lineage", ()))
    user = f"Facts ({when}):\n{MARKER}\n{block}\n{notes}Question: {question}"
    result["llm_answer"] = chat(model, SYSTEM, user)
    result["llm"] = f"ollama:{model}"
    return result
