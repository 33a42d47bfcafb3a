"""Kotlin declarations the grammar misreads, parsed again on their own.

tree-sitter-kotlin 1.1.0 reads a top-level class or object with two or more modifiers
(``@RestController @RequestMapping("/api") class C { ... }``) as an annotated expression whose
body is a lambda when another declaration follows it, and a top-level function's annotations
as an expression of their own; the tree has no ERROR node.  A ``.kt`` file holds no top-level
expression, so every one is such a misreading: the declaration it belongs to is parsed again
with the rest of the file blanked (the same byte offsets and rows: newlines kept), where nothing
follows it and it reads right.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from repomem.core.model import CONFIG, Fact
from repomem.core.paths import is_test
from repomem.miners._base import MineError
from repomem.miners._pysource import _words
from repomem.miners.lang import values

# What a .kt file may hold at its top level; anything else is a misread declaration.
_TOP = frozenset({"package_header", "import", "import_list", "file_annotation", "shebang_line",
                  "class_declaration", "object_declaration", "function_declaration",
                  "property_declaration", "type_alias", "line_comment", "block_comment", "ERROR"})
_DECLARATIONS = frozenset({"class_declaration", "object_declaration", "function_declaration",
                           "property_declaration"})
MAX_REPAIRS = 32  # top-level declarations of one file parsed again, at most
# The grammar's parse time grows with the square of the annotations with arguments that open a
# line outside a class body (4000 take 2 s): more than this is no source file to mine.
MAX_ANNOTATION_LINES = 2000
_ANNOTATION_LINE = re.compile(rb"^[ \t]*@[\w.:]+[ \t]*\(", re.M)
_BLANK = bytes(b if b == 10 else 32 for b in range(256))  # every byte a space but newlines


def bounded(data: bytes) -> None:
    """MineError for a file with more annotation lines than the grammar parses in bounded time."""
    n = sum(1 for _ in zip(range(MAX_ANNOTATION_LINES + 1), _ANNOTATION_LINE.finditer(data)))
    if n > MAX_ANNOTATION_LINES:
        raise MineError(f"more than {MAX_ANNOTATION_LINES} annotations with arguments: too costly to parse")


def misread(root, comments: frozenset) -> list[tuple[int, int]]:
    """(start, end) byte spans of the top-level declarations the tree misreads: an expression
    (with the comments right above it, and the declaration right after it that lost its
    annotations to it)."""
    spans: list[tuple[int, int]] = []
    for node in root.named_children:
        if node.type in _TOP:
            continue
        start, end, above = node.start_byte, node.end_byte, node.prev_named_sibling
        while above is not None and above.type in comments:
            start, above = above.start_byte, above.prev_named_sibling
        after = node.next_named_sibling
        if after is not None and after.type in _DECLARATIONS and node.type == "annotated_expression" \
                and after.start_point[0] - node.end_point[0] <= 1:
            end = after.end_byte
        if spans and start < spans[-1][1]:  # swallowed by the one before
            spans[-1] = (spans[-1][0], max(end, spans[-1][1]))
        else:
            spans.append((start, end))
    return spans[:MAX_REPAIRS]


def reparsed(parser, data: bytes, spans: list[tuple[int, int]]) -> list[tuple[tuple[int, int], Any]]:
    """(span, root of a parse of the span alone, the rest of DATA blanked) of the spans that read
    clean so; one that does not stays as the whole file's parse read it."""
    out = []
    for start, end in spans:
        root = parser.parse(data[:start].translate(_BLANK) + data[start:end]
                            + data[end:].translate(_BLANK)).root_node
        if not root.has_error:
            out.append(((start, end), root))
    return out


def within(node, spans: list[tuple[int, int]]) -> bool:
    return any(a <= node.start_byte and node.end_byte <= b for a, b in spans)


# -- what the walker asks of Kotlin alone -----------------------------------------------------------

@dataclass(frozen=True)
class _End:
    """Where a function declared without a body ends: its signature stands for the body."""
    start_byte: int
    end_byte: int
    start_point: tuple[int, int]


def bodiless(fn) -> _End | None:
    """The end of an interface's or an abstract function declared without a body, else None."""
    if fn.type != "function_declaration" or fn.parent is None or fn.parent.type != "class_body":
        return None
    return _End(fn.end_byte, fn.end_byte, (fn.end_point[0], fn.end_point[1]))


def parameter_defaults(ff, funcs) -> list[Fact]:
    """A setting per parameter of a function or method given a literal default, outside tests:
    ``fun greeting(@RequestParam name: String = "World")`` or Spring's
    ``@RequestParam(defaultValue = "World") name: String``: ``config:<path>:<qual>.<parameter>``,
    attrs ``default`` and ``parameter``, as a Java annotation's default and a JS/TS parameter's."""
    if is_test(ff.path):
        return []
    out: dict[str, Fact] = {}
    for qual, _params, fn_fact, d in funcs:
        params = ff.field(d, "parameters")
        for param, value_node, said in _defaults(ff, params) if params is not None else ():
            field = ff.text(param.named_children[0])
            value = ff.literal(value_node)
            key = f"{CONFIG}:{ff.path}:{qual}.{field}"
            if value in (None, "null") or field.startswith("_") or key in out:  # null: no setting
                continue
            out[key] = values._setting(
                ff, f"{qual}.{field}", value, (("default", "true"), ("parameter", "true")), param,
                f"{' '.join(_words(field))} - a default of {fn_fact.value}(){said} - {fn_fact.purpose}",
                end=value_node)
    return list(out.values())


def _defaults(ff, params):
    """(parameter, default value node, " (Annotation)" or "") of each parameter given a default:
    its ``= value``, else an annotation's ``defaultValue = ...``."""
    kids = params.named_children
    for i, p in enumerate(kids):
        if p.type != "parameter" or not p.named_child_count:
            continue
        mods = kids[i - 1] if i and kids[i - 1].type == "parameter_modifiers" else None
        anns = [(ff.text(inner.named_children[0]), inner) for ann in (mods.named_children if mods else ())
                if ann.type == "annotation" and (inner := ann.named_children[-1]).named_child_count]
        after = p.next_sibling
        if after is not None and after.type == "=" and i + 1 < len(kids):
            yield p, kids[i + 1], f" ({anns[0][0]})" if anns else ""
            continue
        for name, inner in anns:
            args = next((c for c in inner.named_children if c.type == "value_arguments"), None)
            for arg in args.named_children if args is not None else ():
                named = arg.named_children
                if len(named) == 2 and ff.text(named[0]) == "defaultValue":
                    yield p, named[1], f" ({name})"
