"""Constants and settings of a Python file: module-level UPPER_CASE names and dunders, the
class-level attributes of settings-like classes (rules in _pyvalues and docs/facts.md), and the
fields of data models."""

from __future__ import annotations

import dataclasses
import hashlib
import re
from functools import partial
from typing import Callable

from repomem.core.identity import remember
from repomem.core.model import CONFIG, CONSTANT, Fact, file_setting
from repomem.core.paths import is_test
from repomem.miners._pysource import MAX_TEXT_LINES, _comment_text, _render_literal, _Source, _string_value, _words
from repomem.miners._pyunset import effective_default
from repomem.miners._pyvalues import (
    _CONFIG_CLASS,
    _DOTTED,
    _TYPE_CALLS,
    UPPER,
    _args,
    _callee,
    _env,
    env_functions,
    setting_value,
    settings_kind,
)

CONSTANT_NAME = re.compile(r"^_?[A-Z][A-Z0-9_]*$|^__[a-z][a-z0-9_]*__$")
NOT_CONSTANTS = {"__all__", "__slots__", "__path__", "__doc__", "__name__", "__package__"}
MAX_LEAVES = 200  # dict leaves of one setting: a data table is not a setting
MAX_EXPRESSION = 200  # characters of a setting stated as the expression it is computed by
# A module of settings (Django's settings.py, settings/production.py, a project's config.py):
# its UPPER_CASE names are settings whatever their value is built from.
_SETTINGS_MODULE = re.compile(r"(^|/)(settings|config|configuration)(/|\.py$)|(^|/|_)settings(_\w+)?\.py$")


def _purpose(src: _Source, siblings, i: int, name: str) -> str:
    """Words of the name, the statement's trailing comment, and a comment line just above it."""
    stmt = siblings[i]
    first, last = stmt.start_point[0], stmt.end_point[0]
    purpose = [" ".join(_words(name))]
    nxt = siblings[i + 1] if i + 1 < len(siblings) else None
    if nxt is not None and nxt.type == "comment" and nxt.start_point[0] == last:
        purpose.append(_comment_text(src, nxt))
    # the first statement of a class body: a comment above it is the class's, before the block
    prev = siblings[i - 1] if i > 0 else stmt.parent.prev_sibling if stmt.parent is not None else None
    if i == 0 and prev is not None and prev.start_point[1] != stmt.start_point[1]:
        prev = None  # the class line's own trailing comment
    if prev is not None and prev.type == "comment" and prev.end_point[0] == first - 1:
        # ...but not a trailing comment of the statement above, which belongs to that one
        before = siblings[i - 2] if i > 1 else None
        if before is None or before.end_point[0] != prev.start_point[0]:
            purpose.append(_sphinx_block(src, prev) or _comment_text(src, prev))
    return " - ".join(p for p in purpose if p)


MAX_DOC_LINES = 40


def _sphinx_block(src: _Source, last) -> str | None:
    """The whole of a Sphinx ``#:`` doc comment ending with LAST, on one line (click's
    ``#: A unicode string parameter type which is the implicit default.  This`` / ``#: can also
    be selected...``), its first paragraph.  None when LAST is no ``#:`` comment."""
    if not src.text(last).startswith("#:"):
        return None
    run = [last]
    prev = last.prev_sibling
    while len(run) < MAX_DOC_LINES and prev is not None and prev.type == "comment" \
            and src.text(prev).startswith("#:") and prev.end_point[0] == run[-1].start_point[0] - 1:
        run.append(prev)
        prev = prev.prev_sibling
    lines = [_comment_text(src, c) for c in reversed(run)]
    first = lines[:lines.index("")] if "" in lines[1:] else lines  # its first paragraph
    return " ".join(w for w in first if w) or None


def _assignments(src: _Source, block, subscripts: bool = False):
    """Yield (index among block's children, statement, name, value node) of ``NAME = value`` and
    ``NAME: type = value`` statements directly in ``block``; each name of a chained assignment
    (``WAGTAIL_CONTENT_LANGUAGES = LANGUAGES = [...]``) with the one value.  subscripts: also
    ``NAME["a"]["b"] = value`` as ``NAME.a.b`` (a settings module changing one entry of a dict
    its base module set: bakerydemo's ``STORAGES["staticfiles"]["BACKEND"] = ...``)."""
    children = block.children
    for i, stmt in enumerate(children):
        if stmt.type != "expression_statement" or stmt.named_child_count != 1:
            continue
        asg = stmt.named_children[0]
        names = []
        while asg.type == "assignment":
            left, right = asg.child_by_field_name("left"), asg.child_by_field_name("right")
            name = None if left is None else src.text(left) if left.type == "identifier" \
                else _entry(src, left) if subscripts else None
            if name is None or right is None:
                break
            names.append(name)
            asg = right
        else:
            for name in names:
                yield i, stmt, name, asg


def _entry(src: _Source, node) -> str | None:
    """``NAME.a.b`` of the target ``NAME["a"]["b"]`` (string keys only), else None."""
    keys = []
    while node.type == "subscript":
        key = node.child_by_field_name("subscript")
        key = _string_value(src, key) if key is not None else None
        if not key or "." in key:
            return None
        keys.append(key)
        node = node.child_by_field_name("value")
    if not keys or node is None or node.type != "identifier":
        return None
    return ".".join([src.text(node), *reversed(keys)])


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


def _expression(src: _Source, node) -> tuple[str, tuple] | None:
    """A setting computed by code (``os.path.join(PROJECT_DIR, "static")``, ``BASE_DIR / "db"``,
    ``os.environ["SECRET_KEY"]``): the expression as written, on one line and without its
    comments, is what a reader of the settings sees -- not evaluated.  Functions,
    comprehensions and long expressions are not."""
    if node.type in ("lambda", "generator_expression", "list_comprehension",
                     "dictionary_comprehension", "set_comprehension"):
        return None
    cuts, stack = [], [node]
    while stack:
        n = stack.pop()
        if n.type == "comment":
            cuts.append((n.start_byte, n.end_byte))
        elif n.end_point[0] > n.start_point[0]:  # a comment lies on a line of its own or after code
            stack.extend(n.children)
    data, pos, parts = src.data, node.start_byte, []
    for a, b in sorted(cuts):
        parts.append(data[pos:a])
        pos = b
    parts.append(data[pos:node.end_byte])
    text = ""
    for line in b"".join(parts).decode("utf-8", "replace").splitlines():
        line = line.strip().removesuffix("\\").rstrip()  # a continuation's backslash
        if line:  # "[\n    os.path.join(...),\n]" reads "[os.path.join(...),]"
            text += line if not text or text.endswith(("(", "[", "{")) or line.startswith((")", "]", "}")) \
                else " " + line
    return (text, (("expression", "true"),)) if 0 < len(text) <= MAX_EXPRESSION else None


def _value_facts(src: _Source, block, path: str, kind: str, scope: str, accept,
                 settings: bool = False) -> list[Fact]:
    """Facts of the assignments in one block (a module or a class body) whose names pass accept.
    settings: every such name is a setting; one computed by code is stated as written.  Else a
    call or an attribute reference is stated as written too (``page_size = api_settings.PAGE_SIZE``),
    and a dict display -- also the one a call wraps (``ImmutableDict({...})``) -- gives a fact
    per entry."""
    facts = []
    children = block.children
    prefix = f"{scope}." if scope else ""
    for i, stmt, name, right in _assignments(src, block, subscripts=settings):
        if not accept(name.split(".", 1)[0]):
            continue
        first, last = stmt.start_point[0], stmt.end_point[0]
        text = src.rows(first, min(last, first + MAX_TEXT_LINES - 1))
        purpose = _purpose(src, children, i, name)
        entries = _wrapped_dict(src, right)
        if right.type == "dictionary" and _render_literal(src, right) is None:
            items = list(_leaves(src, right, name))[:MAX_LEAVES]
        elif entries is not None:
            items = [(name, right), *list(_leaves(src, entries, name))[:MAX_LEAVES]]
        else:
            items = [(name, right)]
        items += _keywords(src, right, name, path)
        for dotted, node in items:
            got = setting_value(src, node, _render_literal, _string_value)
            if got is None and not scope and not settings:
                got = _instance(src, node)
            if got is None and (settings or _formatted(node) or _stated(src, node)):
                got = _expression(src, node)
            if got is None:
                continue
            value, attrs = got
            line = node.start_point[0] if dotted != name else first
            facts.append(file_setting(
                path, f"{prefix}{dotted}", value, line + 1,
                text if dotted == name else src.lines[line].strip(),
                purpose if dotted == name else f"{' '.join(_words(dotted))} - {purpose}", attrs, kind))
    return facts


def _keywords(src: _Source, node, name: str, path: str) -> list[tuple[str, object]]:
    """(``NAME.argument``, value node) of each keyword argument given a literal (a number, a
    string, a bool, ``None``, a literal container, folded arithmetic, an environment lookup's
    default) in the call an UPPER_CASE constant is made by (httpx's ``DEFAULT_LIMITS =
    Limits(max_connections=100, max_keepalive_connections=20)``): what the object is configured
    with, as a dict constant's entries are.  Not positional arguments (their meaning is the
    callee's), not prose (``help=``), not a nested call, not a type's declaration, not a call
    given one argument (the call as written says as much), not a call the constant's value is
    read through (``os.getenv("HOST", default="0.0.0.0")``, ``parse_bool(os.getenv("X"),
    default=True)``), not in a test file (a test's constants are fixtures)."""
    if node.type != "call" or not UPPER.match(name) or is_test(path):
        return []
    callee = _callee(src, node)
    if not _DOTTED.fullmatch(callee) or callee.rsplit(".", 1)[-1] in _TYPE_CALLS:
        return []
    pos, kw = _args(node)
    if len(pos) + len(kw) < 2:
        return []  # Timeout(timeout=5.0) says no more than the call as written, its own fact
    whole = setting_value(src, node, _render_literal, _string_value)
    if whole is not None and (whole[1] or whole[0] != " ".join(src.text(node).split())) \
            or any(_env(src, a) is not None for a in pos):
        return []  # a value read through the call (an environment lookup's default, int("5"))
    out = []
    for arg, value in kw.items():
        if arg not in _PROSE and value is not None and value.type != "call" \
                and setting_value(src, value, _render_literal, _string_value) is not None:
            out.append((f"{name}.{arg}", value))
    return out


def _wrapped_dict(src: _Source, node):
    """The dict display a call wraps when that is all it is given and the call is no value as a
    whole (``ImmutableDict({"PERMANENT_SESSION_LIFETIME": timedelta(days=31), ...})``), else None."""
    if node.type != "call":
        return None
    args = node.child_by_field_name("arguments")
    items = [a for a in args.named_children if a.type != "comment"] if args is not None else []
    if len(items) != 1 or items[0].type != "dictionary":
        return None
    return items[0] if setting_value(src, node, _render_literal, _string_value) is None else None


def _stated(src: _Source, node) -> bool:
    """A call, an attribute reference or an expression that does not fold, stated as written
    (``PasswordHash((Argon2Hasher(),))``, ``api_settings.PAGE_SIZE``, ``DEFAULT * 2``); not a
    type's declaration (``T = TypeVar("T")``)."""
    if node.type == "attribute":
        return True
    if node.type == "binary_operator":  # on a name: all literals either fold or are refused
        return any(n.type == "identifier" for n in _descendants(node))
    if node.type != "call" or _callee(src, node).rsplit(".", 1)[-1] in _TYPE_CALLS:
        return False
    args = node.child_by_field_name("arguments")
    return args is not None and any(a.type != "comment" for a in args.named_children)  # object(): nothing


_CLASS_NAME = re.compile(r"_?[A-Z]\w*[a-z]\w*")


def _instance(src: _Source, node) -> tuple[str, tuple] | None:
    """A module constant that is an instance of a class made without arguments (click's
    ``UUID: t.Final[UUIDParameterType] = UUIDParameterType()``, ``STRING = StringParamType()``):
    the call as written, as a call given values is (``Limits(max_connections=100)``).  Not
    ``object()`` (a sentinel says nothing) nor a function's result (``now()``)."""
    if node.type != "call":
        return None
    name, args = _callee(src, node), node.child_by_field_name("arguments")
    if args is None or any(a.type != "comment" for a in args.named_children) or not _DOTTED.fullmatch(name):
        return None
    cls = name.rsplit(".", 1)[-1]
    if not _CLASS_NAME.fullmatch(cls) or cls in _TYPE_CALLS:
        return None
    return f"{name}()", ()


def _descendants(node):
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(n.named_children)


def _formatted(node) -> bool:
    """An f-string (``USER_AGENT = f"python-httpx/{__version__}"``): a constant computed only
    from names, stated as written anywhere (other expressions only in settings modules)."""
    return node.type == "string" and any(c.type == "interpolation" for c in node.children)


def _is_constant(name: str) -> bool:
    return bool(CONSTANT_NAME.match(name)) and name not in NOT_CONSTANTS


def _settings(src: _Source, root, path: str) -> list[Fact]:
    """Class-level attributes of the module's settings-like classes, the fields of its data
    models, its public classes' constructor defaults and its public functions' defaults."""
    facts: list[Fact] = []
    config_classes: set[str] = set()
    for child in root.named_children:
        decorators, cls = [], child
        if child.type == "decorated_definition":
            decorators = [c for c in child.named_children if c.type == "decorator"]
            cls = child.child_by_field_name("definition")
        if cls is not None and cls.type == "function_definition":
            facts += _remembered(src, child, path, "function", partial(_function_defaults, src, child, path))
        if cls is None or cls.type != "class_definition":
            continue
        kind = settings_kind(src, cls, decorators, config_classes)
        if cls.child_by_field_name("body") is None:
            continue
        if kind is not None:
            config_classes.add(src.text(cls.child_by_field_name("name")))
        facts += _remembered(src, child, path, kind, partial(_class_settings, src, cls, path, kind))
    return facts


# The facts of one module-level class or function (above) by what they are computed from: the
# exact text of the lines it spans, its path, the class's settings kind (which depends on the
# classes above it) and the module's environment-reading functions.  A file version shares most
# definitions with the one before, and computing their facts again was a fifth of mining a
# Django history.  Kept with the row the definition started on, to shift their lines.
_DEFINED: dict[tuple, tuple[int, list[Fact]]] = {}
DEFINED_MAX = 8192


def _remembered(src: _Source, node, path: str, kind: str | None, make: Callable[[], list[Fact]]) -> list[Fact]:
    lo = src.data.rfind(b"\n", 0, node.start_byte) + 1
    hi = src.data.find(b"\n", node.end_byte)
    span = src.data[lo:] if hi < 0 else src.data[lo:hi]
    key = (path, kind, src.env_functions, hashlib.blake2b(span, digest_size=16).digest())
    row = node.start_point[0]
    got = _DEFINED.get(key)
    if got is None:
        got = remember(_DEFINED, key, (row, make()), DEFINED_MAX)
    if got[0] == row:
        return got[1]
    return [dataclasses.replace(f, line=f.line + row - got[0]) for f in got[1]]


def _class_settings(src: _Source, cls, path: str, kind: str | None) -> list[Fact]:
    """A class's settings (KIND: see settings_kind) or, when it is none, its fields and public
    attributes; then its constructor's and public methods' defaults."""
    body = cls.child_by_field_name("body")
    if kind is None:
        own = _fields(src, cls, body, path)
        fields = {f.key for f in own}
        own += [f for f in _attributes(src, cls, body, path) if f.key not in fields]
    else:
        name = src.text(cls.child_by_field_name("name"))
        accept: Callable[[str], object]
        if kind == "upper":
            accept = UPPER.match
        else:
            def accept(n):
                return not n.startswith("_") and n not in ("model_config", "Config")
        own = _value_facts(src, body, path, CONFIG, name, accept, settings=kind == "upper")
        if kind == "model":
            own += _annotated(src, body, path, name, accept)
        own += _field_options(src, body, path, name, {f.key for f in own})
    # the constructor's defaults after the class's own fields and settings (a dataclass's
    # generated __init__ has none; a hand-written one may repeat a field's name)
    keys = {f.key for f in own}
    return own + [f for f in _init_defaults(src, cls, body, path) if f.key not in keys] \
        + _method_defaults(src, cls, body, path)


# A data model's fields (Django, SQLAlchemy, Peewee, mongoengine, Wagtail, DRF serializers, WTForms):
# class attributes bound to a call of a field or column type.
_FIELD_CALL = re.compile(r"(?:^|\.)(?:\w*Field|\w*Column|mapped_column|ForeignKey|ParentalKey|"
                         r"relationship|Relationship)$")


def _fields(src: _Source, cls, body, path: str) -> list[Fact]:
    """The fields of a model class (not a settings class): ``config:<path>:<Class>.<field>``,
    its ``default=`` when it has a value (``IntegerField(default=5)``: 5), else the field's
    definition as written (``models.CharField(max_length=255, blank=True)``); and its options
    (see call_options)."""
    facts = []
    name = src.text(cls.child_by_field_name("name"))
    for i, stmt, field, right in _assignments(src, body):
        if right.type != "call" or field.startswith("_") \
                or not _FIELD_CALL.search(_callee(src, right)):
            continue
        got = _expression(src, right)
        if got is None:
            continue
        default = _args(right)[1].get("default")
        given = setting_value(src, default, _render_literal, _string_value) if default is not None else None
        first, last = stmt.start_point[0], stmt.end_point[0]
        purpose = f"{_purpose(src, body.children, i, field)} - a field of {name}"
        facts.append(file_setting(
            path, f"{name}.{field}", given[0] if given is not None else got[0], first + 1,
            src.rows(first, min(last, first + MAX_TEXT_LINES - 1)), purpose,
            tuple(sorted({("field", "true"), *((("default", "true"), *given[1]) if given else ())}))))
        facts += call_options(src, right, path, f"{name}.{field}", purpose, skip=("default",))
    return facts


# Keyword arguments that are prose (the option's help), not how it is configured.
_PROSE = {"help", "help_text", "description", "verbose_name", "verbose_name_plural", "title", "doc",
          "comment", "example", "examples", "metavar", "rich_help_panel"}


def call_options(src: _Source, call, path: str, target: str, purpose: str, skip=(),
                 attrs: tuple = ()) -> list[Fact]:
    """``config:<path>:<target>.<argument>`` for each keyword argument of a call that configures
    TARGET (a field's ``max_length=255``, a middleware's ``allow_origins=[...]``, a CLI option's
    ``default=5000``) whose value is a value (see setting_value), not prose; attrs ``option``
    and ATTRS."""
    facts = []
    args = call.child_by_field_name("arguments")
    for kw in args.named_children if args is not None else ():
        if kw.type != "keyword_argument":
            continue
        arg, value = src.text(kw.child_by_field_name("name")), kw.child_by_field_name("value")
        if arg in skip or arg in _PROSE or value is None:
            continue
        got = setting_value(src, value, _render_literal, _string_value)
        if got is None:
            continue
        line, first = kw.start_point[0], call.start_point[0]
        first = first if line - first < MAX_TEXT_LINES else line  # the call's line when it is near
        facts.append(file_setting(
            path, f"{target}.{arg}", got[0], line + 1, src.rows(first, line),
            f"{' '.join(_words(arg))} - of {target} - {purpose}",
            tuple(sorted({*got[1], *attrs, ("option", "true")}))))
    return facts


def _annotated(src: _Source, body, path: str, name: str, accept) -> list[Fact]:
    """A settings model's attributes declared with a type and no value (``DATABASE_URL:
    PostgresDsn``): required, their value is the type declared; attrs ``annotation``."""
    facts = []
    children = body.children
    for i, stmt in enumerate(children):
        if stmt.type != "expression_statement" or stmt.named_child_count != 1:
            continue
        asg = stmt.named_children[0]
        left, kind = asg.child_by_field_name("left"), asg.child_by_field_name("type")
        if asg.type != "assignment" or asg.child_by_field_name("right") is not None or left is None \
                or left.type != "identifier" or kind is None or not accept(src.text(left)):
            continue
        field, declared = src.text(left), " ".join(src.text(kind).split())
        if declared.startswith(("ClassVar", "typing.ClassVar")):
            continue
        line = stmt.start_point[0]
        facts.append(file_setting(
            path, f"{name}.{field}", declared, line + 1, src.lines[line].strip(),
            f"{_purpose(src, children, i, field)} - required, a setting of {name}", (("annotation", "true"),)))
    return facts


def _field_options(src: _Source, body, path: str, name: str, taken: set[str]) -> list[Fact]:
    """The options of a settings class's fields (``email: str = Field(max_length=255)``)."""
    facts = []
    for _, _, field, right in _assignments(src, body):
        if right.type == "call" and not field.startswith("_") and _FIELD_CALL.search(_callee(src, right)):
            facts += [f for f in call_options(src, right, path, f"{name}.{field}", f"a field of {name}",
                                              skip=("default",)) if f.key not in taken]
    return facts


def _attributes(src: _Source, cls, body, path: str) -> list[Fact]:
    """A public class's public class attributes (click's ``UsageError.exit_code = 2``, httpx's
    ``IteratorByteStream.CHUNK_SIZE = 65536``, ``max_limit = None``, ``page_size =
    api_settings.PAGE_SIZE`` as written, each entry of ``default_config = ImmutableDict({...})``):
    what every instance has unless told otherwise, ``config:<path>:<Class>.<name>``, attrs
    ``class``.  Not a field (see _fields), nor in a test file."""
    name = src.text(cls.child_by_field_name("name"))
    if name.startswith("_") or is_test(path):  # a test's class is a fixture
        return []
    out = []
    for f in _value_facts(src, body, path, CONFIG, name, lambda n: not n.startswith("_")):
        out.append(dataclasses.replace(f, attrs=tuple(sorted({*f.attrs, ("class", "true")})),
                                       purpose=f"{f.purpose} - an attribute of class {name}"))
    return out


# A default that means "not given": the value used is decided in the body (click's
# help_option_names=None is ["--help"] unless a parent context says otherwise).
_UNSET = re.compile(r"^(?:None|\.\.\.|_?[A-Z_]*(?:UNSET|NOT_?SET|MISSING|SENTINEL)[A-Z_]*|\w*_DEFAULT)$")


def _init_defaults(src: _Source, cls, body, path: str) -> list[Fact]:
    """The defaults of a public class's constructor, outside tests: what an object is configured
    with unless told otherwise (``Limits(keepalive_expiry=5.0)``, ``Client(follow_redirects=False)``),
    as ``config:<path>:<Class>.<parameter>`` = the default as written; attrs ``default``.  A
    configuration class's (named ``...Config``, ``...Settings``) ``None`` default is stated too
    (uvicorn's ``Config(headers=None, workers=None)``): its signature is the configuration, and
    "not set" is a value there, where another class's ``None`` (``Command(help=None)``) only
    says "not given"; not when the body binds the parameter to a literal of its own (``if
    max_width is None: max_width = 80``: that local is the default)."""
    name = src.text(cls.child_by_field_name("name"))
    init = next((d for d in map(_definition, body.named_children) if d is not None
                 and src.text(d.child_by_field_name("name")) == "__init__"), None)
    if name.startswith("_") or init is None or is_test(path):  # a test's class is a fixture
        return []
    return _defaults(src, init, path, name, f"the default {name} is made with",
                     none=_CONFIG_CLASS.search(name) is not None)


def _function_defaults(src: _Source, node, path: str) -> list[Fact]:
    """The parameter defaults of a public module-level function, outside tests (click's
    ``prompt(prompt_suffix=": ")``, httpx's ``get(follow_redirects=False)``): what a call does
    unless told otherwise, ``config:<path>:<function>.<parameter>``; attrs ``default`` and
    ``parameter``.  Not an ``@overload`` stub's (the implementation's are the defaults)."""
    fn = _definition(node)
    if fn is None or is_test(path) or _overload(src, node):
        return []
    name = src.text(fn.child_by_field_name("name"))
    if name.startswith("_"):
        return []
    return _defaults(src, fn, path, name, f"a default of {name}()", (("parameter", "true"),))


def _method_defaults(src: _Source, cls, body, path: str) -> list[Fact]:
    """The parameter defaults of a public class's public methods, outside tests (microblog's
    ``User.get_token(expires_in=3600)``, click's ``HelpFormatter.write_dl(col_max=30)``), as a
    module-level function's: ``config:<path>:<Class>.<method>.<parameter>``.  Not the
    constructor's (see _init_defaults), nor an ``@overload`` stub's; of two definitions of one
    method (a property's setter) the first."""
    name = src.text(cls.child_by_field_name("name"))
    if name.startswith("_") or is_test(path):
        return []
    facts: list[Fact] = []
    seen: set[str] = set()
    for node in body.named_children:
        fn = _definition(node)
        if fn is None or _overload(src, node):
            continue
        method = src.text(fn.child_by_field_name("name"))
        if method.startswith("_") or method in seen:
            continue
        seen.add(method)
        facts += _defaults(src, fn, path, f"{name}.{method}", f"a default of {name}.{method}()",
                           (("parameter", "true"),))
    return facts


def _overload(src: _Source, node) -> bool:
    """Whether a definition is an ``@overload`` stub."""
    return node.type == "decorated_definition" and any(
        src.text(d).lstrip("@").split("(")[0].rsplit(".", 1)[-1] == "overload"
        for d in node.named_children if d.type == "decorator")


def _defaults(src: _Source, fn, path: str, owner: str, said: str, attrs: tuple = (),
              none: bool = False) -> list[Fact]:
    """``config:<path>:<owner>.<parameter>`` = each parameter's default as written, unless it
    means "not given" (_UNSET; ``None`` counts as a value when NONE) or the parameter is private;
    attrs ``default`` and ATTRS."""
    params = fn.child_by_field_name("parameters")
    if params is None:
        return []
    facts = []
    rebound: set[str] | None = None
    for param in params.named_children:
        if param.type not in ("default_parameter", "typed_default_parameter"):
            continue
        pname, value = param.child_by_field_name("name"), param.child_by_field_name("value")
        if pname is None or value is None or src.text(pname).startswith("_"):
            continue
        got = setting_value(src, value, _render_literal, _string_value) or _expression(src, value)
        if got is None:
            continue
        field = src.text(pname)
        if _UNSET.match(got[0]):
            stated = none and got[0] == "None"  # a configuration's None is a value of its own...
            if stated:
                rebound = _rebound(src, fn) if rebound is None else rebound
                stated = field not in rebound  # ...unless the body binds the name to a literal
            effective = None if stated else effective_default(src, fn, field, got[0])
            if effective is not None:  # the value "not given" stands for
                facts.append(_unset_default(src, path, owner, field, said, attrs, got[0], param, effective))
            if not stated:
                continue
        line = param.start_point[0]
        facts.append(file_setting(
            path, f"{owner}.{field}", got[0], line + 1, src.lines[line].strip(),
            f"{' '.join(_words(field))} - {said}",
            tuple(sorted({*got[1], *attrs, ("default", "true")} - {("expression", "true")}))))
    return facts


def _unset_default(src: _Source, path: str, owner: str, field: str, said: str, attrs: tuple, unset: str,
                   param, effective: tuple[str, list[int]]) -> Fact:
    """The parameter FIELD's fact stating the value its body gives it when it is UNSET (see
    _pyunset): keyed as the default as written would be, attrs ``unset`` = that default; its text
    the parameter's line and the lines that give the value."""
    value, rows = effective
    line = param.start_point[0]
    return file_setting(
        path, f"{owner}.{field}", value, rows[-1] + 1,
        "\n".join([src.lines[line].strip(), *(src.lines[r] for r in rows)]),
        f"{' '.join(_words(field))} - {said}, when given {unset}",
        tuple(sorted({*attrs, ("default", "true"), ("unset", unset)})))


# What a body binds a parameter to when it gives the default itself: a literal.
_LITERALS = frozenset({"integer", "float", "string", "true", "false", "unary_operator", "binary_operator",
                       "list", "tuple", "dictionary", "set"})


def _rebound(src: _Source, fn) -> set[str]:
    """The names a function's body binds to a literal (``max_width = 80``)."""
    body = fn.child_by_field_name("body")
    out = set()
    for n in _descendants(body) if body is not None else ():
        if n.type == "assignment":
            left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
            if left is not None and right is not None and left.type == "identifier" and right.type in _LITERALS:
                out.add(src.text(left))
    return out


def _definition(node):
    """The function a class body's statement defines (through its decorators), else None."""
    if node.type == "decorated_definition":
        node = node.child_by_field_name("definition")
    return node if node is not None and node.type == "function_definition" else None


# Module-level blocks whose statements run when the module loads: settings chosen by a
# condition (``if DEBUG:``, ``if "DATABASE_URL" in os.environ: ... else: ...``) or guarded by a
# ``try``.  Function and class bodies are not looked into.
_BLOCKS = {"if_statement", "elif_clause", "else_clause", "try_statement", "except_clause",
           "finally_clause", "with_statement", "block"}


def _blocks(node, depth: int = 0):
    """The statement blocks nested in NODE's if/try/with statements, in source order."""
    if depth > 8:
        return
    for child in node.named_children:
        if child.type not in _BLOCKS:
            continue
        if child.type == "block":
            yield child
        yield from _blocks(child, depth + 1)


def constants_and_settings(src: _Source, root, path: str) -> list[Fact]:
    """Module constants, then those only assigned inside module-level if/try/with blocks (the
    first branch in source order that assigns a name gives its value, and attrs say
    ``conditional``: the value the module has unless a condition says otherwise), then the
    settings classes' attributes."""
    src.env_functions = env_functions(src, root)
    settings = bool(_SETTINGS_MODULE.search(path))
    facts = _value_facts(src, root, path, CONSTANT, "", _is_constant, settings)
    seen = {f.key for f in facts}
    for block in _blocks(root):
        for f in _value_facts(src, block, path, CONSTANT, "", _is_constant, settings):
            if f.key not in seen:
                seen.add(f.key)
                facts.append(dataclasses.replace(
                    f, attrs=tuple(sorted((*f.attrs, ("conditional", "true"))))))
    return facts + _object_settings(src, root, path) + _settings(src, root, path)


def _object_settings(src: _Source, root, path: str) -> list[Fact]:
    """An attribute a module sets on an object it made at its top (Flask-Login's
    ``login = LoginManager(); login.login_view = 'auth.login'``) to a value:
    ``config:<path>:login.login_view``, attrs ``attribute``.  Not a private name's, not in a
    test file."""
    made = {name for _, _, name, right in _assignments(src, root) if right.type == "call"}
    facts: list[Fact] = []
    if not made or is_test(path):
        return facts
    children = root.children
    for i, stmt in enumerate(children):
        if stmt.type != "expression_statement" or stmt.named_child_count != 1 \
                or stmt.named_children[0].type != "assignment":
            continue
        asg = stmt.named_children[0]
        left, right = asg.child_by_field_name("left"), asg.child_by_field_name("right")
        if left is None or right is None or left.type != "attribute":
            continue
        owner, attr = left.child_by_field_name("object"), left.child_by_field_name("attribute")
        if owner is None or attr is None or owner.type != "identifier" \
                or src.text(owner) not in made or src.text(attr).startswith("_"):
            continue
        got = setting_value(src, right, _render_literal, _string_value)
        if got is None or got[1]:
            continue
        dotted = f"{src.text(owner)}.{src.text(attr)}"
        row = stmt.start_point[0]
        facts.append(file_setting(path, dotted, got[0], row + 1,
                                  src.rows(row, min(stmt.end_point[0], row + MAX_TEXT_LINES - 1)),
                                  _purpose(src, children, i, dotted), (("attribute", "true"),)))
    return facts
