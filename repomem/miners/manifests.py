"""Manifests of Go and Rust projects, and package.json's ``engines`` besides Node.

Keyed like Python's and npm's dependencies (deps.py, docs/facts.md), scoped by the manifest's
directory: ``dependency:<eco>:<project>:<group>:<name>``.

* ``go.mod`` (eco ``go``): each ``require`` -> group ``main`` (``// indirect`` ones: ``indirect``),
  value the version; the ``go`` and ``toolchain`` directives -> group ``engines`` (``go``,
  ``toolchain``); the ``module`` directive, the project's own module path, is a setting keyed by
  file: ``config:<path>:module``.  Parsed by hand: the format is a few line-oriented directives.
* ``Cargo.toml`` (eco ``cargo``): ``[dependencies]`` -> ``main``, ``[dev-dependencies]`` -> ``dev``,
  ``[build-dependencies]`` -> ``build``, ``[workspace.dependencies]`` -> ``workspace``, a
  ``[target.<cfg>.*]`` table -> the group above plus ``@<cfg>``; the value is the version
  requirement (``path:<dir>``, ``git:<url>`` or ``workspace`` when there is none), features and
  ``optional`` in attrs; ``package.rust-version`` -> ``engines:rust``.
* ``package.json`` (eco ``npm``): ``engines`` entries other than ``node`` (deps.py states that
  one) -> ``engines:<name>`` (``npm``, ``yarn``, ``pnpm``, ``vscode``).
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable

from repomem.core.model import DEPENDENCY, Fact, file_setting
from repomem.miners._base import MineError
from repomem.miners._scope import project_of
from repomem.miners._text import find_after, line_of, locate, path_words, source_line, sub_table

_CARGO_GROUPS = {"dependencies": "main", "dev-dependencies": "dev", "build-dependencies": "build"}
_GO_REQUIRE = re.compile(r"^\s*([^\s()]+)\s+(v[^\s]+)\s*(//.*)?$")
_GO_DIRECTIVE = re.compile(r"^\s*(go|toolchain)\s+(\S+)\s*(//.*)?$")
_GO_MODULE = re.compile(r'^module\s+(?:"([^"\s]+)"|`([^`\s]+)`|([^\s"`/][^\s"`]*))\s*(//.*)?$')


class _Out:
    def __init__(self, path: str, text: str, eco: str):
        self.path, self.text, self.eco = path, text, eco
        self.lines = text.splitlines()
        self.project = project_of(path)
        self.facts: dict[str, Fact] = {}

    def locate(self, *patterns: str) -> int:
        return locate(self.text, *patterns)

    def dep(self, group: str, name: str, value: str, line: int, attrs=(), what: str = "package",
            text: str | None = None) -> None:
        text = source_line(self.lines, line) if text is None else text
        where = "" if self.project == "." else f" of {self.project}"
        inputs = (self.eco, self.path, group, name, value, line, tuple(attrs), what, text)
        fact = made(_MADE, inputs, lambda: Fact(
            key=f"dependency:{self.eco}:{self.project}:{group}:{name.lower()}", kind=DEPENDENCY,
            subject=f"{name} dependency ({self.eco}, {group})", value=value, path=self.path, line=line,
            text=text, attrs=tuple(sorted([*attrs, ("group", group), ("project", self.project)])),
            purpose=f"{name} {what} dependency version requirement ({group}, {self.eco}){where}"))
        self.facts[fact.key] = fact


# A manifest's next version states mostly the same dependencies on the same lines: each fact is
# kept by what it is made of (a Fact is immutable) and made again only when that changes.
# Cleared when full (a few MB).
_MADE: dict[tuple, Fact] = {}
MADE_MAX = 20_000


def made(memo: dict[tuple, Fact], inputs: tuple, build: Callable[[], Fact]) -> Fact:
    """The fact MEMO keeps for INPUTS (everything it is made of), else BUILD's, then kept;
    MEMO is cleared when full."""
    fact = memo.get(inputs)
    if fact is None:
        if len(memo) >= MADE_MAX:
            memo.clear()
        fact = memo[inputs] = build()
    return fact


def _go_mod(o: _Out) -> None:
    block = None
    for i, raw in enumerate(o.lines, 1):
        line = raw.strip()
        if block is not None:
            if line.startswith(")"):
                block = None
            elif block == "require":
                _go_require(o, line, i)
            continue
        if re.match(r"^require\s*\($", line):
            block = "require"
        elif re.match(r"^\w+\s*\($", line):
            block = "other"  # replace ( ... ), exclude ( ... ), retract ( ... )
        elif line.startswith("require "):
            _go_require(o, line[len("require "):], i)
        elif (m := _GO_MODULE.match(line)) is not None:
            _go_module(o, m.group(1) or m.group(2) or m.group(3), i)
        elif (m := _GO_DIRECTIVE.match(line)) is not None:
            what = "Go language" if m.group(1) == "go" else "Go toolchain"
            o.dep("engines", m.group(1), m.group(2), i, what=what)


_GO_SETTINGS: dict[tuple, Fact] = {}


def _go_module(o: _Out, module: str, i: int) -> None:
    """The module's own path (what its packages are imported as): a setting of the file."""
    text = source_line(o.lines, i)
    fact = made(_GO_SETTINGS, (o.path, module, i, text), lambda: file_setting(
        o.path, "module", module, i, text,
        f"module path - the Go module's own import path, its name ({path_words(o.path)}, go)"))
    o.facts[fact.key] = fact


def _go_require(o: _Out, line: str, i: int) -> None:
    m = _GO_REQUIRE.match(line)
    if m is None:
        return
    indirect = bool(m.group(3)) and "indirect" in m.group(3)
    o.dep("indirect" if indirect else "main", m.group(1), m.group(2), i, what="Go module")


def _cargo(o: _Out) -> None:
    try:
        data = tomllib.loads(o.text)
    except tomllib.TOMLDecodeError as e:
        raise MineError(f"TOML: {e}") from None
    pkg = sub_table(data, "package")
    ws = sub_table(data, "workspace")
    for table in (pkg, sub_table(ws, "package")):
        rv = table.get("rust-version")
        if isinstance(rv, str):
            o.dep("engines", "rust", rv, o.locate(r"^\s*rust-version\s*="), what="Rust toolchain")
            break
    for field, group in _CARGO_GROUPS.items():
        _cargo_table(o, data.get(field), group, rf"^\[{field}\]")
    if isinstance(ws.get("dependencies"), dict):
        _cargo_table(o, ws["dependencies"], "workspace", r"^\[workspace\.dependencies\]")
    for cfg, tables in (data.get("target") or {}).items() if isinstance(data.get("target"), dict) else ():
        for field, group in _CARGO_GROUPS.items():
            if isinstance(tables, dict):
                _cargo_table(o, tables.get(field), f"{group}@{cfg}", rf"^\[target\..*\.{field}\]")


def _cargo_table(o: _Out, deps, group: str, header: str) -> None:
    for name, spec in deps.items() if isinstance(deps, dict) else ():
        attrs = []
        if isinstance(spec, str):
            value = spec
        elif isinstance(spec, dict):
            if spec.get("workspace") is True:
                value = "workspace"
            elif isinstance(spec.get("version"), str):
                value = spec["version"]
            elif isinstance(spec.get("path"), str):
                value = f"path:{spec['path']}"
            elif isinstance(spec.get("git"), str):
                value = f"git:{spec['git']}"
                ref = next((spec[k] for k in ("rev", "tag", "branch") if isinstance(spec.get(k), str)), None)
                value += f"#{ref}" if ref else ""
            else:
                continue
            if isinstance(spec.get("features"), list):
                attrs.append(("features", ",".join(sorted(map(str, spec["features"])))))
            if spec.get("optional") is True:
                attrs.append(("optional", "true"))
        else:
            continue
        # [dependencies.tokio]: the crate's own table; else its line under the group's header
        own = find_after(o.text, header[:-2] + r"\." + re.escape(name) + r"\s*\]")
        line = line_of(o.text, own) if own >= 0 else o.locate(header, rf"^\s*{re.escape(name)}\s*=")
        o.dep(group, name, value, line, attrs, what="Rust crate")


def _package_json(o: _Out) -> None:
    try:
        data = json.loads(o.text)
    except (json.JSONDecodeError, RecursionError, ValueError) as e:
        raise MineError(f"JSON: {str(e).splitlines()[0]}") from None
    engines = data.get("engines") if isinstance(data, dict) else None
    for name, rng in engines.items() if isinstance(engines, dict) else ():
        if name != "node" and isinstance(rng, str):  # deps.py states engines.node
            o.dep("engines", name, rng, o.locate(r'"engines"\s*:', rf'"{re.escape(name)}"\s*:'),
                  what="required tool version engines")


_SOURCES = {"go.mod": ("go", _go_mod), "Cargo.toml": ("cargo", _cargo),
            "package.json": ("npm", _package_json)}


class ManifestsMiner:
    name = "manifests"

    def accepts(self, path: str) -> bool:
        parts = path.split("/")
        return parts[-1] in _SOURCES and "node_modules" not in parts and "vendor" not in parts

    def mine(self, path: str, text: str) -> list[Fact]:
        eco, parse = _SOURCES[path.rsplit("/", 1)[-1]]
        out = _Out(path, text, eco)
        parse(out)
        return list(out.facts.values())


MINER = ManifestsMiner()
