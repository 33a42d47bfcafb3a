"""Parse one Python-project file version into facts, with the standard library and maintained
parsers only (ast, tomllib, configparser, json, packaging); never repomem's miners.  Dockerfiles
and compose files: extract_docker.py; package.json and JavaScript: extract_js.py.

Every extractor takes the file's text and returns ``{fact id: value}``; ids are tuples such as
``("dep", "requests")``.  Values are normalised the way the judge compares them: version specs by
``packaging`` (sorted clauses, ``*`` for none), sets as sorted comma-separated text."""

from __future__ import annotations

import ast
import configparser
import json
import re
import tomllib

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

# A name that is assigned but not to a literal (an environment lookup, a call, a conditional
# assignment), or a requirement split by markers: present, so never "removed", but not asked.
NONLITERAL = "<expr>"
_PYVER = re.compile(r"^Programming Language :: Python :: (\d+\.\d+)$")


def spec_text(spec: str) -> str:
    s = str(SpecifierSet(spec.strip())) if spec.strip() not in ("", "*") else ""
    return s or "*"


def version_set(items) -> str:
    return ", ".join(sorted(set(items), key=lambda v: [int(x) for x in v.split(".")]))


def _req(line: str):
    try:
        req = Requirement(line.strip())
    except InvalidRequirement:
        return None
    if req.url:
        return None
    return canonicalize_name(req.name), spec_text(str(req.specifier)), bool(req.marker)


def requirements(text: str) -> dict:
    out = {}
    for raw in text.splitlines():
        line = raw.split(" #")[0].strip()
        if not line or line.startswith(("#", "-")):
            continue
        r = _req(line)
        if r:
            out[("dep", r[0])] = NONLITERAL if r[2] or ("dep", r[0]) in out else r[1]
    return out


def _deps(specs, group: str) -> dict:
    out, seen = {}, set()
    if isinstance(specs, str):  # setup.py extras_require={"x": "pkg==1.*"}
        specs = specs.splitlines()
    for s in specs or []:
        r = _req(str(s))
        if not r:
            continue
        if r[0] in seen or r[2]:  # markers (or two pins split by markers): present, not asked
            out[("dep", group, r[0])] = NONLITERAL
            seen.add(r[0])
            continue
        seen.add(r[0])
        out[("dep", group, r[0])] = r[1]
    return out


def _python(requires, classifiers) -> dict:
    out = {}
    if isinstance(requires, str):
        out[("python-requires",)] = spec_text(requires)
    vers = [m.group(1) for c in classifiers or [] if (m := _PYVER.match(str(c).strip()))]
    if vers:
        out[("classifiers",)] = version_set(vers)
    return out


def pyproject(text: str) -> dict:
    data = tomllib.loads(text)
    proj = data.get("project", {})
    out = _deps(proj.get("dependencies"), "main")
    for extra, specs in (proj.get("optional-dependencies") or {}).items():
        out.update(_deps(specs, "extra:" + extra))
    for group, specs in (data.get("dependency-groups") or {}).items():
        out.update(_deps([s for s in specs if isinstance(s, str)], group))
    out.update(_python(proj.get("requires-python"), proj.get("classifiers")))
    if isinstance(proj.get("version"), str):
        out[("version",)] = proj["version"]
    return out


def setup_cfg(text: str) -> dict:
    cp = configparser.ConfigParser(interpolation=None)
    cp.read_string(text)

    def items(sec, key):
        raw = cp.get(sec, key, fallback="") or ""
        return [x.strip() for x in raw.splitlines() if x.strip()]

    out = _deps(items("options", "install_requires"), "main")
    if cp.has_section("options.extras_require"):
        for extra in cp.options("options.extras_require"):
            out.update(_deps(items("options.extras_require", extra), "extra:" + extra))
    out.update(_python(cp.get("options", "python_requires", fallback=None),
                       items("metadata", "classifiers")))
    return out


def setup_py(text: str) -> dict:
    """Literal keyword arguments of the setup() call (nothing is executed)."""
    tree = ast.parse(text)
    kw = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "setup":
            for k in node.keywords:
                try:
                    kw[k.arg] = ast.literal_eval(k.value)
                except ValueError:
                    pass
    out = _deps(kw.get("install_requires"), "main")
    for extra, specs in (kw.get("extras_require") or {}).items():
        if ":" not in extra:
            out.update(_deps(specs, "extra:" + extra))
    out.update(_python(kw.get("python_requires"), kw.get("classifiers")))
    return out


def fold(node):
    """A literal, with arithmetic on literals folded (``60 * 24 * 8`` -> 11520); else raises."""
    if isinstance(node, ast.BinOp):
        a, b = fold(node.left), fold(node.right)
        ops = {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b,
               ast.FloorDiv: lambda: a // b, ast.Pow: lambda: a ** b}
        if type(node.op) in ops and isinstance(a, (int, float)) and isinstance(b, (int, float)):
            return ops[type(node.op)]()
        raise ValueError("not foldable")
    value = ast.literal_eval(node)
    if isinstance(value, (list, tuple, dict, set)):
        raise ValueError("collections are not asked")
    return value


def scalar(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _assigns(body):
    for st in body:
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
            yield st.targets[0].id, st.value
        elif isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.value is not None:
            yield st.target.id, st.value


def module_constants(text: str) -> dict:
    """Module-level UPPER_CASE names and dunders bound to a literal (others: NONLITERAL, as are
    names assigned inside a module-level if/try block)."""
    out = {}
    body = ast.parse(text).body
    for name, value in _assigns(body):
        if name.isupper() or (name.startswith("__") and name.endswith("__")):
            try:
                out[("const", name)] = scalar(fold(value))
            except (ValueError, TypeError, SyntaxError):
                out[("const", name)] = NONLITERAL
    for node in body:
        if isinstance(node, (ast.If, ast.Try)):
            inner = [n for part in ("body", "orelse", "finalbody") for n in getattr(node, part, [])]
            inner += [n for h in getattr(node, "handlers", []) for n in h.body]
            for name, _ in _assigns(inner):
                if name.isupper():
                    out[("const", name)] = NONLITERAL
    return out


def env_default(node):
    """The literal default of ``os.environ.get('X') or D``, ``os.environ.get('X', D)`` and
    ``int(...)`` around either; else raises."""
    if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("int", "float") and node.args:
        return env_default(node.args[0])
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        return fold(node.values[-1])
    if (isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "get"
            and len(node.args) == 2):
        return fold(node.args[1])
    raise ValueError("no literal default")


def class_settings(text: str) -> dict:
    """UPPER_CASE class attributes, per class: ("setting", Class, NAME) bound to a literal (lists
    of scalars as sets), ("setting-default", Class, NAME) for an environment lookup's default."""
    out = {}
    for node in ast.parse(text).body:
        if isinstance(node, ast.ClassDef):
            for name, value in _assigns(node.body):
                if not name.isupper():
                    continue
                try:
                    out[("setting", node.name, name)] = scalar(fold(value))
                    continue
                except (ValueError, TypeError, SyntaxError):
                    pass
                try:
                    items = ast.literal_eval(value)
                    if isinstance(items, list) and all(isinstance(x, str) for x in items):
                        out[("setting", node.name, name)] = json.dumps(sorted(items))
                        continue
                except (ValueError, TypeError, SyntaxError):
                    pass
                try:
                    out[("setting-default", node.name, name)] = scalar(env_default(value))
                except (ValueError, TypeError, SyntaxError):
                    out[("setting", node.name, name)] = NONLITERAL
    return out


def functions(text: str) -> dict:
    """Module functions and methods: ("def", qualname) -> first docstring line ("" if none)."""
    out = {}

    def walk(body, prefix):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                out[("def", prefix + node.name)] = first_sentence(ast.get_docstring(node) or "")
            elif isinstance(node, ast.ClassDef) and not prefix:
                walk(node.body, node.name + ".")
            elif isinstance(node, (ast.If, ast.Try)):
                walk(node.body, prefix)
    walk(ast.parse(text).body, "")
    return out


def first_sentence(doc: str) -> str:
    """The docstring's first paragraph, cut at its first sentence end."""
    para = " ".join(doc.strip().split("\n\n")[0].split())
    m = re.search(r"(?<=[a-z0-9`)\]])[.!?](\s|$)", para)
    return para[:m.start()] if m else para


def body_fingerprints(text: str) -> dict:
    """qualname (``class:Name`` for a class) -> ast dump of the body (docstring included), to
    recognise a renamed function or class."""
    out = {}

    def walk(body, prefix):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                out[prefix + node.name] = ast.dump(ast.Module(body=node.body, type_ignores=[]))
            elif isinstance(node, ast.ClassDef) and not prefix:
                out["class:" + node.name] = ast.dump(ast.Module(body=node.body, type_ignores=[]))
                walk(node.body, node.name + ".")
    walk(ast.parse(text).body, "")
    return out


def _route_args(dec):
    """('/path', [methods]) of an ``@x.route('/path', methods=[...])`` decorator, else None."""
    if not (isinstance(dec, ast.Call) and isinstance(dec.func, ast.Attribute)):
        return None
    verb = dec.func.attr
    if verb not in ("route", "get", "post", "put", "delete", "patch") or not dec.args:
        return None
    try:
        path = ast.literal_eval(dec.args[0])
    except ValueError:
        return None
    methods = ["GET"] if verb == "route" else [verb.upper()]
    for k in dec.keywords:
        if k.arg == "methods":
            methods = [m.upper() for m in ast.literal_eval(k.value)]
    return path, methods


def routes(text: str, prefix: str = "") -> dict:
    """("route", handler, n) -> 'METHOD[,METHOD] /prefix/path' for decorated handlers."""
    out = {}
    for node in ast.parse(text).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            n = 0
            for dec in node.decorator_list:
                r = _route_args(dec)
                if r:
                    n += 1
                    path = (prefix.rstrip("/") + r[0]) if prefix else r[0]
                    out[("route", node.name, n)] = f"{','.join(sorted(r[1]))} {path}"
    return out


def blueprint_prefixes(text: str) -> dict:
    """register_blueprint(name_bp, url_prefix='/x') -> {"name_bp": "/x"} (literal prefixes)."""
    out = {}
    for node in ast.walk(ast.parse(text)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "register_blueprint" and node.args
                and isinstance(node.args[0], ast.Name)):
            pre = ""
            for k in node.keywords:
                if k.arg == "url_prefix":
                    pre = ast.literal_eval(k.value)
            out[node.args[0].id] = pre
    return out
