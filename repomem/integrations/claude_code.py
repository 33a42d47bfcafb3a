"""Claude Code's UserPromptSubmit hook: the current facts for the prompt, as additional context.

Claude Code runs the hook's command with the event as JSON on stdin (``session_id``,
``transcript_path``, ``cwd``, ``permission_mode``, ``hook_event_name``, ``prompt``) and, on exit
0, adds ``hookSpecificOutput.additionalContext`` of the JSON the hook prints to the model's
context (plain stdout is added too; the JSON form is the one meant for context).  See
docs/agents.md.

It never fails or holds up a prompt: no store, a malformed event, a slash command, a prompt
with nothing to look up or any error prints nothing and exits 0; an alarm ends it silently
after ``REPOMEM_HOOK_TIMEOUT`` seconds.  It answers from the current-view snapshot alone
(``snapshot_only``): no chromadb import, no wait for a writer's lock, whatever the prompt;
and, where it can, from the store's warm answerer, which has that snapshot loaded already
(repomem/integrations/answerer.py): then this process imports no numpy either.
The store is found the way every command finds it (``$REPOMEM_STORE``, else the
``repomem.store`` git config that ``repomem init`` records, else the default).
"""

from __future__ import annotations

import json
import os
import signal
import sys

EVENT = "UserPromptSubmit"
MIN_WORDS = 2  # "yes", "continue": nothing to look up
DEFAULT_BUDGET = 250  # tokens: a pre-prompt block should cost little on every turn
DEFAULT_TIMEOUT = 5  # seconds; Claude Code's own limit for the command is longer


def wanted(prompt: object) -> bool:
    """Whether a prompt may have anything to look up (a slash command or one word has not)."""
    if not isinstance(prompt, str):
        return False
    p = prompt.strip()
    return bool(p) and not p.startswith("/") and len(p.split()) >= MIN_WORDS


def context_for(event: dict, warm: bool = True) -> str:
    """The context block for the event's prompt; "" when there is none to give.  WARM: ask the
    store's warm answerer first (repomem/integrations/answerer.py); its answer is this
    function's own, computed in a process that has the snapshot loaded already."""
    prompt = event.get("prompt")
    if not wanted(prompt):
        return ""
    from repomem.integrations import answerer

    repo = event.get("cwd") or os.environ.get("CLAUDE_PROJECT_DIR") or os.getcwd()
    budget = int(os.environ.get("REPOMEM_HOOK_BUDGET", DEFAULT_BUDGET))
    if warm and isinstance(repo, str):
        text = answerer.warm_context(repo, str(prompt), budget)
        if text is not None:
            return text
    return answerer.context_answer(repo, str(prompt), budget)


def output(text: str) -> str:
    """Claude Code's documented JSON output for a UserPromptSubmit hook ("" for no context)."""
    if not text:
        return ""
    return json.dumps({"hookSpecificOutput": {"hookEventName": EVENT,
                                              "additionalContext": text}}) + "\n"


def run(stdin=None, stdout=None) -> int:
    """Read the event, print the hook's output; exit status 0 whatever happens."""
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    # one prompt's numpy work is too small for threads: OpenBLAS would start one per core at
    # numpy's import (~80 ms of CPU spinning); the answerer it starts inherits this too
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    timeout = float(os.environ.get("REPOMEM_HOOK_TIMEOUT", DEFAULT_TIMEOUT))
    if hasattr(signal, "SIGALRM"):  # a hung store must not hold up the user's prompt
        signal.signal(signal.SIGALRM, lambda *_: os._exit(0))
        signal.setitimer(signal.ITIMER_REAL, max(0.1, timeout))
    try:
        event = json.loads(stdin.read() or "{}")
        text = context_for(event) if isinstance(event, dict) else ""
        out = output(text)
    except BaseException:  # never fail the user's prompt, whatever happened
        out = ""
    finally:  # disarmed: the interpreter's teardown resets the handler to the default, a kill
        if hasattr(signal, "SIGALRM"):
            signal.setitimer(signal.ITIMER_REAL, 0)
    if out:
        stdout.write(out)
        stdout.flush()
    return 0
