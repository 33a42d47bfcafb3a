"""Python miner: functions, methods, API routes, module-level constants and settings, via tree-sitter.

tree-sitter (rather than :mod:`ast`) because it reads code for any Python version without caring
which interpreter runs repomem, and it reports exact rows for every token.

Constants are module-level UPPER_CASE names and dunders (``__version__``) bound to a literal, a
folded literal arithmetic expression or an environment lookup with a default (see _pyvalues); a
module-level dict that is not wholly literal (Django's ``DATABASES``) gives one constant per
literal leaf (``DATABASES.default.ENGINE``).  Settings are the class-level attributes of
settings-like classes (``config:<path>:<Class>.<NAME>``).
"""

from __future__ import annotations

import ast
import re

from repomem.miners import MineError
from repomem.miners._pyroutes import Wiring
from repomem.miners._pyvalues import UPPER, setting_value, settings_kind
from repomem.model import CONFIG, CONSTANT, FUNCTION, ROUTE, Fact

ROUTE_VERBS = {"get", "post", "put", "delete", "patch", "head", "options", "websocket", "route", "api_route"}
ROUTE_PURPOSE_SUFFIX = " (HTTP endpoint / API route / URL path)"
CONSTANT_NAME = re.compile(r"^_?[A-Z][A-Z0-9_]*$|^__[a-z][a-z0-9_]*__$")
NOT_CONSTANTS = {"__all__", "__slots__", "__path__", "__doc__", "__name__", "__package__"}
MAX_LEAVES = 200  # dict leaves of one setting: a data table is not a setting
MAX_TEXT_LINES = 4
_WORDS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_WS = re.compile(r"\s+")

_PARSER = None  # built on first use: loading the grammar costs time callers that never mine .py skip


def _parser():
    global _PARSER
    if _PARSER is None:
        import tree_sitter
        import tree_sitter_python

        _PARSER = tree_sitter.Parser(tree_sitter.Language(tree_sitter_python.language()))
    return _PARSER


def _collapse(s: str) -> str:
    return _WS.sub(" ", s).strip()


def _words(name: str) -> list[str]:
    return [w.lower() for w in _WORDS.findall(name)]


class _Source:
    """The file's bytes (tree-sitter offsets are byte offsets) and its lines for provenance text."""

    def __init__(self, text: str):
        self.data = text.encode("utf-8", "surrogatepass")
        # tree-sitter counts rows by "\n", so a CRLF file keeps the same rows; drop the "\r".
        self.lines = [ln.rstrip("\r") for ln in text.split("\n")]

    def text(self, node) -> str:
        return self.data[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def rows(self, first: int, last: int) -> str:
        return "\n".join(self.lines[first : last + 1])


def _first_error_line(node) -> int:
    """1-based row of the earliest ERROR/MISSING node; only subtrees that contain one are visited."""
    best = None
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == "ERROR" or n.is_missing:
            row = n.start_point[0]
            best = row if best is None else min(best, row)
            continue
        stack.extend(c for c in n.children if c.has_error or c.is_missing)
    return (best or 0) + 1


# ----------------------------------------------------------------------------- literals


def _string_value(src: _Source, node) -> str | None:
    """A plain (non-f) string literal's content, or None."""
    if node.type == "concatenated_string":
        parts = [_string_value(src, c) for c in node.named_children if c.type != "comment"]
        return None if any(p is None for p in parts) else "".join(parts)
    if node.type != "string" or any(c.type == "interpolation" for c in node.children):
        return None
    raw = src.text(node)
    prefix = raw[: len(raw) - len(raw.lstrip("rRbBuUfF"))]
    if "f" in prefix.lower():  # an f-string without placeholders is still not a literal to us
        return None
    try:
        value = ast.literal_eval(raw)
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, str) else raw


def _render_literal(src: _Source, node) -> str | None:
    """Canonical one-line text of a literal, or None when ``node`` is not a pure literal.

    Rebuilt from the parts rather than copied, so comments and line breaks inside a multi-line
    list never leak into the value (a reformat must not look like a new version).
    """
    t = node.type
    if t in ("integer", "float", "true", "false", "none"):
        return src.text(node)
    if t in ("string", "concatenated_string"):
        return src.text(node) if _string_value(src, node) is not None else None
    if t == "unary_operator":
        op, arg = node.children[0].type, node.child_by_field_name("argument")
        if op in ("-", "+") and arg is not None and arg.type in ("integer", "float"):
            return op + src.text(arg)
        return None
    items = [c for c in node.named_children if c.type != "comment"]
    if t == "dictionary":
        out = []
        for pair in items:
            if pair.type != "pair":
                return None
            k = _render_literal(src, pair.child_by_field_name("key"))
            v = _render_literal(src, pair.child_by_field_name("value"))
            if k is None or v is None:
                return None
            out.append(f"{k}: {v}")
        return "{" + ", ".join(out) + "}"
    if t in ("list", "tuple", "set"):
        parts = [_render_literal(src, c) for c in items]
        if any(p is None for p in parts):
            return None
        body = ", ".join(parts) + ("," if t == "tuple" and len(parts) == 1 else "")
        return {"list": "[{}]", "tuple": "({})", "set": "{{{}}}"}[t].format(body)
    return None


def _comment_text(src: _Source, node) -> str:
    return src.text(node).lstrip("#").strip()


def _purpose(src: _Source, siblings, i: int, name: str) -> str:
    """Words of the name, the statement's trailing comment, and a comment line just above it."""
    stmt = siblings[i]
    first, last = stmt.start_point[0], stmt.end_point[0]
    purpose = [" ".join(_words(name))]
    nxt = siblings[i + 1] if i + 1 < len(siblings) else None
    if nxt is not None and nxt.type == "comment" and nxt.start_point[0] == last:
        purpose.append(_comment_text(src, nxt))
    prev = siblings[i - 1] if i > 0 else None
    if prev is not None and prev.type == "comment" and prev.end_point[0] == first - 1:
        # ...but not a trailing comment of the statement above, which belongs to that one
        before = siblings[i - 2] if i > 1 else None
        if before is None or before.end_point[0] != prev.start_point[0]:
            purpose.append(_comment_text(src, prev))
    return " - ".join(p for p in purpose if p)


def _assignments(src: _Source, block):
    """Yield (index among block's children, statement, name, value node) of ``NAME = value`` and
    ``NAME: type = value`` statements directly in ``block``."""
    children = block.children
    for i, stmt in enumerate(children):
        if stmt.type != "expression_statement" or stmt.named_child_count != 1:
            continue
        asg = stmt.named_children[0]
        if asg.type != "assignment":
            continue
        left, right = asg.child_by_field_name("left"), asg.child_by_field_name("right")
        if left is None or right is None or left.type != "identifier":
            continue
        yield i, stmt, src.text(left), right


def _leaves(src: _Source, node, dotted: str):
    """(dotted key, literal leaf node) of a dict display whose keys are strings, depth first."""
    for pair in node.named_children:
        if pair.type != "pair":
            continue
        k = _string_value(src, pair.child_by_field_name("key"))
        v = pair.child_by_field_name("value")
        if k is None or v is None:
            continue
        if v.type == "dictionary" and _render_literal(src, v) is None:
            yield from _leaves(src, v, f"{dotted}.{k}")
        else:
            yield f"{dotted}.{k}", v


def _value_facts(src: _Source, block, path: str, kind: str, scope: str, accept) -> list[Fact]:
    """Facts of the assignments in one block (a module or a class body) whose names pass accept."""
    facts = []
    children = block.children
    prefix = f"{scope}." if scope else ""
    for i, stmt, name, right in _assignments(src, block):
        if not accept(name):
            continue
        first, last = stmt.start_point[0], stmt.end_point[0]
        text = src.rows(first, min(last, first + MAX_TEXT_LINES - 1))
        purpose = _purpose(src, children, i, name)
        if right.type == "dictionary" and _render_literal(src, right) is None:
            items = list(_leaves(src, right, name))[:MAX_LEAVES]
        else:
            items = [(name, right)]
        for dotted, node in items:
            got = setting_value(src, node, _render_literal, _string_value)
            if got is None:
                continue
            value, attrs = got
            line = node.start_point[0] if dotted != name else first
            facts.append(Fact(
                key=f"{kind}:{path}:{prefix}{dotted}", kind=kind, subject=f"{prefix}{dotted} in {path}",
                value=value, attrs=attrs, path=path, line=line + 1,
                text=text if dotted == name else src.lines[line].strip(),
                purpose=purpose if dotted == name else f"{' '.join(_words(dotted))} - {purpose}"))
    return facts


def _is_constant(name: str) -> bool:
    return bool(CONSTANT_NAME.match(name)) and name not in NOT_CONSTANTS


def _settings(src: _Source, root, path: str) -> list[Fact]:
    """Class-level attributes of the module's settings-like classes."""
    facts, config_classes = [], set()
    for child in root.named_children:
        decorators, cls = [], child
        if child.type == "decorated_definition":
            decorators = [c for c in child.named_children if c.type == "decorator"]
            cls = child.child_by_field_name("definition")
        if cls is None or cls.type != "class_definition":
            continue
        kind = settings_kind(src, cls, decorators, config_classes)
        body = cls.child_by_field_name("body")
        if kind is None or body is None:
            continue
        name = src.text(cls.child_by_field_name("name"))
        config_classes.add(name)
        if kind == "upper":
            accept = UPPER.match
        else:
            def accept(n):
                return not n.startswith("_") and n not in ("model_config", "Config")
        facts += _value_facts(src, body, path, CONFIG, name, accept)
    return facts


# ----------------------------------------------------------------------------- functions


def _defs(node, scope: list[str]):
    """Yield (decorators, function_definition, class qualname or "") for module and class bodies.

    Compound statements (``if TYPE_CHECKING:``, ``try/except ImportError``) are looked into because
    their defs are still module/class level; function bodies are not (nested helpers are private).
    """
    for child in node.named_children:
        decorators, inner = [], child
        if child.type == "decorated_definition":
            decorators = [c for c in child.named_children if c.type == "decorator"]
            inner = child.child_by_field_name("definition")
        if inner is None:
            continue
        if inner.type == "function_definition":
            yield decorators, inner, ".".join(scope)
        elif inner.type == "class_definition":
            name = inner.child_by_field_name("name")
            body = inner.child_by_field_name("body")
            if name is not None and body is not None:
                yield from _defs(body, scope + [name.text.decode("utf-8", "replace")])
        elif inner.type in ("if_statement", "try_statement", "with_statement", "else_clause",
                            "elif_clause", "except_clause", "finally_clause", "block"):
            yield from _defs(inner, scope)


def _docstring(src: _Source, body) -> tuple[object, str | None]:
    """The docstring statement node (to leave out of the fingerprint) and its first line."""
    stmts = [c for c in body.named_children if c.type != "comment"]
    if not stmts or stmts[0].type != "expression_statement" or stmts[0].named_child_count != 1:
        return None, None
    s = _string_value(src, stmts[0].named_children[0])
    if s is None:
        return None, None
    first = next((ln.strip() for ln in s.splitlines() if ln.strip()), "")
    return stmts[0], first


def _params(src: _Source, params) -> tuple[str, list[str]]:
    """One-line parameter text (comments and trailing comma dropped) and the parameter names."""
    parts, names = [], []
    for p in params.named_children:
        if p.type == "comment":
            continue
        parts.append(_collapse(src.text(p)))
        ident = p if p.type == "identifier" else next(
            (c for c in p.named_children if c.type == "identifier"), None)
        if ident is not None:
            n = src.text(ident)
            if n not in ("self", "cls"):  # the receiver says nothing about what a method does
                names.append(n)
    return ", ".join(parts), names


def _fingerprint(src: _Source, body, skip, name: str) -> str:
    """Body tokens minus docstring and comments; the function's own name becomes ``_SELF_``."""
    tokens: list[str] = []
    stack = [body]
    while stack:
        n = stack.pop()
        if n.type == "comment" or (skip is not None and n == skip):
            continue
        if n.child_count == 0 or (n.type == "string" and not any(
                c.type == "interpolation" for c in n.children)):
            # a plain string is one token: splitting it would make its words look like code
            tok = _collapse(src.text(n))
            if tok:
                tokens.append("_SELF_" if n.type == "identifier" and tok == name else tok)
            continue
        stack.extend(reversed(n.children))
    return " ".join(tokens)


def _route(src: _Source, decorator) -> tuple[str, str, object] | None:
    """(method, path, the router object node) for a route decorator, else None."""
    call = decorator.named_children[0] if decorator.named_child_count else None
    if call is None or call.type != "call":
        return None
    func, args = call.child_by_field_name("function"), call.child_by_field_name("arguments")
    if func is None or func.type != "attribute" or args is None or args.type != "argument_list":
        return None
    verb = src.text(func.child_by_field_name("attribute"))
    if verb not in ROUTE_VERBS:
        return None
    url, methods = None, None
    positional = [a for a in args.named_children if a.type not in ("keyword_argument", "comment")]
    if positional:
        url = _string_value(src, positional[0])
    for kw in (a for a in args.named_children if a.type == "keyword_argument"):
        key, val = src.text(kw.child_by_field_name("name")), kw.child_by_field_name("value")
        if key in ("path", "rule") and url is None:
            url = _string_value(src, val)
        elif key == "methods" and val.type in ("list", "tuple", "set"):
            ms = [_string_value(src, c) for c in val.named_children if c.type != "comment"]
            methods = ",".join(dict.fromkeys(m.upper() for m in ms if m))
    if url is None:
        return None
    if verb in ("route", "api_route"):
        method = methods or "GET"
    else:
        method = verb.upper()
    return method, url, func.child_by_field_name("object")


def _describe(name: str, param_names: list[str], returns: str) -> str:
    out = " ".join(_words(name)) or name
    if param_names:
        out += f" ({', '.join(param_names)})"
    if returns:
        out += f" returns {returns}"
    return out


def _function_facts(src: _Source, path: str, decorators, fn, cls: str, wiring: Wiring) -> list[Fact]:
    name = src.text(fn.child_by_field_name("name"))
    qualname = f"{cls}.{name}" if cls else name
    anchor = f"{path}::{qualname}"
    params_node, body = fn.child_by_field_name("parameters"), fn.child_by_field_name("body")
    ret_node = fn.child_by_field_name("return_type")
    params, param_names = _params(src, params_node)
    returns = _collapse(src.text(ret_node)) if ret_node is not None else ""
    is_async = fn.children[0].type == "async"
    signature = f"{'async ' if is_async else ''}def {name}({params})" + (f" -> {returns}" if returns else "")
    doc_node, doc = _docstring(src, body)
    purpose = doc or _describe(name, param_names, returns)

    # provenance text: the def line(s) up to the colon first, then as many decorator lines as fit
    def_row = fn.start_point[0]
    colon = next(c for c in fn.children if c.type == ":")
    def_rows = list(range(def_row, colon.start_point[0] + 1))[:MAX_TEXT_LINES]
    start = def_row
    if decorators:
        start = max(decorators[0].start_point[0], def_row - (MAX_TEXT_LINES - len(def_rows)))
    text = src.rows(start, def_rows[-1])

    facts = [Fact(
        key="function", kind=FUNCTION, anchor=anchor, subject=f"{'method' if cls else 'function'} {qualname}",
        value=name, attrs=(("class", cls), ("location", path), ("signature", signature)),
        path=path, line=def_row + 1, text=text, purpose=purpose,
        fingerprint=_fingerprint(src, body, doc_node, name),
    )]
    n = 0
    for dec in decorators:
        route = _route(src, dec)
        if route is None:
            continue
        value, extra = wiring.route(route[2], route[0], route[1])
        n += 1
        first, last = dec.start_point[0], dec.end_point[0]
        facts.append(Fact(
            key="route" if n == 1 else f"route#{n}", kind=ROUTE, anchor=anchor,
            subject=f"route of {qualname}", value=value, attrs=tuple(sorted((("handler", name), *extra))),
            path=path,
            line=first + 1, text=src.rows(first, min(last, first + MAX_TEXT_LINES - 1)),
            purpose=purpose + ROUTE_PURPOSE_SUFFIX,
        ))
    return facts


def _extends_property(src: _Source, decorators) -> bool:
    return any(re.search(r"\.(setter|deleter)\s*$", src.text(d)) for d in decorators)


class PythonMiner:
    name = "python"

    def accepts(self, path: str) -> bool:
        return path.endswith(".py")

    def mine(self, path: str, text: str) -> list[Fact]:
        if not text.strip():
            return []
        src = _Source(text)
        tree = _parser().parse(src.data)
        root = tree.root_node
        if root.has_error:
            raise MineError(f"syntax error near line {_first_error_line(root)}")
        # One fact per anchor: a later def of the same name replaces the earlier one, as at
        # runtime (overload stubs, conditional fallbacks) -- except a property's setter/deleter,
        # which extends the getter rather than replacing it.
        by_anchor: dict[str, list[Fact]] = {}
        wiring = Wiring(src, root, path, _string_value)
        for decorators, fn, cls in _defs(root, []):
            facts = _function_facts(src, path, decorators, fn, cls, wiring)
            if facts[0].anchor in by_anchor and _extends_property(src, decorators):
                continue
            by_anchor.pop(facts[0].anchor, None)
            by_anchor[facts[0].anchor] = facts
        out = [f for facts in by_anchor.values() for f in facts]
        return (out + _value_facts(src, root, path, CONSTANT, "", _is_constant)
                + _settings(src, root, path) + wiring.facts)


MINER = PythonMiner()
