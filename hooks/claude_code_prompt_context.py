#!/usr/bin/env python3
"""Claude Code UserPromptSubmit hook for a source checkout: runs ``repomem hook claude-code``.

The hook ships in the package; ``repomem agent install claude-code`` writes it into
``.claude/settings.json`` (see docs/agents.md).  This file is for settings that still point at
the checkout: it runs the package's hook in this interpreter when it has repomem, else the
``repomem`` on PATH (or ``$REPOMEM_PYTHON -m repomem``).  Like the hook itself it never fails
a prompt: on any problem it prints nothing and exits 0.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys


def main() -> int:
    try:
        from repomem.integrations.claude_code import run
    except ImportError:
        py = os.environ.get("REPOMEM_PYTHON")
        cmd = [py, "-m", "repomem"] if py else [shutil.which("repomem") or ""]
        if not cmd[0]:
            return 0
        timeout = float(os.environ.get("REPOMEM_HOOK_TIMEOUT", "5")) + 1
        out = subprocess.run([*cmd, "hook", "claude-code"], stdin=sys.stdin, capture_output=True,
                             text=True, timeout=timeout)
        sys.stdout.write(out.stdout if out.returncode == 0 else "")
        sys.stdout.flush()
        return 0
    return run()


if __name__ == "__main__":
    try:
        code = main()
    except BaseException:  # never fail the user's prompt, whatever happened
        code = 0
    os._exit(code)
