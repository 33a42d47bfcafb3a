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


# A tool's own config file names the tool its settings belong to: jest.config.ts, .eslintrc.js,
# .prettierrc.json; TypeScript's and VS Code's files are named otherwise (tsconfig.app.json)
# Schema migrations (Django, Flask-Migrate/Alembic, Prisma, Rails): dated records of how a
# schema changed, not how the code stands.
_MIGRATIONS = re.compile(r"(?:^|/)migrations/|(?:^|/)db/migrate/|(?:^|/)alembic/versions/")


def is_migration(path: str) -> bool:
    return _MIGRATIONS.search(path) is not None


_TOOL_FILE = re.compile(r"^([a-z][\w-]*)\.config\.[a-z]+$|^\.([a-z][\w-]*)rc(?:\.[a-z]+)?$")
_TOOL_NAMED = {"tsconfig": "typescript", "jsconfig": "javascript", "devcontainer": "devcontainer"}


def tool_of(path: str) -> str | None:
    """The tool a config file configures, by the file's name: ``jest`` of jest.config.ts,
    ``eslint`` of .eslintrc.json, ``typescript`` of tsconfig.app.json; None for a project's own
    config.py or settings/production.js."""
    base = path.rsplit("/", 1)[-1]
    m = _TOOL_FILE.match(base)
    if m:
        return m.group(1) or m.group(2)
    return _TOOL_NAMED.get(base.lstrip(".").split(".", 1)[0]) if base.endswith((".json", ".jsonc")) else None
