"""Every command is documented in the README, and the README's test command is what CI runs."""

from __future__ import annotations

import re

from repomem.cli import build_parser, command_modules
from tests.conftest import ROOT

README = (ROOT / "README.md").read_text()


def test_every_command_is_in_the_readme():
    names = []
    for action in build_parser()._subparsers._group_actions:
        names += list(action.choices)
    assert len(names) == len(command_modules())
    missing = [n for n in names if f"repomem {n}" not in README]
    assert not missing, missing


def test_ci_runs_the_readme_test_command():
    block = re.search(r"<!-- test-command -->\n```sh\n(.+?)\n```\n<!-- /test-command -->", README,
                      re.S)
    assert block and "pytest" in block.group(1)
    assert "test-command" in (ROOT / ".ci" / "run").read_text()
