"""Gradle properties a build script reads from another file: the one rule for resolving them,
shared by the Gradle miner (which marks what one script leaves unresolved) and the ledger (which
resolves it from the files of the same commit).

A build script's ``"org.springframework.boot:spring-boot-starter-web:$springBootVersion"``,
``version "${kotlinVersion}"`` or ``property("appVersion")`` names a property the script itself
does not bind: Gradle takes it from a ``gradle.properties`` file, or from the ``ext`` properties
of a parent project's build script.  The miner sees one file, so it states the value as written
and lists the names it could not resolve in the attr ``properties`` (``springBootVersion``,
space-separated).  The ledger resolves them when it folds the commit: for a script in
``api/``, ``api/gradle.properties`` first, then for each folder above it (the root last) that
folder's ``gradle.properties`` and its build script's ``ext`` settings.  Every property found:
the value with each one substituted, and the attr ``declared`` keeps the value as written; any
name not found: the value as written, unchanged.  A commit that changes a ``gradle.properties``
or an ``ext`` setting re-resolves every such fact, so both the current answer and an as-of answer
follow whichever file changed.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

from repomem.core.model import Fact

PROPERTIES = "properties"  # the attr naming what a value reads from another file
DECLARED = "declared"  # the value as the script writes it, once resolved
FILE = "gradle.properties"
_SCRIPTS = ("build.gradle", "build.gradle.kts")
# ${name}, ${project.name}, ${rootProject.ext.name}, $name -- the forms Groovy and Kotlin
# scripts interpolate (a property read with property("name") is written ${name} by the miner)
REF = re.compile(r"\$\{\s*(?:(?:rootProject|project)\.)?(?:ext\.|extra\.)?(\w+)\s*\}|\$(\w+)")


def is_gradle_script(path: str) -> bool:
    return path.endswith((".gradle", ".gradle.kts"))


def rereads(path: str) -> bool:
    """Does a change of this file's facts change what a build script's property resolves to?"""
    base = path.rpartition("/")[2]
    return base == FILE or base in _SCRIPTS


def _sources(script: str) -> list[tuple[str, str]]:
    """(path, key prefix) of each place a property of SCRIPT is looked up, nearest first."""
    folders = script.split("/")[:-1]
    out = []
    for depth in range(len(folders), -1, -1):
        base = "/".join(folders[:depth])
        at = f"{base}/" if base else ""
        out.append((f"{at}{FILE}", f"config:{at}{FILE}:"))
        if depth < len(folders):  # a parent project's ext (the script's own was resolved by the miner)
            for name in _SCRIPTS:
                out.append((f"{at}{name}", f"config:{at}{name}:ext."))
    return out


def resolve(fact: Fact, lookup: Callable[[str, str], Fact | None]) -> Fact:
    """FACT with the properties it reads substituted; LOOKUP(path, key) is the fact a file states
    now under that key, else None."""
    attrs = dict(fact.attrs)
    names = attrs.pop(PROPERTIES, "").split()
    found: dict[str, str] = {}
    sources = _sources(fact.path)
    for name in names:
        for path, prefix in sources:
            hit = lookup(path, prefix + name)
            if hit is not None:
                found[name] = hit.value
                break
        else:
            return fact
    value = REF.sub(lambda m: found.get(m.group(1) or m.group(2), m.group(0)), fact.value)
    attrs[DECLARED] = fact.value
    return dataclasses.replace(fact, value=value, attrs=tuple(sorted(attrs.items())))
