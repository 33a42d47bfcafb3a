"""Parse one file version of the Go, Rust and JVM histories (and two Python shapes: a class's
``__init__`` defaults and typer option declarations) into facts, with the standard library and
narrow regular expressions only; never repomem's miners.

- ``Cargo.toml`` with ``tomllib``; ``go.mod``, Gradle build files, Go/Rust/Java constants and
  routes with regular expressions over the line-oriented shapes they have;
- ``pom.xml`` with ``xml.etree`` (``${...}`` resolved from ``<properties>`` and the project's
  own version); ``*.properties`` with ``configparser`` under a dummy section (``=`` and ``:``
  both divide, the first one wins, as in ``java.util.Properties``);
- Python with ``ast`` (literal arithmetic folded, as ``extract.fold`` does).

Every extractor takes the file's text and returns ``{fact id: value}`` (extract.py's contract)."""

from __future__ import annotations

import ast
import configparser
import re
import tomllib
import xml.etree.ElementTree as ET
from typing import TypeGuard

from bench.realtruth.extract import NONLITERAL, fold, scalar

# ------------------------------------------------------------------------------------ manifests

_CARGO_GROUPS = {"dependencies": "main", "dev-dependencies": "dev", "build-dependencies": "build"}


def cargo_toml(text: str) -> dict:
    """("dep", main|dev|build, crate) -> the version requirement as written; ("version",)."""
    data = tomllib.loads(text)
    out: dict = {}
    for table, group in _CARGO_GROUPS.items():
        for name, spec in (data.get(table) or {}).items():
            if isinstance(spec, str):
                out[("dep", group, name)] = spec
            elif isinstance(spec, dict) and isinstance(spec.get("version"), str):
                out[("dep", group, name)] = spec["version"]
            else:
                out[("dep", group, name)] = NONLITERAL
    version = (data.get("package") or {}).get("version")
    if isinstance(version, str):
        out[("version",)] = version
    return out


_GO_REQ = re.compile(r"^\s*([^\s()]+)\s+(v\S+)\s*(//.*)?$")


def go_mod(text: str) -> dict:
    """("dep", main|indirect, module) -> version; ("dep", "engines", "go") -> the go directive."""
    out: dict = {}
    block = None
    for raw in text.splitlines():
        line = raw.strip()
        if block:
            if line.startswith(")"):
                block = None
            elif block == "require" and (m := _GO_REQ.match(line)):
                indirect = bool(m.group(3)) and "indirect" in m.group(3)
                out[("dep", "indirect" if indirect else "main", m.group(1))] = m.group(2)
            continue
        if re.match(r"^require\s*\($", line):
            block = "require"
        elif re.match(r"^\w+\s*\($", line):
            block = "other"
        elif line.startswith("require ") and (m := _GO_REQ.match(line[8:])):
            indirect = bool(m.group(3)) and "indirect" in m.group(3)
            out[("dep", "indirect" if indirect else "main", m.group(1))] = m.group(2)
        elif m := re.match(r"^go\s+(\S+)$", line):
            out[("dep", "engines", "go")] = m.group(1)
    return out


def _strip_ns(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def pom_xml(text: str) -> dict:
    """("dep", "parent", artifactId) -> the parent's version; ("prop", name) -> each property;
    ("dep", scope, artifactId) -> an explicit dependency version; ("dep", "plugin", artifactId) ->
    a plugin's version.  ``${x}`` is resolved from the properties (unresolvable: not asked)."""
    root = ET.fromstring(text)
    for el in root.iter():
        el.tag = _strip_ns(el.tag)
    props = {p.tag: (p.text or "").strip() for p in root.findall("properties/*")}
    own = (root.findtext("version") or "").strip()

    def resolve(v):
        v = (v or "").strip()
        for _ in range(3):
            m = re.search(r"\$\{([^}]+)\}", v)
            if not m:
                return v
            name = m.group(1)
            sub = own if name in ("project.version", "version") else props.get(name)
            if sub is None:
                return NONLITERAL
            v = v.replace(m.group(0), sub)
        return NONLITERAL
    out: dict = {}
    parent = root.find("parent")
    artifact = parent.findtext("artifactId") if parent is not None else None
    if parent is not None and artifact:
        out[("dep", "parent", artifact.strip())] = resolve(parent.findtext("version"))
    for name, value in props.items():
        out[("prop", name)] = resolve(value)
    for dep in root.findall("dependencies/dependency"):
        art, ver = dep.findtext("artifactId"), dep.findtext("version")
        if art and ver:
            out[("dep", (dep.findtext("scope") or "compile").strip(), art.strip())] = resolve(ver)
    for plugin in root.findall("build/plugins/plugin"):
        art, ver = plugin.findtext("artifactId"), plugin.findtext("version")
        if art and ver:
            out[("dep", "plugin", art.strip())] = resolve(ver)
    return out


# id 'x' version 'y'  |  id("x") version "y"  |  kotlin("jvm") version "y"
_GRADLE_PLUGIN = re.compile(
    r"""^\s*(?:id\s*\(?\s*['"]([^'"]+)['"]\s*\)?|kotlin\s*\(\s*['"]([^'"]+)['"]\s*\))"""
    r"""\s+version\s+['"]([^'"]+)['"]""", re.M)
# implementation 'g:a:v'  |  testImplementation("g:a:v")  (continuation lines: ,\n 'g:a:v')
_GRADLE_DEP = re.compile(
    r"""^\s*(\w+)\s*\(?\s*['"]([\w.\-]+):([\w.\-]+)(?::([^'"@]+))?['"]""", re.M)
_GRADLE_CONT = re.compile(r""",\s*\n\s*['"]([\w.\-]+):([\w.\-]+):([^'"@]+)['"]""")
_GRADLE_JAVA = re.compile(r"""^\s*(sourceCompatibility|targetCompatibility)\s*=\s*['"]?([\w.]+)['"]?""", re.M)
_GRADLE_TOOLCHAIN = re.compile(r"languageVersion\s*(?:=|\.set\()\s*JavaLanguageVersion\.of\(\s*(\d+)\s*\)")
_GRADLE_CONFS = {"implementation", "api", "compile", "runtimeOnly", "runtime", "compileOnly",
                 "annotationProcessor", "testImplementation", "testCompile", "testRuntimeOnly",
                 "developmentOnly", "testAnnotationProcessor", "testCompileOnly"}


def gradle(text: str) -> dict:
    """("dep", "plugin", id) -> its version; ("dep", configuration, artifact) -> an explicit
    version; ("java", sourceCompatibility|targetCompatibility|toolchain) -> the Java version."""
    out: dict = {}
    for m in _GRADLE_PLUGIN.finditer(text):
        pid = m.group(1) or f"org.jetbrains.kotlin.{m.group(2)}"
        out[("dep", "plugin", pid)] = m.group(3)
    for m in _GRADLE_DEP.finditer(text):
        conf, _, art, ver = m.groups()
        if conf in _GRADLE_CONFS and ver:
            out[("dep", conf, art)] = ver
    for m in _GRADLE_CONT.finditer(text):  # a second coordinate of the same configuration
        line_start = text.rfind("\n", 0, m.start()) + 1
        conf = re.match(r"\s*(\w+)", text[line_start:])
        if conf and conf.group(1) in _GRADLE_CONFS:
            out[("dep", conf.group(1), m.group(2))] = m.group(3)
    for m in _GRADLE_JAVA.finditer(text):
        out[("java", m.group(1))] = m.group(2)
    if tool := _GRADLE_TOOLCHAIN.search(text):
        out[("java", "toolchain")] = tool.group(1)
    return out


def properties(text: str) -> dict:
    """("prop", key) -> value of a ``.properties`` file (empty values are not asked)."""
    cp = configparser.ConfigParser(interpolation=None, delimiters=("=", ":"),
                                   comment_prefixes=("#", "!"), strict=False)
    cp.optionxform = str  # type: ignore[method-assign,assignment]  # keys keep their case
    cp.read_string("[properties]\n" + text)
    return {("prop", k): (_unescape(v.strip()) if v.strip() else NONLITERAL) for k, v in cp.items("properties")}


_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|.)")


def _unescape(value: str) -> str:
    """A ``.properties`` value's escapes read as Java reads them (``https\\://`` is ``https://``)."""
    def one(m: re.Match) -> str:
        c = m.group(1)
        if c[0] == "u" and len(c) == 5:
            return chr(int(c[1:], 16))
        return {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}.get(c, c)
    return _ESCAPE.sub(one, value)


# ------------------------------------------------------------------------------------ constants

_STR = r'"((?:[^"\\]|\\.)*)"'
_GO_CONST_ONE = re.compile(r"^const\s+([A-Za-z_]\w*)\s*(?:\w+\s*)?=\s*(.+?)\s*(?://.*)?$")
_GO_CONST_ITEM = re.compile(r"^\s+([A-Za-z_]\w*)\s*(?:[\w.]+\s*)?=\s*(.+?)\s*(?://.*)?$")


def _go_literal(expr: str) -> str:
    m = re.fullmatch(_STR, expr) or re.fullmatch(r"`([^`]*)`", expr)
    if m:
        return m.group(1)
    if re.fullmatch(r"-?\d+(\.\d+)?", expr):
        return expr
    if expr in ("true", "false"):
        return expr
    return NONLITERAL


def go_constants(text: str) -> dict:
    """Top-level ``const X = lit`` and the members of ``const ( ... )`` blocks (``iota``, an
    expression or a typed conversion: NONLITERAL)."""
    out: dict = {}
    block = False
    for line in text.splitlines():
        if block:
            if line.startswith(")"):
                block = False
            elif m := _GO_CONST_ITEM.match(line):
                out[("const", m.group(1))] = _go_literal(m.group(2))
            continue
        if re.match(r"^const\s*\($", line):
            block = True
        elif m := _GO_CONST_ONE.match(line):
            out[("const", m.group(1))] = _go_literal(m.group(2))
    return out


_RUST_CONST = re.compile(r"^(?:pub(?:\([^)]*\))?\s+)?(?:const|static)\s+([A-Z_][A-Z0-9_]*)\s*:\s*[^=]+=\s*(.+?);\s*(?://.*)?$")


def rust_constants(text: str) -> dict:
    """Module-level (unindented) ``const``/``static`` items bound to a literal (``_`` digit
    separators dropped)."""
    out: dict = {}
    for line in text.splitlines():
        if m := _RUST_CONST.match(line):
            expr = m.group(2).strip()
            s = re.fullmatch(_STR, expr)
            if s:
                out[("const", m.group(1))] = s.group(1)
            elif re.fullmatch(r"-?[\d_]+(\.[\d_]+)?", expr):
                out[("const", m.group(1))] = expr.replace("_", "")
            else:
                out[("const", m.group(1))] = NONLITERAL
    return out


_JAVA_CONST = re.compile(r"^\s*(?:(?:public|private|protected)\s+)?static\s+final\s+[\w<>\[\]]+\s+(\w+)\s*=\s*(.+?);")


def java_constants(text: str) -> dict:
    out: dict = {}
    for line in text.splitlines():
        if m := _JAVA_CONST.match(line):
            expr = m.group(2).strip()
            s = re.fullmatch(_STR, expr)
            if s:
                out[("const", m.group(1))] = s.group(1)
            elif re.fullmatch(r"-?\d+L?", expr):
                out[("const", m.group(1))] = expr.rstrip("L")
            else:
                out[("const", m.group(1))] = NONLITERAL
    return out


# ------------------------------------------------------------------------------------ Python

def init_defaults(cls: str):
    """Extractor of a class's ``__init__`` keyword defaults: ("init", CLS, param) -> the
    literal (arithmetic folded; ``None`` as ``None``; anything else NONLITERAL)."""
    def parse(text: str) -> dict:
        out: dict = {}
        for node in ast.parse(text).body:
            if not (isinstance(node, ast.ClassDef) and node.name == cls):
                continue
            for fn in node.body:
                if isinstance(fn, ast.FunctionDef) and fn.name == "__init__":
                    args = fn.args.args + fn.args.kwonlyargs
                    defaults = [None] * (len(fn.args.args) - len(fn.args.defaults)) \
                        + list(fn.args.defaults) + list(fn.args.kw_defaults)
                    for a, d in zip(args, defaults):
                        if d is None or a.arg == "self":
                            continue
                        try:
                            out[("init", cls, a.arg)] = scalar(fold(d))
                        except (ValueError, TypeError, SyntaxError):
                            out[("init", cls, a.arg)] = NONLITERAL
        return out
    return parse


def _is_option(node) -> TypeGuard[ast.Call]:
    return (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", ""))
            == "Option")


def typer_options(text: str) -> dict:
    """("option", function, param) -> the default of a ``typer.Option(...)`` parameter: the
    first positional argument (``param: T = typer.Option(D, ...)``) or, in the ``Annotated``
    style, the parameter's own default; ``...`` (required) and non-literals are not asked."""
    out: dict = {}
    for fn in ast.walk(ast.parse(text)):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        args = fn.args.args + fn.args.kwonlyargs
        defaults = [None] * (len(fn.args.args) - len(fn.args.defaults)) \
            + list(fn.args.defaults) + list(fn.args.kw_defaults)
        for a, d in zip(args, defaults):
            value = None
            if _is_option(d) and d.args:
                value = d.args[0]
            elif d is not None and isinstance(a.annotation, ast.Subscript) \
                    and any(_is_option(x) for x in ast.walk(a.annotation)):
                value = d
            if value is None:
                continue
            try:
                v = fold(value)
                out[("option", fn.name, a.arg)] = NONLITERAL if v is Ellipsis else scalar(v)
            except (ValueError, TypeError, SyntaxError):
                out[("option", fn.name, a.arg)] = NONLITERAL
    return out
