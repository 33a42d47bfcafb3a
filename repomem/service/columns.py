"""What ranking reads about each row, computed once per list of rows: the names that point at
it, its kind, its dependency group, whether it is in the project's own files, ... (facts_columns).

The snapshot's writer (repomem.service.viewcache) stores these columns beside the rows, so that a
fresh process loads them instead of looping over every row in Python; columns_code fingerprints
the code that computes them, and columns of other code are recomputed, not trusted.
repomem.service.rowindex holds them for a question (_Facts).
"""

from __future__ import annotations

import functools
import json
import re
from collections import Counter
from typing import Any

from repomem.core.paths import is_test
from repomem.core.tokens import norm_ident
from repomem.service.lexical import in_body, names, own_names, route_path
from repomem.service.naming import package_tail
from repomem.service.question import _GROUPS, module_names
from repomem.storage.store import stored_pair

_DIGIT = re.compile(r"\d")
_AUX = re.compile(r"(?:^|/)(?:examples?|docs?|tests?|samples?|demos?|benchmarks?|fixtures)/"
                  r"|(?:^|/)(?:tests?|test_[^/]*|[^/]*_tests?|conftest)\.py$"  # microblog's tests.py
                  r"|\.(?:test|spec)\.[cm]?[jt]sx?$")
# Kinds named like code: case-sensitive, and only by a word written as a name (see tiers._exact)
_CODE_NAMES = ("function", "class")
_TEST_KINDS = ("function", "class", "constant")
# (a Maven parent: the platform the root project builds on, Spring Boot's starter parent)
_ROOT_GROUPS = {"main", "runtime", "default", "dependencies", "install_requires", "parent"}


def _root_dependency(row: dict) -> bool:
    """A runtime requirement of the repository's root project (SHARED_DECISIONS #1 keys
    dependency:<eco>:<project>:<group>:<name>; older keys dependency:<eco>:<group>:<name>)."""
    attrs = dict(json.loads(row["attrs"])) if isinstance(row.get("attrs"), str) else {}
    parts = row["key"].split(":")
    project = attrs.get("project", parts[2] if len(parts) >= 5 else None)
    group = _group(row)
    if project is None:
        project = "." if "/" not in row["path"] else row["path"].rsplit("/", 1)[0]
    return project == "." and group in _ROOT_GROUPS


def _group(row: dict) -> str:
    attrs = dict(json.loads(row["attrs"])) if isinstance(row.get("attrs"), str) else {}
    parts = row["key"].split(":")
    group = attrs.get("group", parts[-2] if len(parts) >= 4 else "main")
    return _GROUPS.get(group.lower(), norm_ident(group))


# A project's own name in each ecosystem's manifest, by the manifest's file and the key in it
# (a Go module by its path's last part: github.com/labstack/echo/v4 is echo)
_PROJECT_KEYS = {"pyproject.toml": ("project.name", "tool.poetry.name"),
                 "setup.cfg": ("metadata.name",), "package.json": ("name",),
                 "Cargo.toml": ("package.name",), "go.mod": ("module",), "pom.xml": ("artifactId",),
                 "settings.gradle": ("rootProject.name",),
                 "settings.gradle.kts": ("rootProject.name",)}
_PROJECT_KEY = re.compile(r"^config:(?P<dir>(?:[^:]*/)?)(?P<file>%s):(?P<key>[^:]+)$"
                          % "|".join(re.escape(f) for f in _PROJECT_KEYS))


def project_name(row: dict, value: str | None = None) -> tuple[str, str] | None:
    """(the manifest's folder, the project's name normalised) when ROW is a manifest's name of
    its project (VALUE: a name it bore before, else its own); None else (nor in an example's,
    docs' or tests' folder)."""
    m = _PROJECT_KEY.match(row["key"])
    if m is None or m["key"] not in _PROJECT_KEYS[m["file"]] or _AUX.search(m["dir"]):
        return None
    value = row["value"] if value is None else value
    if m["file"] == "go.mod":
        name = package_tail(value) or norm_ident(value)
    else:
        name = norm_ident(value.lstrip("@").replace("/", "_"))  # @scope/name
    return (m["dir"], name) if name else None


def project_names(found: list[tuple[str, str]]) -> set[str]:
    """The repository's own project names, FOUND: (folder, name) of each manifest's name of its
    project, now or before a rename.  The root manifests' names; without one, the names the
    shallowest projects share, each less its folder's words: gs-rest-service's complete/ and
    initial/ builds are rest-service-complete and rest-service-initial, and were both
    gs-rest-service once: rest_service and gs_rest_service (one project alone: its names)."""
    if not found:
        return set()
    root = {n for d, n in found if not d}
    if root:
        return root
    top = min(d.count("/") for d, _ in found)
    by_folder: dict[str, set[str]] = {}
    for d, n in found:
        if d.count("/") == top:
            own = set(norm_ident(d.rstrip("/").rsplit("/", 1)[-1]).split("_"))
            by_folder.setdefault(d, set()).add("_".join(p for p in n.split("_") if p not in own) or n)
    if len(by_folder) == 1:
        return next(iter(by_folder.values()))
    counts = Counter(n for folder in by_folder.values() for n in folder)
    return {n for n, c in counts.items() if c >= 2}


def qualnames(row: dict) -> list[str]:
    """A method's qualified name (``Context.invoke`` of "method Context.invoke") and the other
    names it is bound to (express's ``res.set = res.header = function header``)."""
    if row["kind"] not in _CODE_NAMES:
        return []
    qual = row.get("subject", "").split(" ", 1)[-1]
    out = [qual] if "." in qual else []
    if not out and row.get("path"):
        # a module-level one by its module or package, as code calls it: click.prompt,
        # termui.prompt (src/click/termui.py), httpx.get (httpx/_api.py)
        out = [f"{m}.{qual}" for m in module_names(row["path"])]
    attrs = row.get("attrs")
    if isinstance(attrs, str) and '"aliases"' in attrs:
        out += dict(json.loads(attrs)).get("aliases", "").split(", ")
    return out


_IMAGE_KEY = re.compile(r"(?:^config:.*(?:\.|:)image|^docker:.*:from:.*)$")


def _image_name(row: dict) -> str:
    """The image a compose service or a Dockerfile stage runs, by name: ``redis`` of
    ``services.redis.image = redis:8.4``, ``postgres`` of ``docker.io/library/postgres:16``."""
    if row["kind"] not in ("config", "docker") or not _IMAGE_KEY.match(row["key"]):
        return ""
    value = row["value"].strip()
    if ":" not in value and "@" not in value:
        return ""  # no tag: no version to tell
    return norm_ident(value.rsplit("/", 1)[-1].split("@", 1)[0].split(":", 1)[0])


def facts_columns(rows: list[dict]) -> dict:
    """What _Facts reads about each row, as JSON: computed once per list of rows, here or by the
    snapshot's writer (service/viewcache.py), so that a fresh process loads it instead of
    looping over every row in Python.  ``code``: the fingerprint of the code computing it
    (columns_code): a snapshot written by other code is not trusted."""
    named: dict[str, list[int]] = {}
    retired: dict[str, list[tuple[int, list]]] = {}
    found: list[tuple[str, str]] = []  # "click" in "click's docs" names the repository, as
    # a name it bore before does (its manifests' names: project_names)
    images: dict[str, list[int]] = {}  # "redis" -> services.redis.image (redis:8.4)
    for i, row in enumerate(rows):
        for n in names(row, camel=True):
            named.setdefault(n, []).append(i)
        for qual in qualnames(row):  # `Context.invoke`, res.send, res.set (an alias)
            named.setdefault(norm_ident(qual), []).append(i)
        for entry in row.get("former") or ():
            old = route_path(entry[0]) if row["kind"] == "route" else norm_ident(entry[0])
            retired.setdefault(old, []).append((i, entry))
        name = project_name(row)
        if name:
            found.append(name)
            found += [was for e in row.get("former") or () if (was := project_name(row, e[0]))]
        image = _image_name(row)
        if image:
            images.setdefault(image, []).append(i)
    deps = [r["kind"] == "dependency" for r in rows]
    key_order = [0] * len(rows)  # each row's place in the order of keys (ties: by id)
    for place, i in enumerate(sorted(range(len(rows)),
                                     key=lambda i: (rows[i]["key"], rows[i].get("id", ""), i))):
        key_order[i] = place
    return {
        "code": columns_code(), "rows": len(rows), "names": named, "retired": retired,
        "project": sorted(project_names(found)), "images": images, "kind": [r["kind"] for r in rows],
        "root_dep": [d and _root_dependency(r) for d, r in zip(deps, rows)],
        "group": [_group(r) if d else "" for d, r in zip(deps, rows)],
        "own": [not _AUX.search(r["path"]) for r in rows],
        # a version manager's pin (.nvmrc, .python-version): a runtime's version, wanted as a
        # requirement or a Python version is ("what node version is used?")
        "runtime": [_RUNTIME in r["attrs"] if isinstance(r.get("attrs"), str) else False
                    for r in rows],
        # a test's functions, classes and constants: its cases and fixtures
        "test_code": [r["kind"] in _TEST_KINDS and is_test(r["path"]) for r in rows],
        # a function's parameter default (prompt.prompt_suffix): by the function's name
        "param_of": [own_names(r["key"])[0].rpartition(".")[0].lower()
                     if isinstance(r.get("attrs"), str) and _PARAMETER in r["attrs"] else ""
                     for r in rows],
        # a value in a function's body: passed to a call by name
        # (generateToken.jwt.sign.expiresIn), bound to a local name (res.redirect.status)
        "in_body": [in_body(r) for r in rows],
        # a private function or class (`_CookieCompatRequest`): the module's helper, not its API
        "private": [r["kind"] in _CODE_NAMES and r["value"].startswith("_")
                    and not r["value"].startswith("__") for r in rows],
        # a dependency whose value states no version: managed by a parent or a plugin (Maven's
        # Spring Boot starters), any (`*`), a branch
        "unversioned": [r["kind"] == "dependency" and not _DIGIT.search(r["value"]) for r in rows],
        "key_order": key_order,
    }


@functools.cache
def columns_code() -> str:
    """A fingerprint of the code facts_columns runs: its own and every function, pattern and
    constant of this package it reaches by name (a change to how a name or a group is read
    makes older snapshots' columns unused, not wrong); not the rest of ranking."""
    import hashlib
    import types

    h = hashlib.sha256()
    seen: set[int] = set()
    todo: list[Any] = [facts_columns]

    def stable(x) -> str:  # a set's repr is in hash order, which differs between processes
        if isinstance(x, (set, frozenset)):
            return "{" + ",".join(sorted(stable(y) for y in x)) + "}"
        if isinstance(x, dict):
            return "{" + ",".join(sorted(f"{stable(k)}:{stable(v)}" for k, v in x.items())) + "}"
        if isinstance(x, (tuple, list)):
            return "(" + ",".join(stable(y) for y in x) + ")"
        return repr(x)

    def code(c: types.CodeType, glob: dict) -> None:
        h.update(c.co_code + repr(c.co_names).encode())
        for const in c.co_consts:
            if isinstance(const, types.CodeType):
                code(const, glob)
            else:
                h.update(stable(const).encode())
        todo.extend(glob[n] for n in c.co_names if n in glob)

    while todo:
        x = todo.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        x = getattr(x, "__wrapped__", x)  # a cached function (norm_ident): the function
        if isinstance(x, types.FunctionType) and x.__module__.startswith("repomem."):
            code(x.__code__, x.__globals__)
        elif isinstance(x, re.Pattern):
            h.update(f"{x.pattern!r}/{x.flags}".encode())
        elif isinstance(x, (str, int, frozenset, set, tuple, dict)):  # the constants it reads
            h.update(stable(x).encode())
    return h.hexdigest()[:16]


_RUNTIME, _PARAMETER = stored_pair("runtime"), stored_pair("parameter")
