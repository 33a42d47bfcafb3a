#!/usr/bin/env python3
"""Claude Code UserPromptSubmit hook: print repomem's current facts for the submitted prompt.

Claude Code runs this with the hook event as JSON on stdin (``prompt``, ``cwd``, ``session_id``,
``hook_event_name``, ...) and, on exit 0, adds whatever it prints to the model's context.

It never fails a prompt: on any problem (no repomem store for this repository, repomem not
installed, a slow or broken store, a malformed event) it prints nothing and exits 0.

Wiring (.claude/settings.json; see docs/agents.md):

    {"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "timeout": 15,
       "command": "python3 \\"$CLAUDE_PROJECT_DIR\\"/hooks/claude_code_prompt_context.py"}]}]}}

Environment: REPOMEM_HOOK_BUDGET (tokens, default 250), REPOMEM_HOOK_TIMEOUT (seconds, default
10), REPOMEM_STORE (store location), REPOMEM_PYTHON (an interpreter that has repomem, used when
the one running this script does not).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys

MIN_WORDS = 2  # "yes", "continue": nothing to look up


def _event() -> dict:
    data = json.loads(sys.stdin.read() or "{}")
    return data if isinstance(data, dict) else {}


def _wanted(prompt: str) -> bool:
    p = prompt.strip()
    return bool(p) and not p.startswith("/") and len(p.split()) >= MIN_WORDS


def _in_process(repo: str, prompt: str, budget: int) -> str:
    from repomem.service.agents import prompt_context
    from repomem.service.repo import Repo

    r = Repo.open(repo)
    if not r.store.exists():
        return ""
    return prompt_context(r, prompt, budget)


def _via_cli(repo: str, prompt: str, budget: int, timeout: float) -> str:
    """repomem is not importable here: use the repomem on PATH (or REPOMEM_PYTHON)."""
    py = os.environ.get("REPOMEM_PYTHON")
    cmd = [py, "-m", "repomem"] if py else [shutil.which("repomem") or ""]
    if not cmd[0]:
        return ""
    out = subprocess.run([*cmd, "context", "--repo", repo, "--budget", str(budget), prompt],
                         capture_output=True, text=True, timeout=timeout)
    return out.stdout if out.returncode == 0 else ""


def main() -> int:
    ev = _event()
    prompt = ev.get("prompt") or ""
    if not isinstance(prompt, str) or not _wanted(prompt):
        return 0
    repo = ev.get("cwd") or os.environ.get("CLAUDE_PROJECT_DIR") or os.getcwd()
    budget = int(os.environ.get("REPOMEM_HOOK_BUDGET", "250"))
    timeout = float(os.environ.get("REPOMEM_HOOK_TIMEOUT", "10"))
    if hasattr(signal, "SIGALRM"):  # a hung store must not hold up the user's prompt
        signal.signal(signal.SIGALRM, lambda *_: os._exit(0))
        signal.alarm(max(1, int(timeout)))
    try:
        import repomem  # noqa: F401
    except ImportError:
        text = _via_cli(repo, prompt, budget, timeout)
    else:
        text = _in_process(repo, prompt, budget)
    if "(no indexed fact matches" in text:
        return 0
    sys.stdout.write(text)
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    try:
        code = main()
    except BaseException:  # never fail the user's prompt, whatever happened
        code = 0
    os._exit(code)  # skip interpreter teardown (Chroma's threads); output is already flushed
