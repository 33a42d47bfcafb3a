"""Which project and group a dependency manifest states its requirements for (rules in deps.py's
docstring and docs/facts.md)."""

from __future__ import annotations

import re

from packaging.utils import canonicalize_name

# Directories that hold a project's secondary requirement files: such a file belongs to the
# project one level up, in the group the directory names (None: the file's own name says it).
_HELPER_DIRS = {"requirements": None, "reqs": None, "docs": "docs", "doc": "docs", "ci": "ci",
                ".ci": "ci", ".github": "ci", "test": "test", "tests": "test", "testing": "test",
                "dev": "dev"}
# Spellings of one group in requirement file names (requirements-tests.txt, requirements/doc.txt);
# requirements/base.txt and common.txt are the conventional runtime set that the others extend.
_GROUP_ALIASES = {"": "main", "requirements": "main", "base": "main", "common": "main",
                  "tests": "test", "testing": "test", "doc": "docs", "development": "dev",
                  "develop": "dev"}


def is_requirements(path: str) -> bool:
    """requirements*.txt, requirements/*.txt, and the common dev-requirements.txt spelling."""
    parts = path.split("/")
    return parts[-1].endswith(".txt") and ("requirements" in parts[-1]
                                           or (len(parts) > 1 and parts[-2] == "requirements"))


def group_name(name: str) -> str:
    """An extra's or a dependency group's name, normalised as PEP 685 / PEP 735 compare them."""
    return canonicalize_name(str(name))


def _helper_dir(path: str) -> str | None:
    """The helper directory (docs/, requirements/...) a requirements file sits in, if any."""
    parts = path.split("/")
    if is_requirements(path) and len(parts) > 1 and parts[-2].lower() in _HELPER_DIRS:
        return parts[-2].lower()
    return None


def project_of(path: str) -> str:
    """The project directory a manifest belongs to, relative to the repository root."""
    parts = path.split("/")[:-1]
    if _helper_dir(path) is not None:
        parts = parts[:-1]
    return "/".join(parts) or "."


def requirements_group(path: str) -> str:
    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0].lower()
    # requirements-dev.txt, requirements/dev.txt and dev-requirements.txt are all "dev"
    group = re.sub(r"^requirements[-_.]?|[-_.]?requirements$", "", stem)
    group = _GROUP_ALIASES.get(group, group)
    helper = _helper_dir(path)
    scoped = _HELPER_DIRS[helper] if helper is not None else None
    if group == "main" and scoped:
        return scoped  # docs/requirements.txt: the docs group
    return group
