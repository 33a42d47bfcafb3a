"""Run an agent's hook: read the agent's event on stdin, print what the agent takes back.

  repomem hook claude-code   Claude Code's UserPromptSubmit hook: the current facts for the
                             prompt as hookSpecificOutput.additionalContext JSON (nothing when
                             there is nothing to look up).  Always exits 0.

'repomem agent install claude-code' writes it into .claude/settings.json."""

from __future__ import annotations

HELP = "run an agent's hook (reads the event on stdin)"
AGENTS = ("claude-code",)


def add_arguments(p) -> None:
    p.add_argument("agent", choices=AGENTS)


def run(args) -> int:
    from repomem.integrations.claude_code import run as claude_code

    return claude_code()
