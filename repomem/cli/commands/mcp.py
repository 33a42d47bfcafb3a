"""Serve the repository's current facts to an agent over MCP (stdio).  Read-only tools:
ask, context, list_facts, key_history, changes_since.

Example (Claude Code):  claude mcp add repomem -- repomem mcp --repo /path/to/repo
Needs the MCP Python SDK:  pip install 'repomem[mcp]'"""

from __future__ import annotations

from repomem.cli import common
from repomem.core.errors import RepomemError

HELP = "serve current facts to agents over MCP (stdio)"


def add_arguments(p) -> None:
    common(p)


def run(args) -> int:
    try:
        import mcp.server.mcpserver  # noqa: F401
    except ImportError:
        raise RepomemError("the MCP server needs the MCP Python SDK 2.x",
                           hint="pip install 'repomem[mcp]'  (or: pip install 'mcp>=2')") from None
    from repomem.integrations.mcp_server import serve

    serve(args.repo, args.store)
    return 0
