"""The repomem package as an earlier commit of this repository had it, for tests that read a
store written by that code (a real old store, not a hand-made imitation of one)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT


def old_code(tmp_path: Path, commit: str, what: str) -> Path:
    """A folder holding the ``repomem`` package of COMMIT (put it on PYTHONPATH); the test is
    skipped when this clone lacks the commit.  WHAT says which code it is, for the skip."""
    dest = tmp_path / "old-code"
    dest.mkdir()
    arch = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "repomem"], capture_output=True)
    if arch.returncode:
        pytest.skip(f"commit {commit} ({what}) is not in this clone")
    subprocess.run(["tar", "-x", "-C", str(dest)], input=arch.stdout, check=True)
    return dest
