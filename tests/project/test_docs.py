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


def test_the_user_documentation_is_reference_not_a_diary():
    """README.md stays an overview; issue numbers and work-phase names belong in CHANGELOG.md."""
    assert len(README.splitlines()) <= 200
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    diary = [f"{p.relative_to(ROOT)}:{n}: {line.strip()}" for p in pages
             for n, line in enumerate(p.read_text().splitlines(), 1)
             if re.search(r"(?i)\b(phase|issue) [0-9]", line)]
    assert not diary, diary


def test_the_readme_links_to_pages_that_exist():
    links = re.findall(r"\]\(((?:docs/)?[\w./-]+\.md)(?:#[\w-]+)?\)", README)
    assert links and not [link for link in links if not (ROOT / link).is_file()]
