"""What a path says about its file, for the miners and the ranking alike."""

from __future__ import annotations

import re

# Tests, their data and fixtures: apps built inside tests are fixtures, not the project's API, and
# the environment variables a test sets configure nothing.
_TEST_DIRS = {"test", "tests", "__tests__", "spec", "specs", "e2e", "testdata"}
_TEST_FILE = re.compile(r"\.(?:test|spec)\.[cm]?[jt]sx?$|_test\.go$|Tests?\.java$"
                        r"|^test_[^/]*\.py$|_tests?\.py$|^tests?\.py$|^conftest\.py$")


def is_test(path: str) -> bool:
    parts = path.split("/")
    return bool(_TEST_DIRS.intersection(parts[:-1])) or bool(_TEST_FILE.search(parts[-1]))
