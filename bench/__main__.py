"""``python -m bench COMMAND [ARGS]`` from the top of a checkout (bench/cli.py)."""

import sys

from bench.cli import main

sys.exit(main())
