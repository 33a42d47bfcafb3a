import sys

if sys.argv[1:] == ["hook", "claude-code"]:  # an agent's hook, on every prompt: no CLI imports
    from repomem.integrations.claude_code import run

    sys.exit(run())

from repomem.cli import main

sys.exit(main())
