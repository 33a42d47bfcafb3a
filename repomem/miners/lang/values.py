"""Values the walker reads beyond a literal (rules in docs/facts.md, "Code beyond Python"):

* a constant computed from an expression: literal arithmetic folded by a bounded evaluator
  (``32 << 20`` -> ``33554432``, ``"v" + "1"`` -> ``v1``), and -- Go and Rust constants, which
  are compile-time values by definition -- anything else stated as written, ``attrs.expression``
  (``5 * time.Second``, ``Duration::from_secs(30)``);
* a function-local Go or Rust constant (``const DEFAULT_LIMIT: usize = 2_097_152`` in a method),
  keyed under its function: ``constant:<path>:<Type.method>.<NAME>``;
* a function whose body is one ``return`` of a string or a number (Rust: or that tail value):
  ``func defaultAddr() string { return ":8080" }`` -> ``constant:<path>:defaultAddr()``, its
  value the literal, ``attrs.returns``;
* a Java method without a body (an interface's or an abstract one) is a function like any
  other: its signature stands in for the body it has not got;
* a Go ``const ( ... )`` block's member is on its own line, not the block's;
* the defaults an object or a call is made with, as Python's: JS/TS parameter defaults and class
  fields, Java instance fields, the struct literal of a Rust ``impl Default`` or of a Go
  ``New...()``: ``config:<path>:<Class>.<name>``;
* a Rust command-line option's default (clap's ``#[arg(long, default_value = "127.0.0.1")]``):
  ``config:<path>:<Struct>.<option>.default``, as a click option's.
"""

from __future__ import annotations

import dataclasses
import re

from repomem.core.model import CONSTANT, Fact, file_setting
from repomem.core.paths import is_test
from repomem.miners._pysettings import _expression
from repomem.miners._pysource import MAX_TEXT_LINES, _collapse, _words
from repomem.miners._pyvalues import _CONFIG_CLASS
from repomem.miners.lang import unset

MAX_EXCERPT = 200

MAX_BITS = 128  # a folded integer this large is no setting anyone wrote by hand
MAX_SHIFT = 128
_NUMBER_SUFFIX = re.compile(r"(?:[ui](?:8|16|32|64|128|size)|f32|f64|[lL])$")
_FLOAT_SUFFIX = re.compile(r"(?<=[\d.])[fFdD]$")
_IOTA = re.compile(r"\biota\b")
_NAMED_FUNCTIONS = {"function_declaration", "method_declaration", "function_item"}


def _number(text: str) -> int | float | None:
    t = text.replace("_", "")
    t = _NUMBER_SUFFIX.sub("", t)
    if not t.lower().startswith("0x"):
        t = _FLOAT_SUFFIX.sub("", t)
    try:
        if re.fullmatch(r"0[0-7]+", t):  # Go's and Java's old octal
            return int(t, 8)
        return int(t, 0)
    except ValueError:
        pass
    try:
        return float(t)
    except ValueError:
        return None


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _apply(op: str, a, b):
    if isinstance(a, str) or isinstance(b, str):
        return a + b if op == "+" and isinstance(a, str) and isinstance(b, str) else None
    ints = isinstance(a, int) and isinstance(b, int)
    if op in ("<<", ">>", "|", "&", "^") and not ints:
        return None
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op in ("/", "%"):
        if b == 0:
            return None
        if not ints:
            return a / b if op == "/" else None
        q = _trunc_div(a, b)  # Go, Rust, Java and C truncate towards zero
        return q if op == "/" else a - b * q
    if op in ("<<", ">>"):
        if not 0 <= b <= MAX_SHIFT:
            return None
        return a << b if op == "<<" else a >> b
    return {"|": a | b, "&": a & b, "^": a ^ b}[op]


def _fold(ff, node, depth: int = 0):
    if depth > 32:
        return None
    t = node.type
    if t in ff.lang.strings:
        return ff.string(node)
    if t in ff.lang.literals or t == "number":
        return _number(ff.text(node)) if t not in ("true", "false", "nil", "null", "null_literal") else None
    if t == "parenthesized_expression" and node.named_child_count == 1:
        return _fold(ff, node.named_children[0], depth + 1)
    if t == "unary_expression" and node.named_child_count == 1:
        op = ff.text(node)[:1]
        inner = _fold(ff, node.named_children[0], depth + 1)
        if op in "-+" and isinstance(inner, (int, float)):
            return -inner if op == "-" else inner
        return None
    if t == "binary_expression":
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        op = next((ff.text(c) for c in node.children if not c.is_named), None)
        if left is None or right is None or op is None:
            return None
        a, b = _fold(ff, left, depth + 1), _fold(ff, right, depth + 1)
        if a is None or b is None:
            return None
        got = _apply(op, a, b)
        if isinstance(got, int) and got.bit_length() > MAX_BITS:
            return None
        return got
    return None


def computed(ff, node) -> tuple[str, tuple] | None:
    """(value, attrs) of a constant that is no literal: folded arithmetic, else (Go, Rust) the
    expression as written."""
    if node.type in ("binary_expression", "parenthesized_expression", "unary_expression"):
        got = _fold(ff, node)
        if isinstance(got, bool) or got is None:
            pass
        elif isinstance(got, float):
            return repr(got), ()
        else:
            return str(got), ()
    if ff.lang.family in ("go", "rust") and node.type not in ff.lang.functions \
            and not _IOTA.search(ff.text(node)):  # Mode = iota, KB = 1 << (10 * iota): enum counters
        return _expression(ff.src, node)
    return None


def block_member(d, stmt):
    """A Go ``const ( ... )`` member is its own statement (its own line and text)."""
    p = d.parent
    if d.type == "const_spec" and p is not None and p.type == "const_declaration" \
            and any(c.type == "(" for c in p.children):
        return d
    if d.type == "var_spec" and p is not None and p.type == "var_spec_list":  # var ( ... )
        return d
    return stmt


def enclosing_function(ff, node) -> str | None:
    """The qualified name of the named Go/Rust function a node is directly in (None in a
    closure, or outside any function)."""
    p = node.parent
    while p is not None and p.type not in ff.lang.functions:
        p = p.parent
    if p is None or p.type not in _NAMED_FUNCTIONS or ff.lang.family not in ("go", "rust"):
        return None
    name = p.child_by_field_name("name")
    if name is None:
        return None
    scope = ff.scope(p)
    recv = p.child_by_field_name("receiver")
    if recv is not None:  # a Go method: its receiver's type
        m = re.search(r"\*?\s*([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*\)\s*$", ff.text(recv))
        if m:
            scope = [*scope, m.group(1)]
    return ".".join([*scope, ff.text(name)])


def local_constant(ff, caps) -> list[Fact]:
    d, value_node = caps["definition.constant"][0], caps["value"][0]
    function = enclosing_function(ff, d)
    if function is None or is_test(ff.path):
        return []
    value = ff.literal(value_node)
    attrs: tuple = ()
    if value is None:
        got = computed(ff, value_node)
        if got is None:
            return []
        value, attrs = got
    name = ff.text(caps["name"][0])
    qual = f"{function}.{name}"
    first = d.start_point[0]
    doc = ff.doc(d)
    purpose = f"{' '.join(_words(name))} - constant of {' '.join(_words(function.rsplit('.', 1)[-1]))}"
    return [file_setting(ff.path, qual, value, first + 1,
                         ff.src.rows(first, min(d.end_point[0], first + MAX_TEXT_LINES - 1)),
                         f"{purpose} - {doc}" if doc else purpose, attrs, CONSTANT)]


def bodiless(ff, fn):
    """The ``;`` ending a Java method declared without a body (interface, abstract), else None."""
    if ff.lang.name != "java" or fn.type != "method_declaration" or not fn.child_count:
        return None
    last = fn.children[-1]
    return last if last.type == ";" else None


def _returned(ff, body):
    """The one value a body returns when a return of it is all the body is."""
    stmts = [c for c in body.named_children if c.type not in ff.lang.comments]
    if len(stmts) == 1 and stmts[0].type == "statement_list":  # Go
        stmts = [c for c in stmts[0].named_children if c.type not in ff.lang.comments]
    if len(stmts) != 1:
        return None
    s = stmts[0]
    if s.type == "expression_statement" and s.named_child_count == 1:  # Rust's `return x;`
        s = s.named_children[0]
    if s.type in ("return_statement", "return_expression"):
        vals = [c for c in s.named_children if c.type not in ff.lang.comments]
        if len(vals) == 1 and vals[0].type == "expression_list":
            vals = list(vals[0].named_children)
        return vals[0] if len(vals) == 1 else None
    return s if ff.lang.family == "rust" else None  # a Rust block's tail value


def returned_literals(ff, funcs) -> list[Fact]:
    """A constant fact per function whose body only returns a string or a number."""
    if is_test(ff.path):
        return []
    out: dict[str, Fact] = {}
    for qual, _params, fn_fact, d in funcs:
        body = d.child_by_field_name("body")
        if body is None or d.type == "constructor_declaration":
            continue
        v = _returned(ff, body)
        if v is None:
            continue
        folded = _fold(ff, v)
        if folded is None or isinstance(folded, bool):
            continue
        value = folded if isinstance(folded, str) else repr(folded) if isinstance(folded, float) else str(folded)
        first = d.start_point[0]
        fact = file_setting(ff.path, f"{qual}()", value, v.start_point[0] + 1,
                            ff.src.rows(first, min(d.end_point[0], first + MAX_TEXT_LINES - 1)),
                            f"value {fn_fact.value} returns - {fn_fact.purpose}", (("returns", "true"),), CONSTANT)
        out[fact.key] = fact
    return list(out.values())


def java_parameter_defaults(ff, funcs) -> list[Fact]:
    """A setting per Java method parameter an annotation gives a default
    (``@RequestParam(defaultValue = "World") String name``, ``@RequestHeader``, ``@CookieValue``):
    ``config:<path>:<Class>.<method>.<parameter>``, attrs ``default`` and ``parameter``, as a
    Python method's parameter default."""
    if ff.lang.name != "java" or b"defaultValue" not in ff.src.data or is_test(ff.path):
        return []
    out: dict[str, Fact] = {}
    for qual, _params, fn_fact, d in funcs:
        params = d.child_by_field_name("parameters")
        for param in params.named_children if params is not None else ():
            pname = param.child_by_field_name("name")
            mods = next((c for c in param.named_children if c.type == "modifiers"), None)
            if param.type != "formal_parameter" or pname is None or mods is None:
                continue
            for ann in mods.named_children:
                args = ann.child_by_field_name("arguments") if ann.type == "annotation" else None
                for pair in args.named_children if args is not None else ():
                    key_node, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
                    if pair.type != "element_value_pair" or key_node is None or ff.text(key_node) != "defaultValue":
                        continue
                    got = ff.string(value)
                    if got is None:
                        continue
                    field = ff.text(pname)
                    line = param.start_point[0]
                    fact = file_setting(
                        ff.path, f"{qual}.{field}", got, line + 1, ff.src.lines[line].strip(),
                        f"{' '.join(_words(field))} - a default of {fn_fact.value}() "
                        f"({ff.text(ann.child_by_field_name('name'))}) - {fn_fact.purpose}",
                        (("default", "true"), ("parameter", "true")))
                    out[fact.key] = fact
    return list(out.values())


# -- maps and struct literals of Go and Java (the dict literals of those languages) ---------------

_JAVA_MAPS = re.compile(r"(?:java\.util\.)?(?:Map|ImmutableMap)")
_UPPER = re.compile(r"[A-Z][A-Z0-9_]*")
MAX_ENTRY_DEPTH = 6


def go_literal(node):
    """The composite literal a Go value is (``Config{...}``, ``&Config{...}``,
    ``map[string]int{...}``), else None."""
    if node.type == "unary_expression" and node.named_child_count == 1 \
            and next((c.type for c in node.children if not c.is_named), "") == "&":
        node = node.named_children[0]
    return node if node.type == "composite_literal" else None


def folded(ff, node) -> str | None:
    """A Go or Java map or struct entry's value when it is constant arithmetic (``32 << 20``)."""
    if node.type not in ("binary_expression", "parenthesized_expression", "unary_expression"):
        return None
    got = _fold(ff, node)
    if got is None or isinstance(got, bool):
        return None
    return repr(got) if isinstance(got, float) else str(got)


def _unwrap(node):
    """A Go literal_element's one child."""
    if node is not None and node.type == "literal_element" and node.named_child_count == 1:
        return node.named_children[0]
    return node


def go_entries(ff, body, prefix: str, depth: int = 0):
    """(dotted key, element, value node) of a Go map or struct literal's leaves, in source order:
    a struct field by its name, a map entry by its string or number key; a nested literal
    (``Inner{N: 3}``, or a map value whose type is elided, ``{"a": {N: 3}}``) is walked into."""
    for el in body.named_children:
        if el.type != "keyed_element":
            continue
        k, v = _unwrap(el.child_by_field_name("key")), _unwrap(el.child_by_field_name("value"))
        if k is None or v is None:
            continue
        key = ff.string(k) if k.type in ff.lang.strings else \
            ff.text(k) if k.type in ("identifier", "field_identifier", "int_literal") else None
        if not key:
            continue
        dotted = f"{prefix}.{key}"
        inner = go_literal(v)
        body_node = inner.child_by_field_name("body") if inner is not None else \
            v if v.type == "literal_value" else None
        if depth < MAX_ENTRY_DEPTH and body_node is not None \
                and any(c.type == "keyed_element" for c in body_node.named_children):
            yield from go_entries(ff, body_node, dotted, depth + 1)
            continue
        yield dotted, el, v


def java_map_entries(ff, node, prefix: str, depth: int = 0):
    """(dotted key, key node, value node) of ``Map.of("k", v, ...)`` and
    ``Map.ofEntries(Map.entry("k", v), ...)`` (also Guava's ``ImmutableMap.of``): Java's map
    literal, each entry keyed by its string key; a value that is such a map is walked into.
    None when the node is no such call."""
    if node.type != "method_invocation":
        return None
    obj, name, args = (node.child_by_field_name(f) for f in ("object", "name", "arguments"))
    if obj is None or name is None or args is None or not _JAVA_MAPS.fullmatch(ff.text(obj)):
        return None
    items = [c for c in args.named_children if c.type not in ff.lang.comments]
    method = ff.text(name)
    if method == "of" and len(items) % 2 == 0:
        pairs = list(zip(items[0::2], items[1::2]))
    elif method == "ofEntries":
        pairs = []
        for e in items:
            e_name, e_args = e.child_by_field_name("name"), e.child_by_field_name("arguments")
            if e.type != "method_invocation" or e_name is None or ff.text(e_name) != "entry" \
                    or e_args is None or e_args.named_child_count != 2:
                return None
            pairs.append((e_args.named_children[0], e_args.named_children[1]))
    else:
        return None
    return _java_pairs(ff, pairs, prefix, depth)


def _java_pairs(ff, pairs, prefix: str, depth: int):
    for k, v in pairs:
        key = ff.string(k) if k.type in ff.lang.strings else None
        if not key:
            continue
        dotted = f"{prefix}.{key}"
        inner = java_map_entries(ff, v, dotted, depth + 1) if depth < MAX_ENTRY_DEPTH else None
        if inner is not None:
            yield from inner
        else:
            yield dotted, k, v


def java_as_written(ff, name: str, node) -> tuple[str, tuple] | None:
    """A Java ``static final`` constant named as one (UPPER_CASE) whose value is neither a
    literal nor folded arithmetic (``Duration.ofSeconds(30)``, ``Pattern.compile("...")``,
    ``Other.LIMIT``): the expression as written, attrs.expression, as a Go or Rust constant's."""
    if ff.lang.name != "java" or not _UPPER.fullmatch(name) or node.type in ff.lang.functions \
            or node.type == "array_initializer":
        return None
    return _expression(ff.src, node)


# -- the defaults an object or a call is made with (JS/TS, Java, Rust, Go) --------------------------
# What Python's constructor, function and class-attribute defaults are (miners._pysettings):
# ``constructor(port = 3000)``, ``function listen({ backlog = 511 } = {})``, a class field
# ``timeout = 5000``, a Java field ``private int port = 8080;``, a Rust ``impl Default`` literal.

def _setting(ff, qual: str, value: str, attrs: tuple, node, purpose: str, end=None) -> Fact:
    """A setting stated by NODE (through END, when its value is a node of its own: Kotlin's
    ``name: String = "World"``), whose own text is the fact's (not its line's: a parameter's
    neighbour on the line may be a secret the redactor does not know as one)."""
    text = ff.src.data[node.start_byte:(end or node).end_byte].decode("utf-8", "replace")
    return file_setting(ff.path, qual, value, node.start_point[0] + 1, _collapse(text)[:MAX_EXCERPT], purpose, attrs)


def _callable(d):
    """The function node of a definition (``const f = (x = 1) => ...``: the arrow function)."""
    if d.child_by_field_name("parameters") is not None:
        return d
    v = d.child_by_field_name("value") or d.child_by_field_name("right")
    return v if v is not None and v.child_by_field_name("parameters") is not None else None


def _js_defaults(ff, params, depth: int = 0):
    """(parameter node, name node, value node) of each JS/TS parameter given a default: ``port =
    3000``, TS's ``port: number = 3000``, and each property of a destructured options object,
    ``{ tls = false } = {}``."""
    for p in params.named_children:
        if p.type == "assignment_pattern":
            left, right = p.child_by_field_name("left"), p.child_by_field_name("right")
        elif p.type in ("required_parameter", "optional_parameter"):
            left, right = p.child_by_field_name("pattern"), p.child_by_field_name("value")
        elif p.type == "object_assignment_pattern":
            left, right = p.child_by_field_name("left"), p.child_by_field_name("right")
        elif p.type == "pair_pattern" and (v := p.child_by_field_name("value")) is not None \
                and v.type == "assignment_pattern":  # { port: p = 3000 }
            left, right = p.child_by_field_name("key"), v.child_by_field_name("right")
        else:
            continue
        if left is None:
            continue
        if left.type == "object_pattern" and depth < 2:
            yield from _js_defaults(ff, left, depth + 1)
        elif right is not None and left.type in ("identifier", "shorthand_property_identifier_pattern",
                                                 "property_identifier"):
            yield p, left, right


def parameter_defaults(ff, funcs) -> list[Fact]:
    """JS/TS: a setting per parameter default of a public function, method or constructor that is
    a literal, outside tests: a constructor's ``config:<path>:<Class>.<parameter>`` (attrs
    ``default``; a configuration class's ``null`` too, as Python's ``None``), a function's
    ``<function>.<parameter>`` and a method's ``<Class>.<method>.<parameter>`` (attrs ``default``
    and ``parameter``), as a Python constructor's, function's and method's defaults."""
    if ff.lang.family != "js" or is_test(ff.path) or b"=" not in ff.src.data:
        return []
    out: dict[str, Fact] = {}
    for qual, _params, fn_fact, d in funcs:
        fn = _callable(d)
        name = fn_fact.value
        if fn is None or name.startswith(("_", "#")) or qual.startswith("_"):
            continue
        ctor = name == "constructor" and "." in qual
        owner = qual.rsplit(".", 1)[0] if ctor else qual
        for param, pname, value_node in _js_defaults(ff, fn.child_by_field_name("parameters")):
            field = ff.text(pname)
            value = ff.literal(value_node)
            if value is None or field.startswith("_") \
                    or (value == "null" and not (ctor and _CONFIG_CLASS.search(owner))):
                continue
            said = f"the default {owner} is made with" if ctor else f"a default of {qual}()"
            attrs = (("default", "true"),) if ctor else (("default", "true"), ("parameter", "true"))
            key = f"{owner}.{field}"
            out.setdefault(key, _setting(ff, key, value, attrs, param, f"{' '.join(_words(field))} - {said}"))
        _unset_defaults(ff, fn, qual, ctor, out)
    return list(out.values())


def _unset_defaults(ff, fn, qual: str, ctor: bool, out: dict[str, Fact]) -> None:
    """Into OUT: the defaults FN's body gives its parameters passed nothing (see lang/unset.py)."""
    params = fn.child_by_field_name("parameters")
    plain = {ff.text(name): (p, said) for p, name, said in unset.parameters(params)
             if not ff.text(name).startswith("_")} if params is not None else {}
    if not plain:
        return
    owner = qual.rsplit(".", 1)[0] if ctor else qual
    for field, (value, stmt) in unset.effective_defaults(ff, fn, {n: s for n, (_, s) in plain.items()}).items():
        param, said = plain[field.split(".", 1)[0]]
        option = "." in field
        attrs = {("default", "true"), *(() if ctor else (("parameter", "true"),))}
        if not option:
            attrs.add(("unset", said))
        key = f"{owner}.{field}"
        what = f"the default {owner} is made with" if ctor else f"a default of {qual}()"
        fact = _setting(ff, key, value, tuple(sorted(attrs)), stmt,
                        unset.purpose(field, what, "undefined" if option else said))
        out.setdefault(key, dataclasses.replace(fact, text=unset.text_of(ff, None if option else param, stmt)))


_FIELDS = {"field_definition": "property", "public_field_definition": "name"}


def class_fields(ff, classes) -> list[Fact]:
    """JS/TS: a public class's fields given a literal (``timeout = 5000``, TS's ``private readonly
    retries: number = 3``, ``static maxConnections = 100``): what every instance has unless told
    otherwise, ``config:<path>:<Class>.<field>``, attrs ``class``, as a Python class attribute.
    Not a ``#private`` or ``_private`` field, nor in tests."""
    if ff.lang.family != "js" or is_test(ff.path):
        return []
    out = []
    for d in classes:
        name, body = d.child_by_field_name("name"), d.child_by_field_name("body")
        if name is None or body is None or ff.text(name).startswith("_") or ff.nested(d):
            continue
        owner = ".".join([*ff.scope(d), ff.text(name)])
        for m in body.named_children:
            if m.type not in _FIELDS:
                continue
            fname, v = m.child_by_field_name(_FIELDS[m.type]), m.child_by_field_name("value")
            field = ff.text(fname) if fname is not None else ""
            if v is None or not field or field.startswith(("_", "#")):
                continue
            value = ff.literal(v)
            if value is not None:
                out.append(_setting(ff, f"{owner}.{field}", value, (("class", "true"),), m,
                                    f"{' '.join(_words(field))} - an attribute of class {owner}"))
    return out


# A Java class whose instance fields are configuration: annotated as Spring's properties, or
# named as configuration.
_JAVA_CONFIG_CLASS = re.compile(r"(Config|Configuration|Properties|Settings|Options|Conf)$")


def _configuration_class(ff, d) -> str | None:
    """The name of the configuration class a Java field is declared in, else None."""
    cls = d.parent.parent if d.parent is not None and d.parent.type == "class_body" else None
    if cls is None or cls.type != "class_declaration" or (name := cls.child_by_field_name("name")) is None:
        return None
    mods = next((c for c in cls.named_children if c.type == "modifiers"), None)
    annotated = mods is not None and b"ConfigurationProperties" in ff.src.data[mods.start_byte:mods.end_byte]
    return ff.text(name) if annotated or _JAVA_CONFIG_CLASS.search(ff.text(name)) else None


def java_field(ff, caps) -> list[Fact]:
    """Java: an instance field of a configuration class (Spring's ``@ConfigurationProperties``,
    or a class named ``...Properties``, ``...Config``, ``...Settings``, ``...Options``) given a
    literal (``private int pageSize = 10;``), or a call with arguments stated as written
    (``Duration.ofSeconds(30)``, attrs ``expression``): ``config:<path>:<Class>.<field>``, attrs
    ``class``.  Another class's field initialiser is an object's initial state (an entity's
    ``favorited = false``), as a Python ``self.x = 0`` in ``__init__`` is; a ``static final`` one
    is a constant (the walker's), a ``static`` mutable one is state; a field made with ``new`` is
    an object's state, not a setting."""
    d, mods = caps["definition.constant"][0], caps.get("modifiers")
    words = set(ff.text(mods[0]).split()) if mods else set()
    if ff.lang.name != "java" or "static" in words or is_test(ff.path) or ff.nested(d) \
            or _configuration_class(ff, d) is None:
        return []
    node = caps["value"][0]
    value, attrs = ff.literal(node), (("class", "true"),)
    if value is None and node.type == "method_invocation" and _called_with_arguments(node):
        said = _expression(ff.src, node)  # Duration.ofSeconds(30): as written, as a constant's
        if said is not None:
            value, attrs = said[0], tuple(sorted({*attrs, *said[1]}))
    scope = ff.scope(d)
    field = ff.text(caps["name"][0])
    if value is None or not scope:
        return []
    owner = ".".join(scope)
    return [_setting(ff, f"{owner}.{field}", value, attrs, d,
                     f"{' '.join(_words(field))} - an attribute of class {owner}")]


def _called_with_arguments(node) -> bool:
    args = node.child_by_field_name("arguments")
    return args is not None and args.named_child_count > 0


_RUST_OWNED = re.compile(r"to_string|to_owned|into|String::from|PathBuf::from")


def _rust_value(ff, node) -> str | None:
    """A literal, or a string literal made owned (``"127.0.0.1".to_string()``, ``String::from("x")``)."""
    value = ff.literal(node)
    if value is not None or node.type != "call_expression":
        return value
    fn, args = node.child_by_field_name("function"), node.child_by_field_name("arguments")
    if fn is None or args is None:
        return None
    if fn.type == "field_expression" and not args.named_child_count:  # "x".to_string()
        inner, method = fn.child_by_field_name("value"), fn.child_by_field_name("field")
        if inner is not None and method is not None and _RUST_OWNED.fullmatch(ff.text(method)):
            return ff.string(inner)
    elif args.named_child_count == 1 and _RUST_OWNED.fullmatch(ff.text(fn)):  # String::from("x")
        return ff.string(args.named_children[0])
    return None


def rust_defaults(ff, funcs) -> list[Fact]:
    """Rust: the fields of the struct literal ``impl Default for Config { fn default() }`` or a
    ``new()`` without parameters returns (``Config { port: 8080, .. }``): what the value is made
    with, ``config:<path>:<Type>.<field>`` = each literal field, attrs ``default``."""
    if ff.lang.family != "rust" or is_test(ff.path):
        return []
    out: dict[str, Fact] = {}
    for qual, params, _fact, d in funcs:
        owner, _, name = qual.rpartition(".")
        body = d.child_by_field_name("body")
        if not owner or name not in ("default", "new") or params.strip("() ") or body is None:
            continue
        lit = _returned(ff, body)
        type_node = lit.child_by_field_name("name") if lit is not None and lit.type == "struct_expression" else None
        if type_node is None or ff.text(type_node) not in ("Self", owner.rsplit(".", 1)[-1]):
            continue
        fields = lit.child_by_field_name("body")
        for init in fields.named_children if fields is not None else ():
            f, v = init.child_by_field_name("field"), init.child_by_field_name("value")
            value = _rust_value(ff, v) if init.type == "field_initializer" and v is not None else None
            if f is None or value is None:
                continue
            key = f"{owner}.{ff.text(f)}"
            out.setdefault(key, _setting(ff, key, value, (("default", "true"),), init,
                                         f"{' '.join(_words(ff.text(f)))} - the default {owner} is made with"))
    return list(out.values())


_GO_MAKERS = re.compile(r"(?:New|new|Default|default)(?:[A-Z_]\w*)?")


def go_defaults(ff, funcs) -> list[Fact]:
    """Go: the struct literal a constructor returns (a function named ``New...`` or
    ``Default...`` whose body is one ``return &Config{Port: 8080}``): ``config:<path>:<Type>.<Field>``
    per literal or folded entry, nested literals walked into, attrs ``default``; what the
    ``impl Default`` of Rust says."""
    if ff.lang.family != "go" or is_test(ff.path):
        return []
    out: dict[str, Fact] = {}
    for qual, _params, _fact, d in funcs:
        body = d.child_by_field_name("body")
        if "." in qual or not _GO_MAKERS.fullmatch(qual) or body is None:
            continue
        v = _returned(ff, body)
        lit = go_literal(v) if v is not None else None
        kind = lit.child_by_field_name("type") if lit is not None else None
        entries = lit.child_by_field_name("body") if lit is not None else None
        if kind is None or entries is None or kind.type != "type_identifier":
            continue
        owner = ff.text(kind)
        for dotted, el, value_node in go_entries(ff, entries, owner):
            value = ff.literal(value_node)
            value = folded(ff, value_node) if value is None else value
            if value is None:
                continue
            field = dotted.rsplit(".", 1)[-1]
            out.setdefault(dotted, _setting(ff, dotted, value, (("default", "true"),), el,
                                            f"{' '.join(_words(field))} - the default {owner} {qual}() makes"))
    return list(out.values())


# -- Rust command-line options: clap's (and structopt's) derive attributes ------------------------

_CLI_ATTRIBUTES = frozenset({"arg", "clap", "structopt"})
_CLI_DEFAULTS = ("default_value", "default_value_t", "default_missing_value")  # the first given
# literals only: a constant's name (default_value_t = DEFAULT_PORT) is stated where the constant is
_CLI_VALUES = frozenset({"string_literal", "raw_string_literal", "integer_literal", "float_literal",
                         "boolean_literal"})


def _attribute_pairs(ff, attribute) -> dict:
    """``name = literal`` pairs of a ``#[arg(...)]`` attribute (its flags, ``long``, left out)."""
    path = attribute.named_children[0] if attribute.named_child_count else None
    args = attribute.child_by_field_name("arguments")
    if path is None or args is None or ff.text(path) not in _CLI_ATTRIBUTES:
        return {}
    tokens = list(args.children)
    return {ff.text(t): v for t, eq, v in zip(tokens, tokens[1:], tokens[2:])
            if t.type == "identifier" and eq.type == "=" and v.type in _CLI_VALUES}


def rust_cli_defaults(ff, classes) -> list[Fact]:
    """Rust: the default of a command-line option a ``#[derive(Parser)]`` struct's field declares
    (``#[arg(long, default_value = "127.0.0.1")] host: String``, ``#[clap(default_value_t =
    6379)]``, structopt's alike): ``config:<path>:<Struct>.<option>.default``, the option named
    by its ``id`` else by its field, attrs ``option`` and ``default``, as a click option's default.
    Not a constant's name (``default_value_t = DEFAULT_PORT``): the constant states its value."""
    if ff.lang.family != "rust" or is_test(ff.path) or b"default_value" not in ff.src.data:
        return []
    out: dict[str, Fact] = {}
    for d in classes:
        body, name = d.child_by_field_name("body"), d.child_by_field_name("name")
        if d.type != "struct_item" or body is None or name is None:
            continue
        owner = ".".join([*ff.scope(d), ff.text(name)])
        pending: list = []  # the attributes above the next field
        for c in body.named_children:
            if c.type == "attribute_item":
                pending.append(c)
            elif c.type == "field_declaration":
                fact = _cli_default(ff, owner, pending, c)
                if fact is not None:
                    out.setdefault(fact.key, fact)
                pending = []
    return list(out.values())


def _cli_default(ff, owner: str, attributes: list, field) -> Fact | None:
    pairs: dict = {}
    for a in attributes:
        if a.named_child_count:
            pairs.update(_attribute_pairs(ff, a.named_children[0]))
    default = next((pairs[k] for k in _CLI_DEFAULTS if k in pairs), None)
    fname = field.child_by_field_name("name")
    if default is None or fname is None:
        return None
    value = ff.string(default) if default.type in ff.lang.strings else ff.text(default)
    named = pairs.get("id")
    option = ff.string(named) if named is not None and named.type in ff.lang.strings else ff.text(fname)
    if value is None or not option:
        return None
    qual = f"{owner}.{option}.default"
    said = ' '.join(_words(option))
    if option != ff.text(fname):  # the field the program reads it as: id = "hostname" on host
        said += f" ({' '.join(_words(ff.text(fname)))})"
    return _setting(ff, qual, value, (("default", "true"), ("option", "true")), attributes[0],
                    f"{said} - the default of option --{option.replace('_', '-')} of {owner}", end=field)
