"""integrations: git hooks and their worker, the watcher and daemon, the uncommitted overlay, the
agents' hooks and MCP server.

Importing this package installs what the service layer's read path may need from the write path
and from here (repomem/integrations/wiring.py), so every process that goes through an
integration or the command line has it.
"""

from repomem.integrations import wiring

wiring.install()
