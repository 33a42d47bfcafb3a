"""Facts of one source file from its query captures: functions and methods, module constants,
and (through :mod:`.routes`) routes and router wiring.

Functions are keyed like Python's: ``anchor`` = ``path::qualname`` (``Class.method``, a Go
method's receiver type, a Rust ``impl`` type), key suffix ``function``, so the ledger follows
them through renames and moves.  Definitions nested in a function body are private helpers and
are skipped.  Overloads (Java, one qualname twice in a file) get their parameter list in the
anchor.  Purpose: the doc comment right above (JSDoc/TSDoc, Go doc comment, Rust ``///``,
Javadoc), its first paragraph without tags; else words of the name, the parameters and the
return type.  Constants: ``constant:<path>:<qualname>`` for a module (or Java class / Rust impl)
level constant bound to a literal.
"""

from __future__ import annotations

import bisect
import dataclasses
import hashlib
import itertools
import re
from typing import cast

from repomem.core.identity import Fingerprint, body_key, class_anchor, remember
from repomem.core.model import CLASS, CONFIG, CONSTANT, FUNCTION, Fact, file_setting
from repomem.core.paths import is_test
from repomem.miners import _arguments as body_values
from repomem.miners._base import MineError
from repomem.miners._pysettings import MAX_LEAVES, _expression
from repomem.miners._pysource import MAX_TEXT_LINES, _collapse, _first_error_line, _Source, _words
from repomem.miners._text import body_attrs, is_directive, notes_of
from repomem.miners.lang import Lang, kotlin, load, parse
from repomem.miners.lang import values as lang_values
from repomem.miners.lang.purpose import describe, doc_text, param_names
from repomem.miners.lang.routes import Routes

# A file is unparseable (MineError: it keeps its earlier facts) when the parser had to invent a
# token (a MISSING node: an unclosed brace swallows everything after it) or when ERROR nodes
# cover more than this share of it.  Below that, an ERROR island is a grammar gap for some newer
# syntax, and blinding the whole file for it would lose more than it protects.
MAX_ERROR_SHARE = 0.02
MAX_SIGNATURE = 300
# Tokens of a body: a string literal whole, a word, or one punctuation character.
_TOKEN = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|`(?:\\.|[^`\\])*`|\w+|[^\s\w]')
# What a body calls and catches, by a digest of the body's text: a file version shares most
# bodies with the one before.
_CALLS: dict[tuple[str, bytes], tuple[str, str]] = {}  # (the language's quotes, body digest)
CALLS_MAX = 16384
_QUOTES = re.compile(r'^(?:r#*"|[`"\'])(.*?)(?:"#*|[`"\'])$', re.S)
# the number literals of the languages whose calls are mined for the one number they are given
_NUMBER_LITERALS = frozenset({"number", "int_literal", "float_literal", "integer_literal",
                              "decimal_integer_literal", "decimal_floating_point_literal", "number_literal"})
# the captures of the values a function's body states (see miners._arguments)
_BODY_CAPTURES = frozenset({"argument", "local", "number", "literal", "path", "bound", "setter"})
_KOTLIN_TEMPLATE = re.compile(r"(?<!\\)\$[A-Za-z_{]")  # "Hi $name": the grammar names no node for it


def check_parse(root, size: int) -> None:
    if not root.has_error:
        return
    error_bytes, missing, stack = 0, False, [root]
    while stack:
        n = stack.pop()
        if n.is_missing:
            missing = True
        elif n.type == "ERROR":
            error_bytes += n.end_byte - n.start_byte
            continue
        stack.extend(c for c in n.children if c.has_error or c.is_missing)
    if missing or error_bytes > MAX_ERROR_SHARE * max(size, 1):
        raise MineError(f"syntax error near line {_first_error_line(root)}")


class FileFacts:
    def __init__(self, lang: Lang, path: str, text: str):
        self.lang, self.path, self.src = lang, path, _Source(text)
        from tree_sitter import QueryCursor

        parser, query = load(lang)
        if lang.name == "kotlin":
            kotlin.bounded(self.src.data)
        self.root = parse(lang, path, self.src.data).root_node
        check_parse(self.root, len(self.src.data))
        self.matches: list[dict] = []
        spans: list[tuple[int, int]] = []
        misread = kotlin.misread(self.root, lang.comments) if lang.name == "kotlin" else []
        reparsed = kotlin.reparsed(parser, self.src.data, misread) if misread else []
        replaced = [span for span, _ in reparsed]
        for _, caps in QueryCursor(query).matches(self.root):
            if "comment" in caps:
                spans.extend((n.start_byte, n.end_byte) for n in caps["comment"])
            elif not replaced or not kotlin.within(next(iter(caps.values()))[0], replaced):
                self.matches.append(caps)
        for _, root in reparsed:  # a declaration the grammar misread, parsed again on its own
            self.matches += [caps for _, caps in QueryCursor(query).matches(root) if "comment" not in caps]
        self.comment_spans = sorted(spans)

    # -- helpers shared with routes -------------------------------------------------------------
    def text(self, node) -> str:
        return self.src.text(node)

    def field(self, node, name: str):
        """NODE's child in field NAME; for a grammar that names no such field (Kotlin), its first
        child of a type Lang.fields gives, or the named child right after such a token."""
        got = node.child_by_field_name(name)
        kinds = self.lang.fields.get(name)
        if got is not None or not kinds:
            return got
        after = False
        for c in node.children:
            if after and c.is_named:
                return c
            if c.type in kinds:
                if c.is_named:
                    return c
                after = True
        return None

    def nested(self, node) -> bool:
        """True when node lies inside a function body (a private helper, a callback)."""
        p = node.parent
        while p is not None:
            if p.type in self.lang.functions:
                return True
            p = p.parent
        return False

    def scope(self, node) -> list[str]:
        names, p = [], node.parent
        while p is not None:
            fld = self.lang.scopes.get(p.type)
            n = p.child_by_field_name(fld) if fld else None
            if n is not None:
                names.append(self.text(n).split("<", 1)[0].strip())
            p = p.parent
        return names[::-1]

    def statement(self, node):
        """The statement a definition is part of: up a chained assignment to its first alias
        (see aliases), then up through the wrappers."""
        outer = self.chain(node)
        if outer:
            node = outer[-1]
        while node.parent is not None and node.parent.type in self.lang.wrappers:
            node = node.parent
        return node

    @staticmethod
    def chain(node) -> list:
        """The assignments around a chained one, innermost first: ``res.contentType = res.type =
        function ...`` binds the function to res.type, then to res.contentType."""
        out = []
        while node.type == "assignment_expression" and node.parent is not None \
                and node.parent.type == "assignment_expression":
            node = node.parent
            out.append(node)
        return out

    def doc(self, node) -> str | None:
        """First paragraph of the doc comment right above a definition (decorators skipped):
        above the node itself (a spec in a Go ``const ( ... )`` block), else above the statement
        it is part of (``export const f = ...``)."""
        own = self._doc_above(node)
        stmt = self.statement(node)
        return own if own is not None or stmt is node else self._doc_above(stmt)

    def _doc_above(self, top) -> str | None:
        prev = top.prev_sibling
        while prev is not None and prev.type in ("decorator", "attribute_item", "annotation"):
            top, prev = prev, prev.prev_sibling
        run = []
        while prev is not None and prev.type in self.lang.comments:
            body = self.text(prev)
            # right above; a JSDoc/Javadoc block may stand one blank line away (express's style)
            if top.start_point[0] - prev.end_point[0] > (2 if body.startswith("/**") else 1):
                break
            if not body.startswith(self.lang.doc_prefixes) or body.startswith("////"):
                break
            # (a comment after another statement on its line is that statement's, not this one's)
            before = prev.prev_sibling
            if before is not None and before.type not in self.lang.comments \
                    and before.end_point[0] == prev.start_point[0]:
                break
            run.append(body)
            if body.startswith("/*"):
                break
            top, prev = prev, prev.prev_sibling
        return doc_text(run[::-1]) if run else None

    def _doc_after(self, top) -> str | None:
        """The comment on a definition's last line, after it (``const MAX = 5; // attempts before
        giving up``, a Go ``Idle = 30 // seconds``); not a tool's directive."""
        after = top.next_sibling
        if after is None or after.type not in self.lang.comments or after.start_point[0] != top.end_point[0]:
            return None
        said = doc_text([self.text(after)])
        return said if said and not is_directive(said) else None

    def string(self, node) -> str | None:
        """A string literal's content (no substitutions), else None."""
        if node is None or node.type not in self.lang.strings:
            return None
        if any(c.type in ("template_substitution", "interpolation") for c in node.children):
            return None
        m = _QUOTES.match(self.text(node))
        if m and self.lang.family == "kotlin" and _KOTLIN_TEMPLATE.search(m.group(1)):
            return None
        return m.group(1) if m else None

    # -- facts ------------------------------------------------------------------------------------
    def facts(self) -> list[Fact]:
        funcs: list[tuple] = []
        consts: dict[str, Fact] = {}
        classes: dict[str | None, Fact] = {}
        seen: set[tuple] = set()  # two patterns matching one definition must not look like overloads
        arguments: list[dict] = []
        options: list[Fact] = []
        class_nodes = []
        for caps in self.matches:
            if "definition.function" in caps or "definition.method" in caps:
                d = (caps.get("definition.function") or caps["definition.method"])[0]
                if (d.start_byte, d.end_byte) in seen:
                    continue
                seen.add((d.start_byte, d.end_byte))
                got = self._function(caps)
                if got is not None:
                    funcs.append(got)
            elif "definition.constant" in caps:
                consts.update((f.key, f) for f in self._constant(caps))
            elif "definition.config" in caps:
                consts.update((f.key, f) for f in self._config_export(caps))
            elif "definition.class" in caps:
                fact = self._class(caps)
                if fact is not None:
                    classes[fact.anchor] = fact
                    class_nodes.append(caps["definition.class"][0])
            elif not _BODY_CAPTURES.isdisjoint(caps):
                arguments.append(caps)
            elif "options.call" in caps:
                options += self._call_options(caps["options.call"][0])
        counts: dict[str, int] = {}
        for qual, *_ in funcs:
            counts[qual] = counts.get(qual, 0) + 1
        by_anchor: dict[str, Fact] = {}
        nodes = {}
        for qual, params, fact, node in funcs:
            if counts[qual] > 1:  # overloads: the parameter list tells them apart
                anchor = f"{self.path}::{qual}({params})"
                fact = dataclasses.replace(fact, anchor=anchor)
            by_anchor[fact.anchor] = fact
            nodes[fact.anchor] = node
        routes = Routes(self, by_anchor, nodes)
        out = [*by_anchor.values(), *routes.facts(), *consts.values(), *classes.values(),
               *lang_values.returned_literals(self, funcs), *lang_values.java_parameter_defaults(self, funcs)]
        if self.lang.name == "kotlin":
            out += kotlin.parameter_defaults(self, funcs)
        # the defaults an object is made with; a class's own field before a constructor's parameter
        made = [*lang_values.class_fields(self, class_nodes), *lang_values.parameter_defaults(self, funcs),
                *lang_values.rust_defaults(self, funcs), *lang_values.go_defaults(self, funcs),
                *lang_values.rust_cli_defaults(self, class_nodes)]
        out += body_values.kept(made, {f.key for f in out})
        out += body_values.kept(options, {f.key for f in out})  # of two calls of one callee, the first
        if arguments and body_values.mined_in(self.path):
            stated = {f.key for f in made}  # a New...() or new() literal's fields are its defaults
            out += body_values.kept(self._arguments(arguments, nodes, stated), {f.key for f in out})
        return out

    def _arguments(self, matches: list[dict], nodes: dict, stated: set[str]) -> list[Fact]:
        """The numbers and quantities functions pass to calls in an object literal, the one
        number a call is given, the numbers a struct literal's fields are given, and the numbers
        functions bind local names to (see miners._arguments), each under the innermost function
        fact it is in (a nested function is no fact).  STATED: the keys of defaults stated."""
        spans = sorted(((n.start_byte, n.end_byte, anchor[len(self.path) + 2:].split("(", 1)[0])
                        for anchor, n in nodes.items()), key=lambda s: s[1] - s[0])

        def function_of(node) -> str | None:
            return next((q for a, b, q in spans if a <= node.start_byte and node.end_byte <= b), None)

        facts = []
        seen: set[int] = set()  # a call or literal matched once per number among its arguments
        for caps in matches:
            if "setter" in caps:
                call = caps["setter"][0]
                function = function_of(call)
                if function is not None:
                    facts += self._setter(call, caps["setter.callee"][0], caps["setter.name"][0], function)
                continue
            if "number" in caps or "literal" in caps or "path" in caps or "bound" in caps:
                node = (caps.get("number") or caps.get("literal") or caps.get("path") or caps["bound"])[0]
                function = function_of(node) if node.id not in seen else None
                seen.add(node.id)
                if function is None:
                    continue
                if "number" in caps:
                    facts += self._call_number(node, caps["number.callee"][0], function)
                elif "path" in caps:
                    facts += self._call_path(node, caps["path.callee"][0], function)
                elif "bound" in caps:
                    facts += self._bound(node, caps["bound.name"][0], caps["bound.number"][0], function)
                else:
                    facts += self._literal_fields(node, caps["literal.type"][0], function, stated)
                continue
            if "local" in caps:
                name, v = caps["local"][0], caps["local.value"][0]
                function, number = function_of(name), self.text(v)
                if function is not None and not body_values.is_counter(number):
                    row = v.start_point[0]
                    facts.append(body_values.local_fact(self.path, function, self.text(name), number,
                                                        row, self.src.rows(name.start_point[0], row)))
                continue
            call, v = caps["argument"][0], caps["argument.value"][0]
            if v.type == "binary_expression":  # limit || 10: the number unless told otherwise
                op, v = v.child_by_field_name("operator"), v.child_by_field_name("right")
                if op is None or self.text(op) not in ("||", "??") or v is None or v.type != "number":
                    continue
            value = self.string(v) if v.type in self.lang.strings else self.text(v)
            if value is None or v.type in self.lang.strings and not body_values.QUANTITY.fullmatch(value):
                continue
            callee = body_values.callee_name(self.text(caps["argument.callee"][0]))
            function = function_of(call)
            if callee is None or function is None:
                continue
            first, row = call.start_point[0], v.start_point[0]
            text = self.src.rows(first if row - first < MAX_TEXT_LINES else row, row)
            facts.append(body_values.argument_fact(self.path, function, callee,
                                                   self.text(caps["argument.name"][0]), value, row, text))
        return facts

    def number(self, node) -> str | None:
        """A whole number literal as a number (``4_096`` is 4096, a Rust ``1024usize`` 1024), a
        fraction as written, or literal arithmetic folded (``4 * 1024`` is 4096); else None."""
        if node.type in _NUMBER_LITERALS:
            got = lang_values._number(self.text(node))
            return None if got is None else self.text(node) if isinstance(got, float) else str(got)
        return lang_values.folded(self, node)

    def _args_node(self, call):
        """A call's argument list node (Kotlin's value_arguments), or None."""
        return call.child_by_field_name("arguments") \
            or next((c for c in call.named_children if c.type == "value_arguments"), None)  # Kotlin

    def _arguments_of(self, call) -> list:
        """A call's arguments, comments left out (Kotlin's unwrapped from their value_argument;
        one passed by name, ``size = 4``, is none)."""
        args = self._args_node(call)
        if args is None:
            return []
        return [c.named_children[0] if c.type == "value_argument" and c.named_child_count == 1 else c
                for c in args.named_children if c.type not in self.lang.comments]

    def _callee_text(self, call, callee_node) -> str:
        """The name a call calls as written, its object's with it where the grammar names the
        method alone (Java)."""
        callee_text = self.text(callee_node)
        owner = call.child_by_field_name("object") if call.type == "method_invocation" else None
        return f"{self.text(owner)}.{callee_text}" if owner is not None else callee_text

    def _call_number(self, call, callee_node, function: str) -> list[Fact]:
        """The one number a call in FUNCTION is given, not 0, 1 or -1 (see miners._arguments)."""
        args = self._args_node(call)
        got = body_values.only_number(map(self.number, self._arguments_of(call)))
        if args is None or got is None:
            return []
        callee = body_values.call_name(self._callee_text(call, callee_node))
        if callee is None:
            return []
        first, row = call.start_point[0], args.end_point[0]
        text = self.src.rows(first, min(row, first + MAX_TEXT_LINES - 1))
        return [body_values.number_fact(self.path, function, callee, got[1], got[0], first, text)]

    def _call_path(self, call, callee_node, function: str) -> list[Fact]:
        """The one path or URL a call in FUNCTION is given (see miners._arguments)."""
        found = body_values.only_path(self.string(a) if a.type in self.lang.strings else None
                                      for a in self._arguments_of(call))
        if found is None:
            return []
        callee = body_values.path_call_name(self._callee_text(call, callee_node))
        if callee is None:
            return []
        first, row = call.start_point[0], call.end_point[0]
        text = self.src.rows(first, min(row, first + MAX_TEXT_LINES - 1))
        return [body_values.path_fact(self.path, function, callee, found, first, text)]

    def _setter(self, call, callee_node, name_node, function: str) -> list[Fact]:
        """A setter in FUNCTION given a setting's name and a literal (``viper.SetDefault("port",
        8080)``, ``System.setProperty("k", "v")``; see miners._arguments)."""
        found = body_values.setter_call(self._callee_text(call, callee_node))
        name = self.string(name_node)
        if found is None or name is None or not body_values.setting_name(name) \
                or not found[0] and not body_values.own_setter(function):
            return []
        args = self._arguments_of(call)
        if any(a.type in ("spread_element", "named_argument") for a in args):
            return []
        value = body_values.setter_value(found[1], [self.literal(a) for a in args[1:]])
        if value is None:
            return []
        first = call.start_point[0]
        text = self.src.rows(first, min(call.end_point[0], first + MAX_TEXT_LINES - 1))
        return [body_values.setter_fact(self.path, function, found[0], found[1], name, value, first, text)]

    def _bound(self, comparison, name_node, number_node, function: str) -> list[Fact]:
        """The number an if, a while or a for in FUNCTION compares a name with, not 0, 1 or -1
        (``if backoff > 64``; see miners._arguments)."""
        operator = comparison.child_by_field_name("operator") \
            or next((c for c in comparison.children if not c.is_named), None)  # Kotlin names none
        op = body_values.bound_operator(self.text(operator), name_node.start_byte < number_node.start_byte) \
            if operator is not None else None
        name = body_values.bound_name(self.text(name_node)) if op is not None else None
        value = self.number(number_node) if name is not None else None
        if op is None or name is None or value is None or body_values.is_counter(value) \
                or not body_values.in_condition(comparison, self.text):
            return []
        row = comparison.start_point[0]
        return [body_values.bound_fact(self.path, function, name, op, value, row, self.src.rows(row, row))]

    def _literal_fields(self, literal, type_node, function: str, stated: set[str]) -> list[Fact]:
        """The fields of a Go or Rust struct literal FUNCTION makes that are given a number or a
        quantity, or a call given only one number (``BytesMut::with_capacity(4 * 1024)``), not 0,
        1 or -1; not a field of a literal stated as a constructor's defaults (STATED)."""
        type_name = self.text(type_node).replace("::", ".")
        body = literal.child_by_field_name("body")
        if body is None:
            return []
        named = body_values.callee_name(type_name) is not None
        if literal.type == "composite_literal":
            entries = list(lang_values.go_entries(self, body, type_name))  # a nested literal is a match of its own
            keyed = [self._keyed_by_string(el) for _, el, _ in entries]
            maps = self._map_entries(literal, type_name if named else "map", function,
                                     [(d[len(type_name) + 1:], el, v) for (d, el, v), k in zip(entries, keyed) if k])
            if not named:
                return maps
            fields = [(d[len(type_name) + 1:], el, v) for (d, el, v), k in zip(entries, keyed)
                      if not k and "." not in d[len(type_name) + 1:]]
            return maps + self._fields(function, type_name, fields, stated)
        if not named:
            return []
        else:
            fields = [(self.text(f), init, v) for init in body.named_children if init.type == "field_initializer"
                      and (f := init.child_by_field_name("field")) is not None
                      and (v := init.child_by_field_name("value")) is not None]
        return self._fields(function, type_name, fields, stated)

    def _fields(self, function: str, type_name: str, fields: list, stated: set[str]) -> list[Fact]:
        out = []
        for field, el, v in fields:
            got = self._field_value(v)
            if got is None or body_values.is_counter(got[0]) \
                    or f"{CONFIG}:{self.path}:{type_name}.{field}" in stated:
                continue
            row = el.start_point[0]
            text = _collapse(self.src.data[el.start_byte:el.end_byte].decode("utf-8", "replace"))
            out.append(body_values.field_fact(self.path, function, type_name, field, got[0], row,
                                              text[:lang_values.MAX_EXCERPT], got[1]))
        return out

    def _keyed_by_string(self, element) -> bool:
        key = lang_values._unwrap(element.child_by_field_name("key"))
        return key is not None and key.type in self.lang.strings

    def _map_entries(self, literal, owner: str, function: str, entries: list) -> list[Fact]:
        """The string-keyed entries of a map FUNCTION builds (Go's ``jwt.MapClaims{"exp": ...}``)
        given a value someone wrote: not a map a response, a log record or a template is given
        (see miners._arguments)."""
        call = literal.parent
        while call is not None and call.type in ("unary_expression", "argument_list", "literal_element"):
            call = call.parent
        given = call.child_by_field_name("function") if call is not None and call.type == "call_expression" else None
        if not entries or body_values.entry_container_cut(self.text(given) if given is not None else None):
            return []
        out = []
        for key, el, v in entries:
            got = self._entry_value(v) if body_values.entry_key(key) else None
            if got is None:
                continue
            row = el.start_point[0]
            text = _collapse(self.src.data[el.start_byte:el.end_byte].decode("utf-8", "replace"))
            out.append(body_values.entry_fact(self.path, function, owner, key, got[0], got[1], row,
                                              text[:lang_values.MAX_EXCERPT]))
        return out

    def _entry_value(self, v) -> tuple[str, tuple] | None:
        """(value, attrs) of a map entry: a number, a quantity (``'1h'``), a deadline counted from
        now by its duration, or an expression with a number in it (not 0 or 1), as written; not a
        name, a parameter, a label or a call over names only (see miners._arguments)."""
        if v.type in self.lang.strings:
            value = self.string(v)
            return (value, ()) if value is not None and body_values.entry_quantity(value) else None
        if v.type in body_values.NOT_ENTRY_VALUES:
            return None
        duration = body_values.from_now(v, self.text)
        number = self.number(duration)
        if number is not None:
            return None if body_values.is_counter(number) else (number, ())
        if not self._has_number(duration, counted=duration is not v):  # now + a name: no value stated
            return None
        return _expression(self.src, duration)

    def _has_number(self, node, counted: bool) -> bool:
        """Whether NODE holds a number literal (COUNTED: 0 and 1 too)."""
        stack = [node]
        while stack:
            n = stack.pop()
            if n.type in _NUMBER_LITERALS and (counted or not body_values.is_counter(self.text(n))):
                return True
            stack.extend(n.named_children)
        return False

    def _field_value(self, v) -> tuple[str, tuple] | None:
        """(value, attrs) of a struct field given a number or a quantity, the one number of a call
        it is given alone, or a number times a unit (``10 * time.Second``: as written,
        attrs.expression, as a Go constant's)."""
        if v.type in self.lang.strings:
            value = self.string(v)
            return (value, ()) if value and body_values.QUANTITY.fullmatch(value) and not value.isdigit() else None
        if v.type == "call_expression":
            args = v.child_by_field_name("arguments")
            items = [c for c in args.named_children if c.type not in self.lang.comments] if args is not None else []
            number = self.number(items[0]) if len(items) == 1 else None
        else:
            number = self.number(v)
        if number is not None:
            return number, ()
        if v.type == "binary_expression" and any(c.type in _NUMBER_LITERALS for c in v.named_children):
            return _expression(self.src, v)
        return None

    def _function(self, caps):
        d = (caps.get("definition.function") or caps["definition.method"])[0]
        fn = caps.get("function", [d])[0]
        body = self.field(fn, "body")
        bodiless = None if body is not None else kotlin.bodiless(fn) if self.lang.name == "kotlin" \
            else lang_values.bodiless(self, fn)  # an interface's method
        body = body or bodiless
        if body is None or self.nested(d):
            return None
        full = self.text(caps["name"][0])
        if "owner" in caps:  # defineGetter(req, 'ip', function ...): as if req.ip = function
            full = f"{self.text(caps['owner'][0])}.{full}"
        name = full.rsplit(".", 1)[-1]
        exported = full.startswith(("exports.", "module.exports"))
        if full in ("module.exports", "exports.default"):  # module.exports = function name() {}
            own = fn.child_by_field_name("name")
            name = self.text(own) if own is not None else full
        scope = self.scope(d) + [self.text(r) for r in caps.get("receiver", ())]
        qual = ".".join([*scope, full])
        stmt = self.statement(d)
        params_node = self.field(fn, "parameters") or fn.child_by_field_name("parameter")
        params = _collapse(self.text(params_node)) if params_node is not None else ""
        ret = self.field(fn, self.lang.returns) if fn.type != "constructor_declaration" else None
        returns = _collapse(self.text(ret)).lstrip(":").strip() if ret is not None else ""
        signature = _collapse(self.src.data[stmt.start_byte:body.start_byte].decode("utf-8", "replace"))
        signature = re.sub(r"\s*(=>|\{)?\s*$", "", signature)[:MAX_SIGNATURE]
        purpose = self.doc(d) or describe(name, param_names(self, params_node), returns)
        first = stmt.start_point[0]
        text = self.src.rows(first, min(body.start_point[0], first + MAX_TEXT_LINES - 1))
        anchor = f"{self.path}::{qual}"
        aliases = [self.text(a.child_by_field_name("left")) for a in self.chain(d)]
        # a method without a body is known by its signature (and calls nothing)
        cut = self._cut(body) if bodiless is None else self.src.data[stmt.start_byte:body.start_byte]
        fingerprint = self._fingerprint(body, name, cut)
        # what is a string literal depends on the language: the same bytes are another body
        memo = (self.lang.quotes, hashlib.blake2b(cut, digest_size=16).digest())
        got = _CALLS.get(memo)
        if got is None:
            got = remember(_CALLS, memo, body_attrs(cut.decode("utf-8", "replace"), self.lang.quotes),
                           CALLS_MAX)
        said, caught, _ = got if bodiless is None else ("", "", "")
        notes = self._notes(body) if bodiless is None else ""
        attrs = ((("calls", said),) if said else ()) + ((("catches", caught),) if caught else ()) + (
            (("notes", notes),) if notes else ()) + (
            ("class", ".".join(scope)), ("location", self.path), ("signature", signature))
        fact = Fact(
            key="function", kind=FUNCTION, anchor=anchor,
            subject=f"{'method' if scope or ('.' in full and not exported) else 'function'} {qual}",
            value=name,
            attrs=((("aliases", ", ".join(aliases[::-1])),) if aliases else ()) + attrs,
            path=self.path, line=first + 1, text=text, purpose=purpose, fingerprint=fingerprint)
        return qual, params, fact, d

    def _notes(self, body) -> str:
        """What the comments inside a body say (the query's comments: _text.notes_of)."""
        spans = self.comment_spans
        i = bisect.bisect_left(spans, (body.start_byte, 0))
        texts = []
        while i < len(spans) and spans[i][1] <= body.end_byte:
            texts.append(self.src.data[spans[i][0]:spans[i][1]].decode("utf-8", "replace"))
            i += 1
        return notes_of(texts) if texts else ""

    def _cut(self, body) -> bytes:
        """A body's bytes with its comments (found by the query) cut out."""
        start, end, data = body.start_byte, body.end_byte, self.src.data
        parts, pos = [], start
        for a, b in self.comment_spans:
            if b <= pos or a >= end:
                continue
            parts.append(data[pos:a])
            pos = b
        parts.append(data[pos:end])
        return b" ".join(parts)

    def _fingerprint(self, body, name: str, cut: bytes | None = None) -> Fingerprint:
        """Body tokens minus comments; a string literal is one token, the own name ``_SELF_``.

        Tokenised from the text with the comments cut out: a walk over every leaf of every body
        was a fifth of mining time.  Only the cut text is kept, and tokenised on demand (see
        identity.Fingerprint): most fingerprints are never read."""
        if cut is None:
            cut = self._cut(body)

        def make() -> str:
            text = cut.decode("utf-8", "replace")
            return " ".join("_SELF_" if t == name else _collapse(t) for t in _TOKEN.findall(text))

        return Fingerprint(make, body_key(self.lang.name, name, cut))

    def _class(self, caps) -> Fact | None:
        """A class, interface, struct, trait, enum or type alias: like Python's class facts, its
        name is the value and its identity survives renames and moves (the fingerprint is its
        body).  ``bases``: what the declaration says between its name and its body (``extends
        Base implements Runnable``), one line."""
        d = caps["definition.class"][0]
        if self.nested(d):
            return None
        name_node = caps["name"][0]
        name = self.text(name_node)
        qual = ".".join([*self.scope(d), name])
        body = self.field(d, "body") or d.child_by_field_name("type") \
            or d.child_by_field_name("value") or d
        stmt = self.statement(d)
        head_end = body.start_byte if body is not d else d.end_byte
        bases = _collapse(self.src.data[name_node.end_byte:head_end].decode("utf-8", "replace"))
        bases = re.sub(r"^<[^>]*>\s*|\s*[={;]?$", "", bases)[:MAX_SIGNATURE]  # type parameters, "=", ";"
        first = stmt.start_point[0]
        last = body.start_point[0] if body is not d else first
        doc = self.doc(d)
        return Fact(
            key="class", kind=CLASS, anchor=class_anchor(self.path, qual), subject=f"class {qual}",
            value=name, attrs=(("bases", bases), ("location", self.path)), path=self.path,
            line=first + 1, text=self.src.rows(first, min(last, first + MAX_TEXT_LINES - 1)),
            purpose=doc or self._components(d, name), fingerprint=self._fingerprint(body, name))

    def _components(self, d, name: str) -> str:
        """An undocumented class's purpose: its name's words, and the components a record
        declares in its head (``record Greeting(long id, String content)``: "greeting (id,
        content)")."""
        params = d.child_by_field_name("parameters")
        return describe(name, param_names(self, params) if params is not None else [], "")

    def _constant(self, caps) -> list[Fact]:
        d, value_node = caps["definition.constant"][0], caps["value"][0]
        mods = caps.get("modifiers")
        if mods and not {"static", "final"} <= set(self.text(mods[0]).split()):
            return lang_values.java_field(self, caps)
        if self.nested(d):  # a Go or Rust function's own constant
            return lang_values.local_constant(self, caps)
        qual = ".".join([*self.scope(d), self.text(caps["name"][0])])
        if "variable" in caps:  # a Go package-level var
            if len(d.children_by_field_name("name")) != 1 or qual == "_" or is_test(self.path) \
                    or value_node.type in ("call_expression", "func_literal"):
                return []  # var ErrX = errors.New(...): made at run time, no setting; a test's data
            lit = lang_values.go_literal(value_node)
            if lit is not None:  # var DefaultConfig = Config{Port: 8080}: a constant per entry
                body = lit.child_by_field_name("body")
                if body is None or not _CONFIG_NAME.search(qual):
                    return []
                return self._entries(lang_values.go_entries(self, body, qual), self.doc(d))
        elif self.lang.name == "java":
            entries = lang_values.java_map_entries(self, value_node, qual)
            if entries is not None:  # DEFAULTS = Map.of("port", 8080, ...): a constant per entry
                return self._entries(entries, self.doc(d)) if _CONFIG_NAME.search(qual) else []
        schema = self.schema_of(value_node)
        if schema is not None:  # const userSchema = new mongoose.Schema({...}): a data model
            return self._leaves(schema, qual, CONFIG, self.doc(d), True, field=True)
        obj = self.object_of(value_node)
        if obj is not None:  # const corsOptions = {...}: a constant per leaf
            config = _JS_CONFIG_FILE.search(self.path) is not None
            if not config and not _CONFIG_NAME.search(qual):
                return self._bound_options(value_node, obj, qual, self.doc(d))
            return self._leaves(obj, qual, CONFIG if config else CONSTANT, self.doc(d), config)
        value = self.literal(value_node)
        attrs: tuple[tuple[str, str], ...] = ()
        if value is None:
            got = self.env_default(value_node)
            if got is not None:
                value, attrs = got[1], (("env", got[0]),)
            elif (said := lang_values.computed(self, value_node)) is not None:  # 32 << 20
                value, attrs = said
            elif (said := lang_values.java_as_written(self, qual.rsplit(".", 1)[-1], value_node)) is not None:
                value, attrs = said  # TIMEOUT = Duration.ofSeconds(30)
            else:
                return []
        stmt = lang_values.block_member(d, self.statement(d))
        doc = self.doc(d) or self._doc_after(stmt)
        first = stmt.start_point[0]
        purpose = " ".join(_words(qual.rsplit(".", 1)[-1]))
        return [file_setting(self.path, qual, value, first + 1,
                             self.src.rows(first, min(stmt.end_point[0], first + MAX_TEXT_LINES - 1)),
                             f"{purpose} - {doc}" if doc else purpose, attrs, CONSTANT)]

    def _config_export(self, caps) -> list[Fact]:
        """The object a JS/TS tool or settings file exports (``export default {...}``,
        ``module.exports = defineConfig({...})``): a setting per leaf, keyed by the file and its
        dotted path like a JSON config's (``config:jest.config.ts:testEnvironment``)."""
        if _JS_CONFIG_FILE.search(self.path) is None:
            return []
        obj = self.object_of(caps["value"][0])
        if obj is None:
            return []
        return self._leaves(obj, "", CONFIG, self.doc(caps["definition.config"][0]), True)

    def _bound_options(self, value_node, obj, qual: str, doc: str | None) -> list[Fact]:
        """JS/TS: the options a module-level binding makes a call with, keyed by the binding
        (``const limiter = rateLimit({ max: 100 })``: ``config:<path>:limiter.max``), also within
        an object (``const auth = { required: jwt({ algorithms: ['HS256'] }) }``:
        ``auth.required.algorithms``): a setting per literal property of the call's object.  An
        object no call is given is data unless its name says configuration (see _constant)."""
        if self.lang.family != "js" or is_test(self.path):
            return []
        while value_node.type in ("parenthesized_expression", "as_expression", "satisfies_expression") \
                and value_node.named_child_count:
            value_node = value_node.named_children[0]
        return self._leaves(obj, qual, CONFIG, doc, False, called=value_node.type == "call_expression",
                            options=True)

    def _call_options(self, call) -> list[Fact]:
        """JS/TS: the options a call at a module's top is given as an object, keyed by the callee
        (``app.use(session({ resave: false }))``: ``config:<path>:session.resave``), as Python's
        middleware arguments are: a setting per literal property, nested objects walked into."""
        if self.lang.family != "js" or is_test(self.path):
            return []
        found = self._options_of(call)
        if found is None:
            return []
        callee = body_values.callee_name(self.text(found[0].child_by_field_name("function")))
        if callee is None or callee.rsplit(".", 1)[-1] in _DATA_CALLS or callee.startswith("console."):
            return []
        return self._leaves(found[1], callee, CONFIG, self.doc(self.statement(call)), False, options=True)

    def _options_of(self, call, depth: int = 0):
        """(call, object) of the call given one object literal: CALL itself, else the first
        call among its arguments that is (``app.use('/api', rateLimit({...}))``)."""
        args = call.child_by_field_name("arguments")
        if args is None or call.child_by_field_name("function") is None:
            return None
        objs = [a for a in args.named_children if a.type == "object"]
        if len(objs) == 1:
            return call, objs[0]
        for a in args.named_children:
            if a.type == "call_expression" and depth < MAX_DEPTH:
                found = self._options_of(a, depth + 1)
                if found is not None:
                    return found
        return None

    def object_of(self, node, through_call: bool = True):
        """The object literal a value is (through parentheses, ``as``/``satisfies``), or the
        one object passed to a call (``defineConfig({...})``, ``jwt({...})``); else None."""
        while node.type in ("parenthesized_expression", "as_expression", "satisfies_expression") \
                and node.named_child_count:
            node = node.named_children[0]
        if node.type == "object":
            return node
        if node.type == "call_expression" and through_call:
            args = node.child_by_field_name("arguments")
            found = [self.object_of(a, False) for a in args.named_children] if args is not None else []
            objs = [o for o in found if o is not None]
            return objs[0] if len(objs) == 1 else None
        return None

    def schema_of(self, node):
        """The fields object of a Mongoose schema (``new mongoose.Schema({...}, options)``,
        ``new Schema({...})``); else None."""
        if node.type != "new_expression" or self.lang.family != "js":
            return None
        ctor, args = node.child_by_field_name("constructor"), node.child_by_field_name("arguments")
        if ctor is None or args is None or not re.fullmatch(r"(?:\w+\.)?Schema", self.text(ctor)):
            return None
        first = args.named_children[0] if args.named_child_count else None
        return first if first is not None and first.type == "object" else None

    def _pairs(self, obj, prefix: str, depth: int = 0, called: bool = True):
        """(dotted key, pair, value node) of an object literal's leaves, depth first in source
        order: a nested object (or the one passed to a call) and an array of objects are walked
        into, by index, down to MAX_DEPTH levels.  called=False: only the leaves of an object
        passed to a call within it."""
        for pair in obj.named_children:
            if pair.type != "pair":  # a spread, a shorthand property, a method, a comment
                continue
            key_node, v = pair.child_by_field_name("key"), pair.child_by_field_name("value")
            if key_node is None or v is None:
                continue
            key = self.string(key_node) if key_node.type in self.lang.strings else \
                self.text(key_node) if key_node.type in ("property_identifier", "number") else None
            if not key:
                continue
            dotted = f"{prefix}.{key}" if prefix else key
            inner = self.object_of(v) if depth < MAX_DEPTH else None
            if inner is not None:
                yield from self._pairs(inner, dotted, depth + 1, called or v.type == "call_expression")
            elif depth < MAX_DEPTH and v.type == "array" and v.named_child_count \
                    and all(c.type == "object" for c in v.named_children):
                for i, item in enumerate(v.named_children):
                    yield from self._pairs(item, f"{dotted}.{i}", depth + 1, called)
            elif called:
                yield dotted, pair, v

    def _leaves(self, obj, qual: str, kind: str, doc: str | None, expressions: bool,
                field: bool = False, called: bool = True, options: bool = False) -> list[Fact]:
        """A fact per leaf of an object literal (the first MAX_LEAVES leaves): a literal, a
        ``process.env.X || default`` (its default, attrs.env), else -- in a config file -- the
        expression as written (attrs.expression), as Python's settings modules are mined.
        field: a data model's definition (a Mongoose schema), attrs.field, as Python's models."""
        leaves = itertools.islice(self._pairs(obj, qual, called=called), MAX_LEAVES)
        return [f for dotted, pair, v in leaves
                if (f := self._leaf(pair, v, dotted, kind, self._option_of(pair, doc) if options else doc,
                                    expressions, field)) is not None]

    def _option_of(self, pair, doc: str | None) -> str:
        """What a property of a call's object is: "an option of jwt()", and the statement's doc."""
        call = pair.parent
        while call is not None and call.type != "call_expression":
            call = call.parent
        fn = call.child_by_field_name("function") if call is not None else None
        callee = body_values.callee_name(self.text(fn)) if fn is not None else None
        said = f"an option of {callee}()" if callee else "an option of a call"
        return f"{said} - {doc}" if doc else said

    def _entries(self, entries, doc: str | None) -> list[Fact]:
        """A constant per entry of a Go map or struct literal or a Java ``Map.of`` (the first
        MAX_LEAVES): a literal, folded arithmetic, else the expression as written."""
        return [f for dotted, pair, v in itertools.islice(entries, MAX_LEAVES)
                if (f := self._leaf(pair, v, dotted, CONSTANT, doc, True)) is not None]

    def _leaf(self, pair, v, dotted: str, kind: str, doc: str | None, expressions: bool,
              field: bool = False) -> Fact | None:
        attrs: tuple[tuple[str, str], ...] = ()
        value = self.literal(v)
        if value is None and (self.lang.family in ("go", "java") or not expressions):  # 15 * 60 * 1000
            value = lang_values.folded(self, v)
        if value is None:
            got = self.env_default(v)
            if got is not None:
                value, attrs = got[1], (("env", got[0]),)
            elif expressions and v.type not in self.lang.functions:
                said = _expression(self.src, v)
                if said is None:
                    return None
                value, attrs = said
            else:
                return None
        if field:  # defined by code, not computed when settings load (secrets.py, query.py)
            attrs = tuple(sorted({*attrs, ("field", "true")} - {("expression", "true")}))
        first = pair.start_point[0]
        purpose = " ".join(_words(dotted.replace(".", "_")))
        own = self._doc_above(pair)
        note = " - ".join(x for x in (own, doc) if x)
        return file_setting(self.path, dotted, value, first + 1,
                            self.src.rows(first, min(pair.end_point[0], first + MAX_TEXT_LINES - 1)),
                            f"{purpose} - {note}" if note else purpose, attrs, kind)

    def env_default(self, node) -> tuple[str, str] | None:
        """(variable, default) of ``process.env.PORT || 3000`` (or ``??``, or the lookup wrapped
        in ``Number(...)``/``parseInt(..., 10)``): worth its default, as Python's
        ``os.environ.get("PORT", 3000)`` is, the variable in ``attrs.env``."""
        if node.type == "parenthesized_expression" and node.named_child_count:
            return self.env_default(node.named_children[0])
        if node.type != "binary_expression" or node.child_by_field_name("operator") is None \
                or self.text(node.child_by_field_name("operator")) not in ("||", "??"):
            return None
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is not None and left.type == "call_expression" \
                and self.text(left.child_by_field_name("function")) in _CASTS:
            args = left.child_by_field_name("arguments").named_children
            left = args[0] if args else None
        m = _PROCESS_ENV.fullmatch(self.text(left)) if left is not None else None
        default = self.literal(right) if right is not None else None
        return (m.group(1) or m.group(2), default) if m and default is not None else None

    def literal(self, node) -> str | None:
        t = node.type
        if t in self.lang.strings:
            return self.string(node)
        if t in self.lang.literals:
            return self.text(node)
        if t == "identifier" and self.lang.family == "kotlin" and self.text(node) in ("true", "false", "null"):
            return self.text(node)  # identifiers to tree-sitter-kotlin 1.1
        if t == "unary_expression" and node.named_child_count == 1 and self.text(node)[:1] in "-+":
            inner = self.literal(node.named_children[0])
            return None if inner is None else self.text(node)[0] + inner
        if t in ("array", "array_expression") and node.named_child_count <= 50:
            items = [c for c in node.named_children if c.type not in self.lang.comments]
            parts = [self.literal(c) for c in items]
            return None if any(p is None for p in parts) else "[" + ", ".join(cast("list[str]", parts)) + "]"
        if t in ("parenthesized_expression", "as_expression", "satisfies_expression") \
                and node.named_child_count:
            return self.literal(node.named_children[0])
        return None


# A JS/TS file of settings or a tool's configuration (jest.config.ts, webpack.config.js,
# .eslintrc.js, config/production.js, settings.ts): the object it exports is settings, each
# leaf stated even when computed (as written).  Elsewhere an object constant is mined only when
# its name says it is configuration (corsOptions, DEFAULT_CONFIG), and only its literal leaves.
_JS_CONFIG_FILE = re.compile(r"(^|/)([\w.-]+[.-]config|config|configuration|settings|\.[\w-]+rc)\.[cm]?[jt]s$"
                             r"|(^|/)(config|settings)/[^/]+\.[cm]?[jt]s$")
_CONFIG_NAME = re.compile(r"(^|\.)[A-Z][A-Z0-9_]*$|(?i:config|conf|options|opts|settings|defaults)$")
MAX_DEPTH = 6  # levels of objects within a setting's object
_PROCESS_ENV = re.compile(r"process\.env\.([A-Za-z_]\w*)|process\.env\[['\"]([A-Za-z_]\w*)['\"]\]")
_CASTS = {"Number", "parseInt", "parseFloat", "String", "Boolean"}  # around process.env.X
# A module-level call that adds an object to a collection (``users.push({ name: 'TJ' })``: an
# example's data) or logs it is given data, not options.
_DATA_CALLS = {"push", "unshift", "splice", "add", "insert", "insertOne", "insertMany", "create"}


class LangMiner:
    name = "lang"

    def accepts(self, path: str) -> bool:
        from repomem.miners.lang import language_of

        return language_of(path) is not None

    def mine(self, path: str, text: str) -> list[Fact]:
        from repomem.miners.lang import language_of

        lang = language_of(path)
        if lang is None or not text.strip():
            return []
        return FileFacts(lang, path, text).facts()


MINER = LangMiner()
