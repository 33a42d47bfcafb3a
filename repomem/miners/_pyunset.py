"""A Python parameter's effective default: the value its body gives it when the signature's
default only means "not given" (click's ``Context(help_option_names=None)`` is ``["--help"]``
unless a parent context gives one).

The idioms read, each a statement at the top of the function's body:

* ``if x is None: x = <literal>`` (also ``if x is UNSET`` for the signature's own sentinel, and
  ``if not x`` for ``None``); the assignment directly under the ``if``, or in the last ``else`` of
  an ``if <source> is not None`` directly under it (``if parent is not None: x = parent.x else:
  x = ["--help"]``: the value when nothing else gives one);
* ``x = x or <literal>`` (``None`` only: a sentinel object is true);
* ``x = <literal> if x is None else x`` and ``x = x if x is not None else <literal>``.

``self.x = ...`` counts as ``x = ...``.  The literal is a number, a string, a boolean, a list or
a tuple of literals, or a constant's name (``DEFAULT_TIMEOUT``) the module binds to no ``None``;
not an empty one (``[]``, ``""``: the mutable-default idiom, which states nothing), nor another
parameter or a call."""

from __future__ import annotations

import re

from repomem.miners._pysource import _render_literal, _Source, _string_value
from repomem.miners._pyvalues import UPPER, setting_value

_EMPTY = frozenset(("", "[]", "()", "{}", "set()", "''", '""'))
_STATEMENTS = 200  # statements of a body looked at: the idiom stands near its top


def effective_default(src: _Source, fn, name: str, unset: str) -> tuple[str, list[int]] | None:
    """(value, the rows stating it: the test's and the assignment's) the body of FN gives
    parameter NAME when it is UNSET (the default as written: ``None``, a sentinel); None when no
    idiom states a literal."""
    body = fn.child_by_field_name("body")
    for stmt in body.named_children[:_STATEMENTS] if body is not None else ():
        got = _statement(src, stmt, name, unset)
        if got is not None:
            return got
    return None


def _statement(src: _Source, stmt, name: str, unset: str) -> tuple[str, list[int]] | None:
    if stmt.type == "if_statement":
        if not _tests_unset(src, stmt.child_by_field_name("condition"), name, unset):
            return None
        block = stmt.child_by_field_name("consequence")
        got = _assigned(src, block, name) if block is not None else None
        return (got[0], sorted({stmt.start_point[0], got[1]})) if got is not None else None
    if stmt.type != "expression_statement" or stmt.named_child_count != 1:
        return None
    asg = stmt.named_children[0]
    left, right = asg.child_by_field_name("left"), asg.child_by_field_name("right")
    if asg.type != "assignment" or left is None or right is None or not _target(src, left, name):
        return None
    value = _fallback(src, right, name, unset)
    return (value, list(range(stmt.start_point[0], stmt.end_point[0] + 1))[:3]) if value is not None else None


def _assigned(src: _Source, block, name: str) -> tuple[str, int] | None:
    """The literal a block binds NAME to at its top, or in the last ``else`` of an ``if`` at its
    top (the value when no other branch gives one)."""
    for stmt in block.named_children:
        if stmt.type == "expression_statement" and stmt.named_child_count == 1 \
                and stmt.named_children[0].type == "assignment":
            asg = stmt.named_children[0]
            left = asg.child_by_field_name("left")
            if left is not None and _target(src, left, name):
                value = _literal(src, asg.child_by_field_name("right"))
                return (value, stmt.start_point[0]) if value is not None else None
        elif stmt.type == "if_statement" and _given(src, stmt.child_by_field_name("condition")):
            last = stmt.named_children[-1]
            inner = last.child_by_field_name("body") if last.type == "else_clause" else None
            got = _assigned(src, inner, name) if inner is not None else None
            if got is not None:
                return got
    return None


def _given(src: _Source, condition) -> bool:
    """Whether an if's condition is ``<source> is not None`` alone: its branch takes the value
    from elsewhere, and its ``else`` states the value when nothing else gives one."""
    if condition is None or condition.type != "comparison_operator" or condition.named_child_count != 2:
        return False
    ops = " ".join(src.text(c) for c in condition.children if not c.is_named)
    return " ".join(ops.split()) == "is not" and src.text(condition.named_children[1]) == "None"


def _fallback(src: _Source, right, name: str, unset: str) -> str | None:
    """The literal of ``x or <literal>``, ``<literal> if x is None else x`` or ``x if x is not
    None else <literal>``."""
    if right.type == "boolean_operator":
        left, other = right.child_by_field_name("left"), right.child_by_field_name("right")
        if unset != "None" or src.text(right.child_by_field_name("operator")) != "or" \
                or left is None or src.text(left) != name:
            return None
        return _literal(src, other)
    if right.type != "conditional_expression" or right.named_child_count != 3:
        return None
    then, test, otherwise = right.named_children
    if _compares(src, test, name, unset, "is") and src.text(otherwise) == name:
        return _literal(src, then)
    if _compares(src, test, name, unset, "is not") and src.text(then) == name:
        return _literal(src, otherwise)
    return None


def _tests_unset(src: _Source, condition, name: str, unset: str) -> bool:
    """Whether an if's condition is ``x is <unset>`` (``x == None``), or ``not x`` for None."""
    if condition is None:
        return False
    if condition.type == "not_operator" and unset == "None":
        arg = condition.child_by_field_name("argument")
        return arg is not None and src.text(arg) == name
    return _compares(src, condition, name, unset, "is")


def _compares(src: _Source, node, name: str, unset: str, operator: str) -> bool:
    """Whether NODE is ``name <operator> unset`` (``is``: or ``==``; ``is not``: or ``!=``)."""
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    if node.type != "comparison_operator" or node.named_child_count != 2:
        return False
    ops = [src.text(c) for c in node.children if not c.is_named]
    said = " ".join(" ".join(ops).split())
    alike = {"is": ("is", "=="), "is not": ("is not", "!=")}[operator]
    a, b = (src.text(c) for c in node.named_children)
    return said in alike and {a, b} == {name, unset}


def _target(src: _Source, left, name: str) -> bool:
    """Whether an assignment's left side is NAME or ``self.NAME``."""
    return src.text(left) in (name, f"self.{name}")


def _literal(src: _Source, node) -> str | None:
    """A literal's value (not an empty one), or a constant's name."""
    if node is None:
        return None
    if node.type == "identifier":
        text = src.text(node)
        unset = re.compile(rb"^" + re.escape(text.encode()) + rb"\s*(?::[^=\n]*)?=\s*None\s*$", re.M)
        return text if UPPER.match(text) and unset.search(src.data) is None else None
    got = setting_value(src, node, _render_literal, _string_value)
    if got is None or got[1] or got[0] in _EMPTY or got[0] == "None":
        return None
    if node.type == "call" and not _translation(src, node):
        return None  # a call made of literals (Timeout(5.0)) is built, not a literal
    return got[0]


def _translation(src: _Source, call) -> bool:
    """``_("Show this message and exit.")``: the message is its text (see _pyvalues)."""
    f = call.child_by_field_name("function")
    return f is not None and src.text(f) in ("_", "_l", "gettext", "gettext_lazy", "lazy_gettext")
