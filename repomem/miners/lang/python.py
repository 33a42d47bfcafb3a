"""Python facts from query captures: functions, methods, classes, API routes, and the values
function bodies state; with constants and settings (miners._pysettings), router wiring
(miners._pyroutes) and Django URLconfs (miners._pyurls), which a query cannot say.

``queries/python.scm`` finds the definitions (``@definition.function``,
``@definition.class``), ``queries/python-options.scm`` CLI options (``@option``: a decorator's
or a parameter default's call) and ``python-middleware.scm`` middleware (``@middleware``) for
miners._pyoptions, ``python-urls.scm`` a Django URLconf's bindings and route calls for
miners._pyurls, and ``queries/python-body.scm`` the values a function's body passes to calls by
name (``@argument``), the one number a call is given (``@number``), a setter's named setting
(``@setter``), binds local names to (``@local``) and binds local constants to (``@constant``),
run per function and remembered by
the function's text.  Constants are module-level UPPER_CASE names and dunders
(``__version__``) bound to a literal, a folded literal arithmetic expression or an environment
lookup with a default (see _pyvalues); a module-level dict that is not wholly literal (Django's
``DATABASES``) gives one constant per literal leaf (``DATABASES.default.ENGINE``).  Settings are
the class-level attributes of settings-like classes (``config:<path>:<Class>.<NAME>``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from typing import cast

from repomem.core.identity import Fingerprint, body_key, class_anchor, remember
from repomem.core.model import CLASS, CONFIG, FUNCTION, ROUTE, Fact, file_setting
from repomem.miners import _arguments as body_values
from repomem.miners._base import MineError
from repomem.miners._pyoptions import middleware_facts, option_facts
from repomem.miners._pyroutes import Wiring
from repomem.miners._pysettings import _expression, constants_and_settings
from repomem.miners._pysource import (
    MAX_TEXT_LINES,
    _collapse,
    _first_error_line,
    _render_literal,
    _Source,
    _string_value,
    _words,
)
from repomem.miners._pyurls import UrlConf
from repomem.miners._pyvalues import fold, setting_value
from repomem.miners._text import body_attrs
from repomem.miners.lang import LANGS, parse, query
from repomem.miners.lang.purpose import describe, docstring_summary

ROUTE_VERBS = {"get", "post", "put", "delete", "patch", "head", "options", "websocket", "route", "api_route"}
ROUTE_PURPOSE_SUFFIX = " (HTTP endpoint / API route / URL path)"
MAX_CLASS_TOKENS = 600  # enough to recognise a class; keeps rename matching cheap
PYTHON = LANGS["python"]


def _query(*names: str):
    return query(PYTHON, *names)


def _body_query():
    return _query("python-body.scm")


# The queries of what a file configures, run only over a file whose text may hold what they find
# (a word every match's callee holds, then a pattern), and there only over the spans around that
# word (see _configuring): their patterns match anywhere, and a pass over every node of the file
# cost more than the definitions' pass.  (query file, words, pattern, whether a match may lie
# inside a function: a CLI option is declared on a module- or class-level function only)
_CONFIG_QUERIES = (("python-options.scm", (b"ption", b"rgument"),
                    re.compile(rb"@\s*(?:click\.|typer\.|cloup\.)?(?:option|argument)\s*\("
                               rb"|=\s*(?:typer\.)?(?:Option|Argument)\s*\("), False),
                   ("python-middleware.scm", (b"iddleware",), re.compile(rb"Middleware\b|add_middleware"), True))
# Occurrences of a word this close together are searched as one span (a query pass per
# occurrence costs a descent from the root; one over a long span visits all of it).
_NEAR = 1024


def _mentions(data: bytes, words: tuple[bytes, ...], pattern: re.Pattern[bytes]) -> bool:
    """Whether the text may hold what a query finds: a word it needs (a substring search, far
    cheaper than the pattern's), then the pattern."""
    return any(w in data for w in words) and pattern.search(data) is not None


def _spans(data: bytes, words: tuple[bytes, ...]) -> list[tuple[int, int]]:
    """The byte spans around every occurrence of WORDS, near ones merged, in order."""
    found = sorted((m.start(), m.end()) for w in words for m in re.finditer(re.escape(w), data))
    spans: list[tuple[int, int]] = []
    for start, end in found:
        if spans and start - spans[-1][1] <= _NEAR:
            spans[-1] = (spans[-1][0], max(end, spans[-1][1]))
        else:
            spans.append((start, end))
    return spans


def _configuring(src: _Source, root, depth: int) -> list[dict]:
    """The matches of the configuration queries (CLI options, middleware) a file may hold: the
    same as a pass over the whole tree, as every match's callee holds one of the query's words
    and a cursor over a span returns the matches that intersect it; a match that intersects two
    spans is kept once."""
    from tree_sitter import QueryCursor

    out: list[dict] = []
    for name, words, pattern, anywhere in _CONFIG_QUERIES:
        if not _mentions(src.data, words, pattern):
            continue
        seen = set()
        for start, end in _spans(src.data, words):
            cursor = QueryCursor(_query(name))
            cursor.set_byte_range(start, end)
            if not anywhere:
                cursor.set_max_start_depth(depth)
            for index, caps in cursor.matches(root):
                key = (index, *((k, *(n.id for n in v)) for k, v in caps.items()))
                if key not in seen:
                    seen.add(key)
                    out.append(caps)
    return out


# ----------------------------------------------------------------------------- definitions

# What may stand between a module and a definition that is a fact: class bodies, and the
# compound statements a module or class runs once (``if TYPE_CHECKING:``, ``try/except
# ImportError``).  A function body hides its nested helpers; a loop's or a match's defs are
# not the module's either.
_OPEN = frozenset({"module", "block", "decorated_definition", "class_definition", "if_statement",
                   "try_statement", "with_statement", "else_clause", "elif_clause", "except_clause",
                   "finally_clause"})


def _definitions(src: _Source, root, path: str, configured: list[dict]) -> list[tuple[list, object, list[str]]]:
    """(decorators, definition, enclosing class names) of every function and class definition
    of module and class bodies, in source order; the captures of what the file configures
    (CLI options, middleware) are added to CONFIGURED, outside tests and migrations."""
    from tree_sitter import QueryCursor

    depth = _fact_depth(root)
    cursor = QueryCursor(_query("python.scm"))
    cursor.set_max_start_depth(depth)
    found = []
    for _, caps in cursor.matches(root):
        d = (caps.get("definition.function") or caps["definition.class"])[0]
        scope = _scope(src, d)
        if scope is not None:
            parent = d.parent
            decorators = [c for c in parent.named_children if c.type == "decorator"] \
                if parent is not None and parent.type == "decorated_definition" else []
            found.append((d.start_byte, decorators, d, scope))
    found.sort(key=lambda f: f[0])
    if body_values.mined_in(path):  # (their facts are not mined in tests)
        configured += _configuring(src, root, depth)
    return [f[1:] for f in found]


def _fact_depth(root) -> int:
    """How deep a definition that is a fact may lie: one below the deepest node the module
    reaches through _OPEN nodes alone.  The query starts no match below it: its pass over every
    node of every function body cost 3-4x this walk and the bounded pass together (the HEAD
    trees of click, typer and uvicorn)."""
    deepest, stack = 0, [(root, 0)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((c, depth + 1) for c in node.children if c.type in _OPEN)
    return deepest + 1


def _configured(src: _Source, path: str, captures: list[dict]) -> list[Fact]:
    """The options of the CLI commands and the middleware a file declares (miners._pyoptions),
    in source order; not in tests."""
    if not captures or not body_values.mined_in(path):
        return []
    facts = []
    for caps in sorted(captures, key=lambda c: (c.get("option") or c["middleware"])[0].start_byte):
        if "middleware" in caps:
            facts += middleware_facts(src, path, caps["middleware"][0], caps["middleware.class"][0])
            continue
        d = caps["option.definition"][0]
        fn = d.child_by_field_name("definition") if d.type == "decorated_definition" else d
        scope = _scope(src, fn)
        if scope is None:
            continue
        function = ".".join([*scope, src.text(caps["option.function"][0])])
        parameter = src.text(caps["option.parameter"][0]) if "option.parameter" in caps else None
        facts += option_facts(src, path, caps["option"][0], function, parameter)
    return facts


def _scope(src: _Source, node) -> list[str] | None:
    """The names of the classes a definition is in, or None when it is not a fact (nested in a
    function, a loop...)."""
    names = []
    p = node.parent
    while p is not None:
        if p.type not in _OPEN:
            return None
        if p.type == "class_definition":
            names.append(src.text(p.child_by_field_name("name")))
        p = p.parent
    return names[::-1]


def _defs(definitions):
    """(decorators, function_definition, class qualname or "")."""
    for decorators, inner, outer in definitions:
        if inner.type == "function_definition":
            yield decorators, inner, ".".join(outer)


def _class_defs(src: _Source, definitions):
    """(decorators, class_definition, qualname)."""
    for decorators, inner, outer in definitions:
        if inner.type == "class_definition":
            yield decorators, inner, ".".join(outer + [src.text(inner.child_by_field_name("name"))])


def _class_facts(src: _Source, path: str, by_anchor: dict[str, list[Fact]], definitions) -> list[Fact]:
    """One ``class`` fact per class: its name is the value, and like a function its identity
    survives renames and moves (the fingerprint is its class-level statements and its methods'
    fingerprints, so a renamed class is recognised by its body)."""
    out = []
    for decorators, cls, qual in _class_defs(src, definitions):
        name = src.text(cls.child_by_field_name("name"))
        body = cls.child_by_field_name("body")
        sup = cls.child_by_field_name("superclasses")
        # one line whatever the layout: (\n    Base[T],\n    Mixin,\n) is "Base[T], Mixin"
        bases = ", ".join(_collapse(src.text(c)) for c in sup.named_children
                          if c.type != "comment") if sup is not None else ""
        doc_node, doc = _docstring(src, body)
        parts = [_collapse(src.text(c)) for c in body.named_children
                 if c.type not in ("function_definition", "decorated_definition", "class_definition",
                                   "comment") and c != doc_node]
        methods = [fs[0].fingerprint for a, fs in by_anchor.items()
                   if a.startswith(f"{path}::{qual}.") and "." not in a[len(path) + len(qual) + 3:]]
        row = cls.start_point[0]
        first = decorators[0].start_point[0] if decorators else row
        out.append(Fact(
            key="class", kind=CLASS, anchor=class_anchor(path, qual), subject=f"class {qual}",
            value=name, attrs=(("bases", bases), ("location", path)), path=path, line=row + 1,
            text=src.rows(max(first, row - MAX_TEXT_LINES + 1), row),
            purpose=doc or " ".join(_words(name)) or name,
            fingerprint=Fingerprint(_class_fingerprint(name, parts, methods))))
    return out


def _class_fingerprint(name: str, parts: list[str], methods: list):
    """The class's fingerprint, made on demand: only classes that appear or disappear need it."""
    def make() -> str:
        joined = " ".join(parts + [str(m) for m in methods])
        return " ".join(re.sub(rf"\b{re.escape(name)}\b", "_SELF_", joined).split()[:MAX_CLASS_TOKENS])
    return make


def _docstring(src: _Source, body) -> tuple[object, str | None]:
    """The docstring statement node (to leave out of the fingerprint) and its summary paragraph."""
    stmts = [c for c in body.named_children if c.type != "comment"]
    if not stmts or stmts[0].type != "expression_statement" or stmts[0].named_child_count != 1:
        return None, None
    s = _string_value(src, stmts[0].named_children[0])
    if s is None:
        return None, None
    return stmts[0], docstring_summary(s)


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
    data = src.data
    while stack:
        n = stack.pop()
        kind = n.type
        if kind == "comment" or (skip is not None and n == skip):
            continue
        if n.child_count == 0 or (kind == "string" and not any(
                c.type == "interpolation" for c in n.children)):
            # a plain string is one token: splitting it would make its words look like code
            tok = data[n.start_byte:n.end_byte].decode("utf-8", "replace")
            # most tokens hold no whitespace (every whitespace character but the space is
            # unprintable): the regex of _collapse only for the others (a third of the time)
            if not tok.isprintable() or " " in tok:
                tok = _collapse(tok)
            if tok:
                tokens.append("_SELF_" if kind == "identifier" and tok == name else tok)
            continue
        stack.extend(reversed(n.children))
    return " ".join(tokens)


def _function_fingerprint(src: _Source, body, skip, name: str) -> Fingerprint:
    """Looked up by the body's text first: a body unchanged since the file's previous version
    has the fingerprint it had then.  Computed now, not on demand like a class's: a deferred
    one would keep the file's whole parse tree (megabytes) alive in the miner's fact cache."""
    fp = Fingerprint(lambda: _fingerprint(src, body, skip, name),
                     body_key("python", name, src.data[body.start_byte:body.end_byte]))
    str(fp)
    return fp


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


# A function's own fact by the exact text of the lines it spans (decorators included), its
# path and its class: a file version shares most functions with the one before, and building
# their facts again was a fifth of mining a Python history.  Only the line number is set anew.
# Its routes are not kept: they depend on router wiring elsewhere in the file.
_FACTS: dict[tuple[str, str, bytes], Fact] = {}
FACTS_MAX = 16384


def _lines_key(src: _Source, path: str, cls: str, first, fn) -> tuple[str, str, bytes]:
    lo = src.data.rfind(b"\n", 0, first.start_byte) + 1
    hi = src.data.find(b"\n", fn.end_byte)
    span = src.data[lo:] if hi < 0 else src.data[lo:hi]
    return path, cls, hashlib.blake2b(span, digest_size=16).digest()


def _function_facts(src: _Source, path: str, decorators, fn, cls: str, wiring: Wiring, key) -> list[Fact]:
    """KEY: the function's _lines_key."""
    fact = _FACTS.get(key)
    if fact is None:
        fact = remember(_FACTS, key, _function_fact(src, path, decorators, fn, cls), FACTS_MAX)
    elif fact.line != fn.start_point[0] + 1:
        fact = dataclasses.replace(fact, line=fn.start_point[0] + 1)
    return [fact, *_route_facts(src, path, decorators, fact, wiring)]


def _function_fact(src: _Source, path: str, decorators, fn, cls: str) -> Fact:
    name = src.text(fn.child_by_field_name("name"))
    qualname = f"{cls}.{name}" if cls else name
    params_node, body = fn.child_by_field_name("parameters"), fn.child_by_field_name("body")
    ret_node = fn.child_by_field_name("return_type")
    params, param_names = _params(src, params_node)
    returns = _collapse(src.text(ret_node)) if ret_node is not None else ""
    is_async = fn.children[0].type == "async"
    signature = f"{'async ' if is_async else ''}def {name}({params})" + (f" -> {returns}" if returns else "")
    doc_node, doc = _docstring(src, body)
    purpose = doc or describe(name, param_names, returns)

    # provenance text: the def line(s) up to the colon first, then as many decorator lines as fit
    def_row = fn.start_point[0]
    colon = next(c for c in fn.children if c.type == ":")
    def_rows = list(range(def_row, colon.start_point[0] + 1))[:MAX_TEXT_LINES]
    start = def_row
    if decorators:
        start = max(decorators[0].start_point[0], def_row - (MAX_TEXT_LINES - len(def_rows)))
    code = src.data[getattr(doc_node, "end_byte", colon.end_byte):body.end_byte] \
        .decode("utf-8", "replace")  # not the docstring's (a comment above the first line is the body's)
    said, caught, notes = body_attrs(code, "\"'", python=True)
    return Fact(
        key="function", kind=FUNCTION, anchor=f"{path}::{qualname}",
        subject=f"{'method' if cls else 'function'} {qualname}",
        value=name, attrs=((("calls", said),) if said else ()) + (
            (("catches", caught),) if caught else ()) + ((("notes", notes),) if notes else ()) + (
            ("class", cls), ("location", path), ("signature", signature)),
        path=path, line=def_row + 1, text=src.rows(start, def_rows[-1]), purpose=purpose,
        fingerprint=_function_fingerprint(src, body, doc_node, name),
    )


def _route_facts(src: _Source, path: str, decorators, fn_fact: Fact, wiring: Wiring) -> list[Fact]:
    qualname = cast(str, fn_fact.anchor)[len(path) + 2:]  # anchor: path::qualname
    facts: list[Fact] = []
    for dec in decorators:
        route = _route(src, dec)
        if route is None:
            continue
        value, extra = wiring.route(route[2], route[0], route[1])
        first, last = dec.start_point[0], dec.end_point[0]
        facts.append(Fact(
            key="route" if not facts else f"route#{len(facts) + 1}", kind=ROUTE, anchor=fn_fact.anchor,
            subject=f"route of {qualname}", value=value,
            attrs=tuple(sorted((("handler", fn_fact.value), *extra))), path=path,
            line=first + 1, text=src.rows(first, min(last, first + MAX_TEXT_LINES - 1)),
            purpose=fn_fact.purpose + ROUTE_PURPOSE_SUFFIX,
        ))
    return facts


# A function's values (see _body_values) by the exact text of the lines it spans, like its own
# fact: running the query over every function of every file version was a tenth of mining a
# Python history.  Kept with the row the function started on, to shift their lines.
_VALUES: dict[tuple[str, str, bytes], tuple[int, list[Fact]]] = {}


def _body_values(src: _Source, path: str, fn, key) -> list[Fact]:
    """The numbers and quantities a module- or class-level function's body (nested functions
    included) passes to calls by name, and the numbers it binds local names to (see
    miners._arguments).  KEY: the function's _lines_key."""
    row = fn.start_point[0]
    got = _VALUES.get(key)
    if got is None:
        got = remember(_VALUES, key, (row, _values_in(src, path, fn)), FACTS_MAX)
    if got[0] == row:
        return got[1]
    return [dataclasses.replace(f, line=f.line + row - got[0]) for f in got[1]]


def _values_in(src: _Source, path: str, fn) -> list[Fact]:
    from tree_sitter import QueryCursor

    numbers = _KEYWORD_NUMBER.search(src.data, fn.start_byte, fn.end_byte) is not None
    constants = _LOCAL_CONSTANT.search(src.data, fn.start_byte, fn.end_byte) is not None
    positional = _POSITIONAL_NUMBER.search(src.data, fn.start_byte, fn.end_byte) is not None
    shapes = any(p.search(src.data, fn.start_byte, fn.end_byte)
                 for p in (_PATH_STRING, _STRING_KEY, _COMPARED, _SETTER))
    facts = []
    seen: set[int] = set()  # a call matched once per number among its arguments
    for _, caps in QueryCursor(_body_query()).matches(fn) if numbers or constants or positional or shapes else ():
        if "number" in caps or "path" in caps:
            call = (caps.get("number") or caps["path"])[0]
            if call.id not in seen:
                seen.add(call.id)
                facts += _call_number(src, path, call, caps["number.callee"][0]) if "number" in caps \
                    else _call_path(src, path, call, caps["path.callee"][0])
            continue
        if "entries" in caps:
            facts += _dict_entries(src, path, caps["entries"][0])
            continue
        if "bound" in caps:
            facts += _bound(src, path, caps["bound"][0], caps["bound.name"][0], caps["bound.number"][0])
            continue
        if "setter" in caps:
            facts += _setter(src, path, caps["setter"][0], caps["setter.callee"][0], caps["setter.name"][0])
            continue
        if "constant" in caps:
            facts += _local_constant(src, path, caps["constant"][0], caps["constant.value"][0])
            continue
        if not numbers:
            continue
        value_node = (caps.get("argument.value") or caps["local.value"])[0]
        value = _number_or_quantity(src, value_node)
        function = _function_of(src, value_node) if value is not None else None
        if value is None or function is None:
            continue
        row = value_node.start_point[0]
        if "local" in caps:
            name = caps["local"][0]
            if not body_values.is_counter(value):
                facts.append(body_values.local_fact(path, function, src.text(name), value, row,
                                                    src.rows(name.start_point[0], row)))
            continue
        callee = body_values.callee_name(src.text(caps["argument.callee"][0]))
        if callee is None:
            continue
        call_row = caps["argument.callee"][0].start_point[0]
        first = call_row if row - call_row < MAX_TEXT_LINES else row
        facts.append(body_values.argument_fact(path, function, callee, src.text(caps["argument.name"][0]), value,
                                               row, src.rows(first, row)))
    return facts + _literal_return(src, path, fn)


def _call_number(src: _Source, path: str, call, callee_node) -> list[Fact]:
    """The one number among a call's positional arguments, not 0, 1 or -1, under the function
    making the call (see miners._arguments)."""
    args = call.child_by_field_name("arguments")
    items = [a for a in args.named_children if a.type not in ("keyword_argument", "comment")]
    found = body_values.only_number(_number_or_quantity(src, a) if a.type in _NUMBERS else None
                                    for a in items)
    if found is None:
        return []
    callee = body_values.call_name(src.text(callee_node))
    function = _function_of(src, call) if callee is not None else None
    if callee is None or function is None:
        return []
    first = call.start_point[0]
    text = src.rows(first, min(args.end_point[0], first + MAX_TEXT_LINES - 1))
    return [body_values.number_fact(path, function, callee, found[1], found[0], first, text)]


_NUMBERS = ("integer", "float", "unary_operator", "binary_operator")


def _call_path(src: _Source, path: str, call, callee_node) -> list[Fact]:
    """The one path or URL among a call's positional arguments, under the function making the
    call (see miners._arguments)."""
    args = call.child_by_field_name("arguments")
    items = [a for a in args.named_children if a.type not in ("keyword_argument", "comment")]
    found = body_values.only_path(_string_value(src, a) for a in items)
    callee = body_values.path_call_name(src.text(callee_node)) if found is not None else None
    function = _function_of(src, call) if callee is not None else None
    if found is None or callee is None or function is None:
        return []
    first = call.start_point[0]
    text = src.rows(first, min(args.end_point[0], first + MAX_TEXT_LINES - 1))
    return [body_values.path_fact(path, function, callee, found, first, text)]


def _dict_entries(src: _Source, path: str, display) -> list[Fact]:
    """The string-keyed entries of a dict a function builds given a value someone wrote (see
    miners._arguments): not a dict a response, a log record or a template is given."""
    call = display.parent.parent if display.parent is not None and display.parent.type == "argument_list" else None
    given = call.child_by_field_name("function") if call is not None and call.type == "call" else None
    function = _function_of(src, display)
    if function is None or body_values.entry_container_cut(src.text(given) if given is not None else None):
        return []
    out = []
    for pair in display.named_children:
        key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
        name = _string_value(src, key) if pair.type == "pair" and key is not None else None
        got = _entry_value(src, value) if body_values.entry_key(name) and value is not None else None
        if name is None or got is None:
            continue
        row = pair.start_point[0]
        text = src.rows(row, min(pair.end_point[0], row + MAX_TEXT_LINES - 1))
        out.append(body_values.entry_fact(path, function, "dict", name, got[0], got[1], row, text))
    return out


def _entry_value(src: _Source, node) -> tuple[str, tuple] | None:
    """A dict entry's number, quantity (``'1h'``), deadline counted from now by its duration, or
    expression with a number in it (not 0 or 1), as written (see miners._arguments)."""
    if node.type in ("string", "concatenated_string"):
        value = _string_value(src, node)
        return (value, ()) if value is not None and body_values.entry_quantity(value) else None
    if node.type in body_values.NOT_ENTRY_VALUES:
        return None
    duration = body_values.from_now(node, src.text)
    number = _number_or_quantity(src, duration) if duration.type in _NUMBERS else None
    if number is not None:
        return None if body_values.is_counter(number) else (number, ())
    if not _has_number(src, duration, counted=duration is not node):  # now + a name: no value stated
        return None
    return _expression(src, duration)


def _has_number(src: _Source, node, counted: bool) -> bool:
    """Whether NODE holds a number literal (COUNTED: 0 and 1 too)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type in ("integer", "float") and (counted or not body_values.is_counter(src.text(n))):
            return True
        if n.type not in body_values.NOT_ENTRY_VALUES:
            stack.extend(n.named_children)
    return False


def _bound(src: _Source, path: str, comparison, name_node, number_node) -> list[Fact]:
    """The number an if or a while compares a name with, not 0, 1 or -1 (``while retries <
    5``; see miners._arguments)."""
    operator = next((c for c in comparison.children if not c.is_named), None)
    op = body_values.bound_operator(src.text(operator), name_node.start_byte < number_node.start_byte) \
        if operator is not None else None
    name = body_values.bound_name(src.text(name_node)) if op is not None else None
    value = _number_or_quantity(src, number_node) if name is not None else None
    function = _function_of(src, comparison) if value is not None else None
    if op is None or name is None or value is None or function is None or body_values.is_counter(value) \
            or not body_values.in_condition(comparison, src.text):
        return []
    row = comparison.start_point[0]
    return [body_values.bound_fact(path, function, name, op, value, row, src.rows(row, row))]


def _setter(src: _Source, path: str, call, callee_node, name_node) -> list[Fact]:
    """A setter given a setting's name and a literal (``kwargs.setdefault("is_flag", True)``,
    ``config.set("port", 8080)``; see miners._arguments)."""
    found = body_values.setter_call(src.text(callee_node))
    name = _string_value(src, name_node)
    args = call.child_by_field_name("arguments")
    if found is None or not body_values.setting_name(name) or args is None:
        return []
    items = [a for a in args.named_children if a.type != "comment"]
    if any(a.type in ("keyword_argument", "list_splat", "dictionary_splat") for a in items):
        return []
    given = [_setter_literal(src, a) for a in items[1:]]
    value = body_values.setter_value(found[1], given)
    function = _function_of(src, call) if value is not None else None
    if value is None or function is None or not found[0] and not body_values.own_setter(function):
        return []
    first = call.start_point[0]
    text = src.rows(first, min(args.end_point[0], first + MAX_TEXT_LINES - 1))
    return [body_values.setter_fact(path, function, found[0], found[1], cast(str, name), value, first, text)]


def _setter_literal(src: _Source, node) -> str | None:
    """A setter's value: a literal (a string's text), a translated message, or None."""
    got = setting_value(src, node, _render_literal, _string_value)
    if got is None or got[1] or node.type == "call" and src.text(node.child_by_field_name("function")) != "_":
        return None
    return got[0]


def _local_constant(src: _Source, path: str, name, value_node) -> list[Fact]:
    """A function-local constant (``DEFAULT_LIMIT = 2_097_152`` in a method): its value, keyed
    like a local number (``config:<path>:<function>.<NAME>``, attrs local)."""
    if value_node.type in ("integer", "float", "unary_operator", "binary_operator"):
        number = _number_or_quantity(src, value_node)  # as a local number is stated
        got = (number, ()) if number is not None else None
    else:
        got = setting_value(src, value_node, _render_literal, _string_value)
    function = _function_of(src, value_node) if got is not None and not got[1] else None
    if got is None or function is None:
        return []
    row = value_node.start_point[0]
    return [body_values.local_fact(path, function, src.text(name), got[0], row,
                                   src.rows(name.start_point[0], row))]


# Decorators that leave a function a plain function (not a view whose return is a page).
_PLAIN = re.compile(r"^@\s*(?:[\w.]*\.)?(?:property|cached_property|staticmethod|classmethod|cache|lru_cache)\b")


def _literal_return(src: _Source, path: str, fn) -> list[Fact]:
    """A public function whose body (its docstring aside) is one ``return <value>``
    (``def default_port(): return 8080``): ``config:<path>:<function>.return``, attrs returns.
    Not a route's view or another decorated callback (its return is a response)."""
    name = src.text(fn.child_by_field_name("name"))
    outer = fn.parent
    if outer is not None and outer.type == "decorated_definition" and not all(
            _PLAIN.match(src.text(d)) for d in outer.named_children if d.type == "decorator"):
        return []
    body = fn.child_by_field_name("body")
    stmts = [c for c in body.named_children if c.type != "comment"] if body is not None else []
    if stmts and _docstring(src, body)[0] is stmts[0]:
        stmts = stmts[1:]
    if name.startswith("_") or len(stmts) != 1 or stmts[0].type != "return_statement" \
            or stmts[0].named_child_count != 1:
        return []
    value = stmts[0].named_children[0]
    got = setting_value(src, value, _render_literal, _string_value)
    if got is not None and value.type == "call" and not got[1]:
        got = None  # a call made of values (lorem_ipsum.words(4)) is computed, not a literal
    function = _function_of(src, value)
    if got is None or got[0] == "None" or function is None:
        return []
    row = stmts[0].start_point[0]
    return [file_setting(path, f"{function}.return", got[0], row + 1,
                         src.rows(row, min(stmts[0].end_point[0], row + MAX_TEXT_LINES - 1)),
                         f"{' '.join(_words(name))} - what {function}() returns",
                         tuple(sorted({*got[1], ("returns", "true")})))]


def _number_or_quantity(src: _Source, node) -> str | None:
    """A number as written (arithmetic folded: 60 * 60 is 3600), a quantity string ("60d"), or
    the number after ``or`` (``per_page or 10``: the number unless told otherwise); else None."""
    if node.type == "boolean_operator":
        right = node.child_by_field_name("right")
        if src.text(node.child_by_field_name("operator")) != "or" or right is None \
                or right.type not in ("integer", "float"):
            return None
        node = right
    if node.type == "string":  # a quantity, not a label or a mode
        value = _string_value(src, node)
        return value if value is not None and body_values.QUANTITY.fullmatch(value) else None
    return src.text(node) if node.type in ("integer", "float") else fold(src, node)


# a keyword argument's number or quantity, or a local's number, somewhere in a function's text:
# "=" then a digit or a quote, or a number after "or"
_KEYWORD_NUMBER = re.compile(rb"\w\s*=\s*(?:-\s*)?(?:\d|['\"]\d)|\bor\s+\d")
# a number among a call's arguments: "(" or "," then a digit
_POSITIONAL_NUMBER = re.compile(rb"[(,]\s*-?\s*\d")
# a string among a call's arguments with a slash or an extension in it
_PATH_STRING = re.compile(rb"""[(,]\s*[rRuU]?['"][^'"\n]*(?:/|\.[A-Za-z]\w*['"])""")
# a dict's string key
_STRING_KEY = re.compile(rb"""[{,]\s*['"][^'"\n]*['"]\s*:""")
# a comparison with a number
_COMPARED = re.compile(rb"[<>]=?\s*\d|\d\s*[<>]")
# a setter given a string: .set("port", ...), .setdefault('is_flag', ...)
_SETTER = re.compile(rb"""\.(?:set|setdefault|set_default|enable|disable|put|setProperty|set_property)\(\s*['"]""")
# an UPPER_CASE local name bound to something
_LOCAL_CONSTANT = re.compile(rb"\n[ \t]+_?[A-Z][A-Z0-9_]*[ \t]*(?::[^=\n]*)?=[^=]")


def _function_of(src: _Source, node) -> str | None:
    """The qualified name of the function whose body NODE is in (``User.get_token``), or None
    at a module's or a class's top, in a signature (a default) or a decorator."""
    names: list[str] = []
    in_function = False
    p = node.parent
    while p is not None:
        if p.type == "decorator":
            return None
        if p.type == "function_definition":
            body = p.child_by_field_name("body")
            if body is None or node.start_byte < body.start_byte:
                return None  # a default's call: not the body's
            in_function = True
            names.append(src.text(p.child_by_field_name("name")))
        elif p.type == "class_definition":
            if not in_function:
                return None  # a class's field (Django's max_length=255): a setting of its own
            names.append(src.text(p.child_by_field_name("name")))
        node, p = p, p.parent
    return ".".join(reversed(names)) if in_function else None


def _unrestated(values: list[Fact], facts: list[Fact]) -> list[Fact]:
    """VALUES but a constructor's local that a parameter's default given by the None idiom
    states (``HelpFormatter.__init__.max_width`` is ``HelpFormatter.max_width``, attrs unset)."""
    unset = {f.key for f in facts if f.kind == CONFIG and any(a == "unset" for a, _ in f.attrs)}
    if not unset:
        return values
    return [v for v in values if v.key.replace(".__init__.", ".", 1) not in unset
            or ("local", "true") not in v.attrs]


def _extends_property(src: _Source, decorators) -> bool:
    return any(re.search(r"\.(setter|deleter)\s*$", src.text(d)) for d in decorators)


def file_facts(path: str, text: str) -> list[Fact]:
    """Every fact of one Python file version."""
    if not text.strip():
        return []
    src = _Source(text)
    root = parse(PYTHON, path, src.data).root_node
    if root.has_error:
        raise MineError(f"syntax error near line {_first_error_line(root)}")
    configured: list[dict] = []
    definitions = _definitions(src, root, path, configured)
    # One fact per anchor: a later def of the same name replaces the earlier one, as at
    # runtime (overload stubs, conditional fallbacks) -- except a property's setter/deleter,
    # which extends the getter rather than replacing it.
    by_anchor: dict[str, list[Fact]] = {}
    wiring = Wiring(src, root, path, _string_value)
    values: list[Fact] = []  # the numbers function bodies pass and bind (see _body_values)
    mine_values = body_values.mined_in(path)
    for decorators, fn, cls in _defs(definitions):
        key = _lines_key(src, path, cls, decorators[0] if decorators else fn, fn)
        if mine_values:
            values += _body_values(src, path, fn, key)
        facts = _function_facts(src, path, decorators, fn, cls, wiring, key)
        anchor = cast(str, facts[0].anchor)  # a function fact always has one
        if anchor in by_anchor and _extends_property(src, decorators):
            continue
        by_anchor.pop(anchor, None)
        by_anchor[anchor] = facts
    out = [f for facts in by_anchor.values() for f in facts]
    out += _class_facts(src, path, by_anchor, definitions)
    out += constants_and_settings(src, root, path) + wiring.facts
    out += body_values.kept(_unrestated(values, out), {f.key for f in out})
    if b"urlpatterns" in src.data or b"django.urls import" in src.data and b"path(" in src.data \
            or b"django.conf.urls import" in src.data and b"url(" in src.data:  # a Django URLconf, or its lists
        out += UrlConf(src, root, path, wiring.module, wiring.imports).facts
    return out + body_values.kept(_configured(src, path, configured), {f.key for f in out})
