"""Set a coding agent up to read this repository's facts, or take that out again.

  repomem agent install claude-code [--mcp]   the UserPromptSubmit hook in .claude/settings.json
                                              (--mcp: the MCP server in .mcp.json too)
  repomem agent install cursor                the MCP server in .cursor/mcp.json
  repomem agent install codex                 the MCP server in .codex/config.toml
  repomem agent uninstall AGENT               the files as they were (or less repomem's entries,
                                              when they were edited since)

What the files held already is kept; installing twice changes nothing."""

from __future__ import annotations

from repomem.cli import common
from repomem.core.termsafe import echo
from repomem.integrations.agent_config import AGENTS

HELP = "set a coding agent up (hook, MCP server) or take it out"


def add_arguments(p) -> None:
    common(p)
    p.add_argument("action", choices=("install", "uninstall"))
    p.add_argument("agent", choices=AGENTS)
    p.add_argument("--mcp", action="store_true",
                   help="claude-code: register the MCP server (.mcp.json) besides the hook")


def run(args) -> int:
    from repomem.integrations.agent_config import install, uninstall

    if args.action == "install":
        lines = install(args.repo, args.agent, mcp=args.mcp, store=args.store)
    else:
        lines = uninstall(args.repo, args.agent)
    for line in lines:
        echo(line)
    return 0
