"""Kotlin declarations the grammar misreads, parsed again on their own.

tree-sitter-kotlin 1.1.0 reads a top-level class or object with two or more modifiers
(``@RestController @RequestMapping("/api") class C { ... }``) as an annotated expression whose
body is a lambda when another declaration follows it, and a top-level function's annotations
as an expression of their own; the tree has no ERROR node.  A ``.kt`` file holds no top-level
expression, so every one is such a misreading: the declaration it belongs to is parsed again
with the rest of the file blanked (same bytes offsets and rows, newlines kept), where nothing
follows it and it reads right.
"""

from __future__ import annotations

# What a .kt file may hold at its top level; anything else is a misread declaration.
_TOP = frozenset({"package_header", "import", "import_list", "file_annotation", "shebang_line",
                  "class_declaration", "object_declaration", "function_declaration",
                  "property_declaration", "type_alias", "line_comment", "block_comment", "ERROR"})
_DECLARATIONS = frozenset({"class_declaration", "object_declaration", "function_declaration",
                           "property_declaration"})
MAX_REPAIRS = 32  # top-level declarations of one file parsed again, at most
_BLANK = bytes(b if b == 10 else 32 for b in range(256))  # every byte a space but newlines


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


def reparsed(parser, data: bytes, spans: list[tuple[int, int]]) -> list:
    """The root of a parse of each span alone (the rest of DATA blanked), those that read clean."""
    roots = []
    for start, end in spans:
        root = parser.parse(data[:start].translate(_BLANK) + data[start:end]
                            + data[end:].translate(_BLANK)).root_node
        if not root.has_error:
            roots.append(root)
    return roots


def within(node, spans: list[tuple[int, int]]) -> bool:
    return any(a <= node.start_byte and node.end_byte <= b for a, b in spans)
