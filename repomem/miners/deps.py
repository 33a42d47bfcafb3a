"""Dependency miner: declared dependencies, the required Python, the supported-Python classifiers.

Sources: pyproject.toml (PEP 621, PEP 735 dependency groups, Poetry, uv/PDM dev dependencies),
requirements*.txt and requirements/*.txt, setup.cfg, setup.py (read with ``ast``: literal values
only, nothing is executed) and package.json.  Requirement lines that do not parse are skipped; a
file that does not parse raises MineError.

A dependency's key is ``dependency:{ecosystem}:{project}:{group}:{name}`` (docs/facts.md):

* ``project`` is the directory of the project the manifest belongs to, relative to the repository
  root ("." for the root).  It is the manifest's own directory -- ``examples/celery/requirements.txt``
  is the project ``examples/celery``, ``frontend/package.json`` is ``frontend`` -- except for a
  requirements file kept in a helper directory (``requirements/``, ``docs/``, ``ci/``, ``tests/``,
  ...), which belongs to the directory above it: ``docs/requirements.txt`` is the root project's
  ``docs`` group.
* ``group`` comes from where the requirement is stated: ``main`` for the runtime requirements
  (``[project] dependencies``, ``install_requires``, ``requirements.txt``, npm ``dependencies``),
  an extra's or a PEP 735 / Poetry / PDM group's own name (normalised like a package name),
  ``build`` for ``[build-system] requires`` (beside its config fact), ``dev`` for
  ``requirements-dev.txt``, ``dev-requirements.txt``, ``devDependencies`` and uv's
  ``dev-dependencies``, ``test`` for ``requirements/tests.txt``, ``docs`` for
  ``docs/requirements.txt``; ``requirements/base.txt`` (the runtime set the others include) is
  ``main``.

The key names no file, so moving a pin from requirements.txt to pyproject.toml in one project is a
move, not a new dependency; when two manifests of one project state the same key, the ledger takes
it from the one ranked first by :func:`repomem.core.model.precedence` (pyproject.toml, setup.cfg,
setup.py, requirements files, then anything else).
"""

from __future__ import annotations

import configparser
import json
import re
import tomllib

from packaging.utils import canonicalize_name

from repomem.core.model import DEPENDENCY, PYTHON, Fact, set_value
from repomem.miners import _setup_py as setup_ast
from repomem.miners._base import MineError
from repomem.miners._scope import group_name, is_requirements, project_of, requirements_group
from repomem.miners._text import locate, source_line, strip_comment, sub_table

_CLASSIFIER = re.compile(r"^Programming Language :: Python :: (\d+\.\d+)$")
_NPM_GROUPS = {"dependencies": "main", "devDependencies": "dev",
               "peerDependencies": "peer", "optionalDependencies": "optional"}



def _one_line(e: Exception) -> str:
    return (str(e).strip().splitlines() or [type(e).__name__])[0]


class _Out:
    """Collects one file's facts; locates lines by searching the text after an anchor offset."""

    def __init__(self, path: str, text: str):
        self.path, self.text, self.lines = path, text, text.splitlines()
        self.facts: dict[str, Fact] = {}
        self.project = project_of(path)

    def locate(self, *patterns: str) -> int:
        return locate(self.text, *patterns)

    def add(self, fact: Fact) -> None:
        old = self.facts.get(fact.key)
        if old is not None and old.value_id() != fact.value_id():
            # the same package twice in one group (split by markers): one fact with both pins,
            # so neither line silently supersedes the other
            attrs = dict(old.attrs)
            for k, v in fact.attrs:
                attrs[k] = f"{attrs[k]} || {v}" if k in attrs and attrs[k] != v else v
            fact = Fact(**{**fact.to_dict(), "attrs": tuple(sorted(attrs.items())),
                           "value": f"{old.value} || {fact.value}", "line": old.line,
                           "text": old.text})
        self.facts[fact.key] = fact

    def dep(self, eco: str, group: str, name: str, value: str, line: int, attrs=()) -> None:
        norm = canonicalize_name(name) if eco == "pypi" else name.lower()
        where = "" if self.project == "." else f" of {self.project}"
        self.add(Fact(
            key=f"dependency:{eco}:{self.project}:{group}:{norm}", kind=DEPENDENCY,
            subject=f"{name} dependency ({eco}, {group})", value=value, path=self.path, line=line,
            text=source_line(self.lines, line),
            attrs=tuple(sorted([*attrs, ("group", group), ("project", self.project)])),
            purpose=f"{name} package dependency version requirement pin ({group}, {eco}){where}"))

    def requirement(self, group: str, spec: str, line: int) -> None:
        """One PEP 508 string; an invalid one is skipped (one bad line must not lose the file)."""
        # packaging's parsers load with the first requirement, not with the module (~20 ms the
        # post-commit path spends only when a commit touches a manifest)
        from packaging.requirements import InvalidRequirement, Requirement

        try:
            req = Requirement(spec.strip())
        except InvalidRequirement:
            return
        value = f"@ {req.url}" if req.url else (str(req.specifier) or "*")
        attrs = []
        if req.extras:
            attrs.append(("extras", ",".join(sorted(req.extras))))
        if req.marker:
            attrs.append(("markers", str(req.marker)))
        self.dep("pypi", group, req.name, value, line, attrs)

    def requires_python(self, spec: str, line: int) -> None:
        from packaging.specifiers import InvalidSpecifier, SpecifierSet

        spec = str(spec).strip()
        try:
            spec = str(SpecifierSet(spec))  # ">= 3.9" and ">=3.9" are the same requirement
        except InvalidSpecifier:
            pass  # Poetry's "^3.9" is kept as written
        # keyed by project, not file: moving the requirement from setup.py to setup.cfg to
        # pyproject.toml is one history (the ledger takes the value from the file ranked first)
        self.add(Fact(key=f"python:requires:{self.project}", kind=PYTHON,
                      subject=f"required Python version ({self.path})", value=spec,
                      path=self.path, line=line, text=source_line(self.lines, line),
                      purpose=f"required minimum Python version requires-python interpreter ({self.path})"))

    def classifiers(self, classifiers, line_of_first) -> None:
        versions = [m.group(1) for c in classifiers if isinstance(c, str)
                    if (m := _CLASSIFIER.match(c.strip()))]
        if not versions:
            return
        line = line_of_first(next(c for c in classifiers if _CLASSIFIER.match(str(c).strip())))
        self.add(Fact(key=f"python:classifiers:{self.project}", kind=PYTHON,
                      subject=f"supported Python versions ({self.path})", value=set_value(versions),
                      path=self.path, line=line, text=source_line(self.lines, line), is_set=True,
                      purpose=f"supported Python versions classifiers ({self.path})"))


def _q(s: str) -> str:
    """Regex for a string as it appears quoted in TOML/JSON/Python source."""
    return r"""["']""" + re.escape(s) + r"""["']"""


def _key(name: str) -> str:
    """Regex for ``name =`` / ``"name" =`` / ``"name":`` at a line start (TOML or JSON)."""
    return r"^\s*[\"']?" + re.escape(name) + r"[\"']?\s*[=:]"


def _pyproject(o: _Out) -> None:
    try:
        data = tomllib.loads(o.text)
    except (tomllib.TOMLDecodeError, ValueError) as e:
        raise MineError(f"TOML: {_one_line(e)}") from None
    project = sub_table(data, "project")
    head = r"^\s*\[project\]"
    for spec in project.get("dependencies") or []:
        if isinstance(spec, str):
            o.requirement("main", spec, o.locate(head, _key("dependencies"), _q(spec)))
    for group, specs in (project.get("optional-dependencies") or {}).items():
        for spec in specs if isinstance(specs, list) else []:
            if isinstance(spec, str):
                o.requirement(group_name(group), spec,
                              o.locate(r"optional-dependencies", _key(group), _q(spec)))
    groups = data.get("dependency-groups")  # PEP 735; {include-group = ...} entries are not pins
    for group, specs in groups.items() if isinstance(groups, dict) else ():
        for spec in specs if isinstance(specs, list) else []:
            if isinstance(spec, str):
                o.requirement(group_name(group), spec,
                              o.locate(r"^\s*\[dependency-groups\]", _key(group), _q(spec)))
    build = sub_table(data, "build-system")  # PEP 518: what building the project needs
    requires = build.get("requires")
    for spec in requires if isinstance(requires, list) else ():
        if isinstance(spec, str):
            o.requirement("build", spec, o.locate(r"^\s*\[build-system\]", _key("requires"), _q(spec)))
    tool = sub_table(data, "tool")
    uv = sub_table(tool, "uv")
    uv_dev = uv.get("dev-dependencies")
    for spec in uv_dev if isinstance(uv_dev, list) else []:
        if isinstance(spec, str):
            o.requirement("dev", spec, o.locate(r"^\s*\[tool\.uv\]", _key("dev-dependencies"), _q(spec)))
    pdm = sub_table(tool, "pdm")
    pdm_dev = pdm.get("dev-dependencies")
    for group, specs in pdm_dev.items() if isinstance(pdm_dev, dict) else ():
        for spec in specs if isinstance(specs, list) else []:
            if isinstance(spec, str):
                o.requirement(group_name(group), spec,
                              o.locate(r"tool\.pdm\.dev-dependencies", _key(group), _q(spec)))
    if isinstance(project.get("requires-python"), str):
        o.requires_python(project["requires-python"], o.locate(head, _key("requires-python")))
    if isinstance(project.get("classifiers"), list):
        o.classifiers(project["classifiers"], lambda c: o.locate(head, _q(c)))
    _flit(o, sub_table(sub_table(tool, "flit"), "metadata"))

    poetry = data.get("tool", {}).get("poetry", {}) if isinstance(data.get("tool"), dict) else {}
    if not isinstance(poetry, dict):
        return
    tables = [("main", "tool.poetry.dependencies", poetry.get("dependencies")),
              ("dev", "tool.poetry.dev-dependencies", poetry.get("dev-dependencies"))]
    poetry_groups = sub_table(poetry, "group")
    for g, table in poetry_groups.items():
        if isinstance(table, dict):
            tables.append((group_name(g), f"tool.poetry.group.{g}.dependencies", table.get("dependencies")))
    for group, header, deps in tables:
        for name, spec in (deps or {}).items() if isinstance(deps, dict) else ():
            line = o.locate(r"^\s*\[" + re.escape(header) + r"\]", _key(name))
            if name.lower() == "python":
                o.requires_python(str(spec), line)
            else:
                _poetry_dep(o, group, name, spec, line)
    if isinstance(poetry.get("classifiers"), list):
        o.classifiers(poetry["classifiers"], lambda c: o.locate(r"tool\.poetry", _q(c)))


def _flit(o: _Out, meta: dict) -> None:
    """flit's metadata table before PEP 621 (``[tool.flit.metadata]``: ``requires``,
    ``requires-extra``, ``requires-python``, ``classifiers``): the same facts as ``[project]``'s,
    under the same keys, so a move to ``[project]`` supersedes them."""
    if not meta:
        return
    head = r"^\s*\[tool\.flit\.metadata\]"
    requires = meta.get("requires")
    for spec in requires if isinstance(requires, list) else []:
        if isinstance(spec, str):
            o.requirement("main", spec, o.locate(head, _key("requires"), _q(spec)))
    extras = meta.get("requires-extra")
    for group, specs in extras.items() if isinstance(extras, dict) else ():
        for spec in specs if isinstance(specs, list) else []:
            if isinstance(spec, str):
                o.requirement(group_name(group), spec, o.locate(r"requires-extra", _key(group), _q(spec)))
    if isinstance(meta.get("requires-python"), str):
        o.requires_python(meta["requires-python"], o.locate(head, _key("requires-python")))
    if isinstance(meta.get("classifiers"), list):
        o.classifiers(meta["classifiers"], lambda c: o.locate(head, _q(c)))


def _poetry_dep(o: _Out, group: str, name: str, spec, line: int) -> None:
    """Poetry specs are kept as written (``^2.0``); a table gives its version or its source."""
    attrs = []
    if isinstance(spec, dict):
        if spec.get("extras"):
            attrs.append(("extras", ",".join(sorted(map(str, spec["extras"])))))
        if spec.get("markers") or spec.get("python"):
            attrs.append(("markers", str(spec.get("markers") or f"python {spec['python']}")))
        src = next((f"{k} {spec[k]}" for k in ("git", "path", "url") if k in spec), None)
        value = str(spec.get("version") or src or "*")
    elif isinstance(spec, list):  # multiple-constraint dependency
        value = " || ".join(str(s.get("version", "*")) if isinstance(s, dict) else str(s) for s in spec)
    else:
        value = str(spec).strip() or "*"
    o.dep("pypi", group, name, value, line, attrs)


# ``-e .``, ``.[extras]``, ``-e file:.#egg=x``: the file installs the project it sits in, so it
# pins that project's development environment (tools and a tested set of its dependencies), not
# what the project requires of its users
_SELF_INSTALL = re.compile(r"^(?:-e\s+|--editable[=\s]+)?(?:file:)?\.(?:/)?(?:\[[^\]]*\])?(?:#.*)?$")


def _requirements(o: _Out) -> None:
    group = requirements_group(o.path)
    if group == "main" and any(_SELF_INSTALL.match(strip_comment(x).strip()) for x in o.lines):
        group = "dev"
    logical, first = "", 0
    for n, raw in enumerate(o.lines, 1):
        line = strip_comment(raw)
        if not logical:
            first = n
        if line.rstrip().endswith("\\"):  # continuation: the requirement starts on `first`
            logical += line.rstrip()[:-1] + " "
            continue
        logical += line
        spec, logical = logical.strip(), ""
        if not spec or spec.startswith("-"):  # -r, -c, -e, --index-url ...: not a requirement
            continue
        spec = re.split(r"\s+--?[A-Za-z]", spec)[0]  # per-requirement options such as --hash
        o.requirement(group, spec, first)


def _setup_cfg(o: _Out) -> None:
    cp = configparser.ConfigParser(interpolation=None, strict=False, allow_no_value=True)
    # keep names as written: configparser documents this override; typeshed types it as a method
    cp.optionxform = str  # type: ignore[assignment,method-assign]
    try:
        cp.read_string(o.text)
    except Exception as e:  # configparser raises more than configparser.Error
        raise MineError(f"INI: {_one_line(e)}") from None

    def items(section, option):
        raw = cp.get(section, option, fallback=None) or ""
        return [s for ln in raw.splitlines() if (s := strip_comment(ln).strip())]

    def at(section, option, item=None):
        pats = [r"^\[" + re.escape(section) + r"\]", r"^" + re.escape(option) + r"\s*[=:]"]
        return o.locate(*pats, *([re.escape(item)] if item else []))

    for spec in items("options", "install_requires"):
        o.requirement("main", spec, at("options", "install_requires", spec))
    if cp.has_section("options.extras_require"):
        for group in cp.options("options.extras_require"):
            for spec in items("options.extras_require", group):
                o.requirement(group_name(group), spec, at("options.extras_require", group, spec))
    if cp.get("options", "python_requires", fallback=None):
        o.requires_python(cp.get("options", "python_requires"), at("options", "python_requires"))
    classifiers = items("metadata", "classifiers")
    o.classifiers(classifiers, lambda c: at("metadata", "classifiers", c))


def _setup_py(o: _Out) -> None:
    try:
        kw = setup_ast.setup_keywords(o.text)
    except SyntaxError as e:
        raise MineError(f"setup.py: {e.msg} (line {e.lineno})") from None
    for spec, line in kw.get("install_requires", []):
        o.requirement("main", spec, line)
    for group, specs in kw.get("extras_require", {}).items():
        for spec, line in specs:
            o.requirement(group_name(group), spec, line)
    if "python_requires" in kw:
        o.requires_python(*kw["python_requires"])
    cls = kw.get("classifiers", [])
    lines = dict(cls)
    o.classifiers([c for c, _ in cls], lambda c: lines[c])


def _package_json(o: _Out) -> None:
    try:
        data = json.loads(o.text)
    except (json.JSONDecodeError, RecursionError, ValueError) as e:
        raise MineError(f"JSON: {_one_line(e)}") from None
    if not isinstance(data, dict):
        return
    for field, group in _NPM_GROUPS.items():
        deps = data.get(field)
        for name, rng in deps.items() if isinstance(deps, dict) else ():
            o.dep("npm", group, name, str(rng), o.locate(_key(field), _key(name)))
    node = data.get("engines", {}).get("node") if isinstance(data.get("engines"), dict) else None
    if isinstance(node, str):
        line = o.locate(_key("engines"), _key("node"))
        o.add(Fact(key=f"dependency:npm:{o.project}:engines:node", kind=DEPENDENCY,
                   subject=f"required Node.js version ({o.path})", value=node, path=o.path,
                   line=line, text=source_line(o.lines, line),
                   attrs=(("group", "engines"), ("project", o.project)),
                   purpose=f"required Node.js version engines node ({o.path})"))


def _source(path: str):
    parts = path.split("/")
    base = parts[-1]
    if "node_modules" in parts:
        return None
    if is_requirements(path):
        return _requirements
    return {"pyproject.toml": _pyproject, "setup.cfg": _setup_cfg, "setup.py": _setup_py,
            "package.json": _package_json}.get(base)


class DepsMiner:
    name = "deps"

    def accepts(self, path: str) -> bool:
        return _source(path) is not None

    def mine(self, path: str, text: str) -> list[Fact]:
        source = _source(path)
        if source is None:
            return []
        out = _Out(path, text)
        source(out)
        return list(out.facts.values())


MINER = DepsMiner()
