"""Languages mined through tree-sitter queries kept as data: Python, JavaScript (and JSX),
TypeScript, TSX, Go, Rust, Java and Kotlin.

What to capture lives in ``queries/<language>.scm`` (package data), in the spirit of GitHub's
``tags.scm`` and aider's repo-map queries; :mod:`repomem.miners.lang.walker` turns the captures
into facts and :mod:`repomem.miners.lang.routes` holds the little a query cannot express (route
prefixes, routers and mounts, decorator arguments).  Capture names:

* ``@definition.function`` / ``@definition.method`` with ``@name``; ``@function`` when the node
  with the parameters and body is not the definition itself (``const f = () => ...``);
  ``@receiver`` for a Go method's type; ``@owner`` for the object of a property a call defines
  (``defineGetter(req, 'ip', ...)``: ``req.ip``);
* ``@definition.class`` with ``@name``: a class, interface, struct, trait, enum or type alias;
* ``@definition.constant`` with ``@name`` and ``@value``; ``@modifiers`` (Java: kept only when
  ``static final``); ``@definition.config`` with ``@value``: what a JS/TS config file exports;
* ``@route`` with ``@route.object``, ``@route.verb`` and ``@route.args``; ``@decorated`` with
  ``@decorator`` (NestJS decorators, Spring annotations of a method or class);
* JS/TS wiring: ``@router.name`` + ``@router.value``, ``@export.default``, ``@import.source``
  with ``@import.default`` / ``@import.name`` (+ ``@import.alias``), ``@mount`` (``x.use(...)``)
  with ``@mount.object`` and ``@mount.args``; Go ``@group.name``/``@group.object``/``@group.path``;
* ``@argument`` with ``@argument.callee``, ``@argument.name`` and ``@argument.value``: a value a
  function passes to a call by name (JS/TS: an object literal's property); ``@local`` with
  ``@local.value``: a number a function binds a local name to;
* ``@number`` with ``@number.callee``: a call with a number among its arguments (the one number
  it is given, see miners._arguments; Kotlin's callee is the call's first child);
  ``@literal`` with ``@literal.type``: a Go or Rust struct literal whose fields a function
  gives numbers (Go: a map literal's string-keyed entries too); ``@path`` with ``@path.callee``:
  a call (or a ``new``) with a string among its arguments (the one path or URL it is given);
  ``@bound`` with ``@bound.name`` and ``@bound.number``: a comparison of a name with a number
  (kept when it is an if's, a while's or a for's test);
* ``@options.call``: a call a module's top statement makes (JS/TS), whose object argument's
  literal properties are settings (``app.use(session({ resave: false }))``).

Python's captures are turned into facts by :mod:`repomem.miners.lang.python` (its own miner,
``repomem.miners.python``), the others' by the walker.  A grammar (a PyPI package per language)
is imported only when a file of its language is mined.
Adding a language = a grammar package, a :class:`Lang` entry below, a query file and tests.
"""

from __future__ import annotations

import importlib
import re
from collections import OrderedDict
from dataclasses import dataclass, field
from importlib import resources
from typing import Any


@dataclass(frozen=True)
class Lang:
    name: str
    family: str  # languages whose functions may turn into one another (a .js file renamed .ts)
    module: str  # the grammar package
    func: str  # its function returning the language pointer
    query: str  # file under queries/
    scopes: dict = field(default_factory=dict)  # node type -> field naming a class-like scope
    functions: frozenset = frozenset()  # node types whose bodies hide nested definitions
    wrappers: frozenset = frozenset()  # statements between a definition and its doc comment
    doc_prefixes: tuple = ()  # comments that count as documentation when right above
    strings: frozenset = frozenset()  # string literal node types (one fingerprint token each)
    literals: frozenset = frozenset()  # scalar literal node types a constant may be bound to
    returns: str = "return_type"  # field of the return type
    comments: frozenset = frozenset({"comment"})
    quotes: str = "\"'`"  # what delimits a string literal (no call is read inside one)
    # field -> the child node types that hold it, for a grammar that names no such field
    # (Kotlin's); a token type (``:``) stands for the named child right after it (a return type)
    fields: dict = field(default_factory=dict)


_JS_FUNCS = frozenset({"function_declaration", "generator_function_declaration", "function_expression",
                       "arrow_function", "method_definition", "function"})
_JS_SCOPES = {"class_declaration": "name", "class": "name", "abstract_class_declaration": "name"}
_JS_WRAP = frozenset({"export_statement", "lexical_declaration", "variable_declaration",
                      "expression_statement"})
_JS_STR = frozenset({"string", "template_string"})
_JS_LIT = frozenset({"number", "string", "template_string", "true", "false", "null"})

_JS: dict[str, Any] = dict(family="js", scopes=_JS_SCOPES, functions=_JS_FUNCS, wrappers=_JS_WRAP,
           doc_prefixes=("/**", "//"), strings=_JS_STR, literals=_JS_LIT)

LANGS = {
    "python": Lang("python", family="python", module="tree_sitter_python", func="language",
                   query="python.scm", scopes={"class_definition": "name"},
                   functions=frozenset({"function_definition", "lambda"}), quotes="\"'",
                   strings=frozenset({"string", "concatenated_string"}),
                   literals=frozenset({"integer", "float", "string", "true", "false", "none"})),
    "javascript": Lang("javascript", module="tree_sitter_javascript", func="language",
                       query="javascript.scm", **_JS),
    "typescript": Lang("typescript", module="tree_sitter_typescript", func="language_typescript",
                       query="typescript.scm", **_JS),
    "tsx": Lang("tsx", module="tree_sitter_typescript", func="language_tsx",
                query="typescript.scm", **_JS),
    "go": Lang("go", family="go", module="tree_sitter_go", func="language", query="go.scm",
               functions=frozenset({"function_declaration", "method_declaration", "func_literal"}),
               wrappers=frozenset({"const_declaration", "type_declaration", "var_declaration"}),
               doc_prefixes=("//",),
               returns="result", quotes="\"`",
               strings=frozenset({"interpreted_string_literal", "raw_string_literal"}),
               literals=frozenset({"int_literal", "float_literal", "interpreted_string_literal",
                                   "raw_string_literal", "rune_literal", "true", "false", "nil"})),
    "rust": Lang("rust", family="rust", module="tree_sitter_rust", func="language", query="rust.scm",
                 scopes={"impl_item": "type", "trait_item": "name", "mod_item": "name"},
                 functions=frozenset({"function_item", "closure_expression"}),
                 doc_prefixes=("///",), comments=frozenset({"line_comment", "block_comment"}),
                 quotes="\"",  # 'a is a lifetime
                 strings=frozenset({"string_literal", "raw_string_literal"}),
                 literals=frozenset({"integer_literal", "float_literal", "string_literal",
                                     "raw_string_literal", "boolean_literal", "char_literal",
                                     "negative_literal"})),
    "java": Lang("java", family="java", module="tree_sitter_java", func="language", query="java.scm",
                 scopes={"class_declaration": "name", "interface_declaration": "name",
                         "enum_declaration": "name", "record_declaration": "name"},
                 functions=frozenset({"method_declaration", "constructor_declaration",
                                      "lambda_expression", "object_creation_expression"}),
                 doc_prefixes=("/**",), returns="type", quotes="\"",
                 comments=frozenset({"line_comment", "block_comment"}),
                 strings=frozenset({"string_literal"}),
                 literals=frozenset({"decimal_integer_literal", "hex_integer_literal",
                                     "octal_integer_literal", "binary_integer_literal",
                                     "decimal_floating_point_literal", "string_literal",
                                     "character_literal", "true", "false", "null_literal"})),
    "kotlin": Lang("kotlin", family="kotlin", module="tree_sitter_kotlin", func="language",
                   query="kotlin.scm",
                   scopes={"class_declaration": "name", "object_declaration": "name",
                           "companion_object": "name"},
                   functions=frozenset({"function_declaration", "anonymous_function", "lambda_literal",
                                        "object_literal", "secondary_constructor", "getter", "setter"}),
                   doc_prefixes=("/**",), quotes="\"", comments=frozenset({"line_comment", "block_comment"}),
                   strings=frozenset({"string_literal"}),
                   literals=frozenset({"number_literal", "float_literal", "string_literal",
                                       "character_literal"}),
                   fields={"body": ("function_body", "class_body", "enum_class_body"),
                           "parameters": ("function_value_parameters",), "return_type": (":",)}),
}

EXTENSIONS = {".js": "javascript", ".jsx": "javascript", ".mjs": "javascript", ".cjs": "javascript",
              ".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "tsx",
              ".go": "go", ".rs": "rust", ".java": "java", ".kt": "kotlin"}
# Vendored, generated or bundled code states nothing about the project itself.
_SKIP_DIRS = {"node_modules", "vendor", "bower_components", "dist", "build", "target", ".next"}
_SKIP_SUFFIXES = (".min.js", ".bundle.js", ".d.ts")


def language_of(path: str) -> Lang | None:
    base = path.rsplit("/", 1)[-1]
    dot = base.rfind(".")
    if dot <= 0 or base.endswith(_SKIP_SUFFIXES):
        return None
    name = EXTENSIONS.get(base[dot:].lower())
    if name is None or any(p in _SKIP_DIRS for p in path.split("/")[:-1]):
        return None
    return LANGS[name]


_LOADED: dict[str, tuple | str] = {}


def load(lang: Lang):
    """(parser, query) for a language, built on first use (the grammar import is the slow part).

    A grammar that is missing or does not fit the query (another major version) is a MineError
    for each file of the language -- logged and skipped, earlier facts kept -- never a traceback.
    """
    from repomem.miners._base import MineError

    got = _LOADED.get(lang.name)
    if got is None:
        import tree_sitter

        package = lang.module.replace("_", "-")
        try:
            grammar = importlib.import_module(lang.module)
            language = tree_sitter.Language(getattr(grammar, lang.func)())
            source = query_source(lang.query)
            got = (tree_sitter.Parser(language), tree_sitter.Query(language, source))
        except ImportError:
            got = f"{package} is not installed (pip install {package})"
        except (ValueError, tree_sitter.QueryError) as e:  # an ABI or node-name mismatch
            got = f"{package} does not fit repomem's {lang.query} ({str(e).splitlines()[0]})"
        _LOADED[lang.name] = got
    if isinstance(got, str):
        raise MineError(got)
    return got


# The last version parsed of each of the latest TREES_MAX paths, with its tree: the next version
# of a path is parsed incrementally from it (tree-sitter reuses every subtree outside the changed
# span), which cost a fresh parse's ~45% over click's history.  An ingest mines a path's versions
# in commit order, so the previous version parsed is almost always the one just before.  Bounded
# by count and by the source bytes kept (a tree takes several times its source's size).
_TREES: OrderedDict[tuple[str, str], tuple[bytes, Any]] = OrderedDict()
TREES_MAX = 64
TREES_BYTES = 4 << 20
_kept = 0  # the source bytes of the trees kept (summed anew for each parse, 2% of mining)


def parse(lang: Lang, path: str, data: bytes):
    """The tree of DATA, the version of PATH to mine, parsed from the path's previous version
    when there is one (see _TREES); the same tree as a fresh parse."""
    global _kept
    parser, _ = load(lang)
    key = (lang.name, path)
    if not _TREES:
        _kept = 0  # (emptied from outside, as tests do)
    old = _TREES.pop(key, None)
    if old is not None:
        _kept -= len(old[0])
    if old is None:
        tree = parser.parse(data)
    elif old[0] == data:
        tree = old[1]
    else:
        before, tree = old
        start = _common_prefix(before, data, min(len(before), len(data)))
        tail = _common_suffix(before, data, min(len(before), len(data)) - start)
        tree.edit(start_byte=start, old_end_byte=len(before) - tail, new_end_byte=len(data) - tail,
                  start_point=_point(data, start), old_end_point=_point(before, len(before) - tail),
                  new_end_point=_point(data, len(data) - tail))
        tree = parser.parse(data, tree)
    _TREES[key] = (data, tree)
    _kept += len(data)
    while len(_TREES) > TREES_MAX or _kept > TREES_BYTES and len(_TREES) > 1:
        _kept -= len(_TREES.popitem(last=False)[1][0])
    return tree


def _common_prefix(a: bytes, b: bytes, most: int) -> int:
    """The length of the longest common prefix of A and B, at most MOST: the first differing
    byte is the highest set byte of the two prefixes' XOR as big-endian numbers (C speed, no
    Python loop per byte)."""
    x = int.from_bytes(a[:most], "big") ^ int.from_bytes(b[:most], "big")
    return most - (x.bit_length() + 7) // 8


def _common_suffix(a: bytes, b: bytes, most: int) -> int:
    """The length of the longest common suffix of A and B, at most MOST (as little-endian numbers
    the last bytes are the highest)."""
    if most <= 0:
        return 0
    x = int.from_bytes(a[len(a) - most:], "little") ^ int.from_bytes(b[len(b) - most:], "little")
    return most - (x.bit_length() + 7) // 8


def _point(data: bytes, offset: int) -> tuple[int, int]:
    """(row, byte column) of a byte offset, as tree-sitter counts them."""
    return data.count(b"\n", 0, offset), offset - (data.rfind(b"\n", 0, offset) + 1)


_QUERIES: dict[tuple[str, ...], Any] = {}


def query(lang: Lang, *names: str):
    """The query of these query files joined (one pass over a tree finds what each finds),
    compiled on first use for the language's grammar."""
    key = (lang.name, *names)
    got = _QUERIES.get(key)
    if got is None:
        import tree_sitter

        parser, _ = load(lang)
        got = _QUERIES[key] = tree_sitter.Query(parser.language, "".join(map(query_source, names)))
    return got


_INHERITS = re.compile(r"^; inherits: ([\w,]+)$", re.M)


def query_source(name: str) -> str:
    """A query file with the files its ``; inherits: a,b`` line names put before it (the
    nvim-treesitter convention): JavaScript and TypeScript share ``ecma.scm``."""
    source = resources.files(__package__).joinpath("queries", name).read_text("utf-8")
    m = _INHERITS.search(source)
    if not m:
        return source
    return "".join(query_source(f"{base}.scm") for base in m.group(1).split(",")) + source
