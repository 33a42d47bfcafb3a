"""JS/TS: a parameter's effective default, the value its body gives it when none is passed
(Python's None idiom, miners/_pyunset.py).  A statement at the top of the function's body:

* ``x = x || <literal>``, ``x = x ?? <literal>``, ``x ??= <literal>``, ``x ||= <literal>``;
* ``if (x === undefined) x = <literal>`` (``== null``, ``=== null``, ``typeof x === 'undefined'``,
  ``!x``), the assignment directly under the ``if`` (in its braces or not);
* the property of an options parameter: ``var limit = opts.limit || 20``, ``this.limit =
  options.limit ?? 20``: ``<function>.<opts>.<limit>``.

For a parameter without a default (or given ``null``/``undefined``), keyed as its default would
be (a constructor's ``<Class>.<x>``, a function's ``<function>.<x>``), attrs ``default``,
``parameter`` (not a constructor's) and ``unset`` = what the signature says (``undefined``, or
the ``null`` written).  The literal is a number, a string, a boolean or an array of literals;
not an empty one (``''``, ``[]``: nothing stated), nor another parameter or a call."""

from __future__ import annotations

from typing import cast

from repomem.miners._pysource import _collapse, _words

_EMPTY = frozenset(("", "[]"))
_FALLBACKS = frozenset(("||", "??"))
_STATEMENTS = 200  # statements of a body looked at: the idiom stands near its top
_UNDEFINED = frozenset(("undefined", "null", "void 0"))


def parameters(params):
    """(parameter node, name, what the signature says: its default as written, ``undefined`` for
    none) of each JS/TS parameter that is a plain name."""
    for p in params.named_children:
        if p.type == "identifier":
            yield p, p, "undefined"
            continue
        if p.type == "assignment_pattern":
            left, right = p.child_by_field_name("left"), p.child_by_field_name("right")
        elif p.type in ("required_parameter", "optional_parameter"):
            left, right = p.child_by_field_name("pattern"), p.child_by_field_name("value")
        else:
            continue
        if left is not None and left.type == "identifier":
            yield p, left, right.text.decode("utf-8", "replace") if right is not None else "undefined"


def passed_nothing(said: str) -> bool:
    """Whether a parameter's default as written means none was passed."""
    return said in _UNDEFINED


def effective_defaults(ff, fn, names: dict[str, str]) -> dict[str, tuple[str, object]]:
    """{name: (value, statement)} for the parameters NAMES (name -> what the signature says)
    FN's body gives a literal when none is passed, and ``opts.limit`` for an options parameter's
    property (name ``opts.limit``; whatever its default, ``options = {}`` mostly)."""
    body = fn.child_by_field_name("body")
    out: dict[str, tuple[str, object]] = {}
    if body is None or body.type != "statement_block":
        return out
    for stmt in body.named_children[:_STATEMENTS]:
        got = _statement(ff, stmt, names)
        if got is not None and got[0] not in out:
            out[got[0]] = (got[1], stmt)
    return out


def _statement(ff, stmt, names: dict[str, str]) -> tuple[str, str] | None:
    if stmt.type == "if_statement":
        return _if_unset(ff, stmt, names)
    if stmt.type in ("lexical_declaration", "variable_declaration"):
        decls = [d for d in stmt.named_children if d.type == "variable_declarator"]
        value = decls[0].child_by_field_name("value") if len(decls) == 1 else None
        return _option(ff, value, names) if value is not None else None
    if stmt.type != "expression_statement" or stmt.named_child_count != 1:
        return None
    asg = stmt.named_children[0]
    left, right = asg.child_by_field_name("left"), asg.child_by_field_name("right")
    if left is None or right is None:
        return None
    if asg.type == "augmented_assignment_expression":  # x ??= 20
        op = asg.child_by_field_name("operator")
        name = ff.text(left)
        if not passed_nothing(names.get(name, "")) or op is None or ff.text(op) not in ("??=", "||="):
            return None
        value = _literal(ff, right)
        return (name, value) if value is not None else None
    if asg.type != "assignment_expression":
        return None
    name = _target(ff, left)
    if passed_nothing(names.get(name, "")) and right.type == "binary_expression":  # x = x || 20
        op, own, other = (right.child_by_field_name(f) for f in ("operator", "left", "right"))
        if op is not None and ff.text(op) in _FALLBACKS and own is not None and ff.text(own) == name:
            value = _literal(ff, other)
            return (name, value) if value is not None else None
    return _option(ff, right, names)


def _target(ff, left) -> str:
    """An assignment's name: ``x``, or ``this.x``'s ``x``."""
    text = ff.text(left)
    return text[len("this."):] if text.startswith("this.") else text


def _option(ff, value, names: dict[str, str]) -> tuple[str, str] | None:
    """(``opts.limit``, the literal) of ``opts.limit || 20`` for a parameter ``opts``."""
    if value.type != "binary_expression":
        return None
    op, own, other = (value.child_by_field_name(f) for f in ("operator", "left", "right"))
    if op is None or ff.text(op) not in _FALLBACKS or own is None or own.type != "member_expression":
        return None
    obj, prop = own.child_by_field_name("object"), own.child_by_field_name("property")
    if obj is None or prop is None or obj.type != "identifier" or ff.text(obj) not in names \
            or prop.type != "property_identifier":
        return None
    literal = _literal(ff, other)
    return (f"{ff.text(obj)}.{ff.text(prop)}", literal) if literal is not None else None


def _if_unset(ff, stmt, names: dict[str, str]) -> tuple[str, str] | None:
    """``if (x === undefined) x = 20`` (``{ x = 20; }``): (x, 20)."""
    cond = stmt.child_by_field_name("condition")
    tested = _tested(ff, cond) if cond is not None else None
    then = stmt.child_by_field_name("consequence")
    name = tested[0] if tested is not None else None
    if tested is None or not passed_nothing(names.get(cast(str, name), "")) or then is None \
            or tested[1] not in ("", names[cast(str, name)]):
        return None  # a default null is no undefined: === undefined never holds
    stmts = [then] if then.type == "expression_statement" else \
        [s for s in then.named_children if s.type not in ff.lang.comments] if then.type == "statement_block" else []
    for s in stmts:
        asg = s.named_children[0] if s.type == "expression_statement" and s.named_child_count == 1 else None
        if asg is None or asg.type != "assignment_expression":
            continue
        left = asg.child_by_field_name("left")
        if left is not None and _target(ff, left) == name:
            value = _literal(ff, asg.child_by_field_name("right"))
            return (name, value) if value is not None else None
    return None


def _tested(ff, cond) -> tuple[str, str] | None:
    """(name, what it is compared with strictly, "" for either) an if tests for being unset:
    ``x === undefined``, ``x == null``, ``typeof x === 'undefined'``, ``!x``."""
    while cond.type == "parenthesized_expression" and cond.named_child_count == 1:
        cond = cond.named_children[0]
    if cond.type == "unary_expression":
        op, arg = cond.child_by_field_name("operator"), cond.child_by_field_name("argument")
        return (ff.text(arg), "") if op is not None and ff.text(op) == "!" and arg is not None \
            and arg.type == "identifier" else None
    if cond.type != "binary_expression":
        return None
    op, a, b = (cond.child_by_field_name(f) for f in ("operator", "left", "right"))
    if op is None or a is None or b is None or ff.text(op) not in ("===", "=="):
        return None
    strict = ff.text(op) == "==="
    for one, other in ((a, b), (b, a)):
        if ff.text(other) in _UNDEFINED and one.type == "identifier":
            return ff.text(one), ("undefined" if ff.text(other) == "void 0" else ff.text(other)) if strict else ""
        arg = one.child_by_field_name("argument") if one.type == "unary_expression" else None
        if ff.string(other) == "undefined" and arg is not None and ff.text(one).startswith("typeof"):
            return ff.text(arg), "undefined"
    return None


def _literal(ff, node) -> str | None:
    """A literal's value (not an empty one, not null)."""
    if node is None:
        return None
    value = ff.literal(node)
    if value is None or value in _EMPTY or value in ("null", "undefined") \
            or node.type == "template_string" and ff.string(node) is None:
        return None
    return value


def purpose(field: str, said: str, unset: str) -> str:
    when = "when none is passed" if unset == "undefined" else f"when given {unset}"
    return f"{' '.join(_words(field.replace('.', '_')))} - {said}, {when}"


def text_of(ff, param, stmt) -> str:
    """The parameter and the statement giving its value, on one line each."""
    rows = [_collapse(ff.text(param))] if param is not None else []
    first = stmt.start_point[0]
    return "\n".join([*rows, ff.src.rows(first, min(stmt.end_point[0], first + 1))])
