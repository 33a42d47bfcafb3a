"""Values of Python settings read from the syntax tree, never by running code.

* literal arithmetic is folded by a bounded evaluator (``60 * 24 * 8`` -> ``11520``, ``32 << 20``
  -> ``33554432``): only numeric literals, unary +/-, parentheses and + - * / // % ** << >> | & ^,
  with a small exponent, shift and result size, so a hostile ``9 ** 9 ** 9`` costs nothing;
* an environment lookup with a default (``os.environ.get("PORT", 8000)``, ``os.getenv(...)``,
  ``os.environ.get("KEY") or "dev"``, wrapped in ``int(...)`` or not) is worth its default, and
  says in its attrs which variable overrides it (``env``); without a default it is ``None``;
* a call whose every argument is such a value (``Timeout(timeout=5.0)``, ``timedelta(days=7)``)
  is worth the call as written;
* settings-like classes (pydantic models and settings, dataclasses, attrs classes, and
  ``class Config``-style classes whose UPPER_CASE attributes are settings) are recognised here.
"""

from __future__ import annotations

import ast
import json
import operator
import re

MAX_EXPONENT = 64
MAX_DIGITS = 40  # a folded integer longer than this is not a setting anyone wrote by hand
_OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
        "//": operator.floordiv, "%": operator.mod, "**": operator.pow, "<<": operator.lshift,
        ">>": operator.rshift, "|": operator.or_, "&": operator.and_, "^": operator.xor}
_ENV_CALLS = {"os.environ.get", "environ.get", "os.getenv", "getenv", "env", "env.str", "env.int",
              "env.bool", "config"}  # config(): python-decouple
_CASTS = {"int", "float", "str", "bool", "Decimal"}
# gettext's markers of a translatable message, as projects import them
_TRANSLATED = {"_", "_l", "gettext", "gettext_lazy", "lazy_gettext", "ugettext", "ugettext_lazy"}
_SETTINGS_BASES = re.compile(r"(^|\.)(BaseSettings|BaseModel|BaseConfig|SQLModel|Schema)$")
_CONFIG_CLASS = re.compile(r"(Config|Settings|Configuration|Conf)$")
_DATACLASS_DECOS = re.compile(r"^@\s*(dataclasses\.)?dataclass\b|^@\s*(attr|attrs)\.(s|define|"
                              r"frozen|mutable|attrs)\b|^@\s*(define|frozen|mutable)\b")
UPPER = re.compile(r"^_?[A-Z][A-Z0-9_]*$")


class _TooBig(Exception):
    pass


def _number(src, node):
    t = node.type
    if t == "integer":
        return int(src.text(node).replace("_", ""), 0)
    if t == "float":
        return float(src.text(node).replace("_", ""))
    if t == "parenthesized_expression" and node.named_child_count == 1:
        return _number(src, node.named_children[0])
    if t == "unary_operator":
        arg = _number(src, node.child_by_field_name("argument"))
        op = node.children[0].type
        if op == "-":
            return -arg
        if op == "+":
            return arg
        raise ValueError(op)
    if t == "binary_operator":
        op = node.child_by_field_name("operator").type
        if op not in _OPS:
            raise ValueError(op)
        a = _number(src, node.child_by_field_name("left"))
        b = _number(src, node.child_by_field_name("right"))
        if op == "**" and (not isinstance(b, int) or abs(b) > MAX_EXPONENT or abs(a) > 10 ** 6):
            raise _TooBig(op)
        if op == "<<" and (not isinstance(b, int) or b > 4 * MAX_DIGITS):
            raise _TooBig(op)
        out = _OPS[op](a, b)
        if isinstance(out, int) and len(str(abs(out))) > MAX_DIGITS:
            raise _TooBig(op)
        return out
    raise ValueError(t)


def fold(src, node) -> str | None:
    """The value of a literal arithmetic expression (``None`` for anything else, or too big)."""
    if node is None or node.type not in ("binary_operator", "unary_operator",
                                         "parenthesized_expression"):
        return None
    try:
        value = _number(src, node)
    except (ValueError, ZeroDivisionError, OverflowError, _TooBig, TypeError, AttributeError):
        return None
    if isinstance(value, complex):
        return None
    return repr(value)


def _callee(src, call) -> str:
    f = call.child_by_field_name("function")
    return src.text(f) if f is not None else ""


def _args(call):
    args = call.child_by_field_name("arguments")
    if args is None:
        return [], {}
    pos = [a for a in args.named_children if a.type not in ("keyword_argument", "comment")]
    kw = {}
    for a in args.named_children:
        if a.type == "keyword_argument":
            kw[a.child_by_field_name("name").text.decode()] = a.child_by_field_name("value")
    return pos, kw


def setting_value(src, node, literal, string) -> tuple[str, tuple] | None:
    """(value, attrs) of an assigned expression, or None when it is not a value we can state.

    ``literal(src, node)`` renders a pure literal and ``string(src, node)`` gives a string
    literal's content (the miner's own helpers)."""
    if node is None:
        return None
    v = string(src, node)
    if v is not None:
        return v, ()
    v = literal(src, node)
    if v is not None:
        return v, ()
    v = fold(src, node)
    if v is not None:
        return v, ()
    if node.type == "parenthesized_expression" and node.named_child_count == 1:
        return setting_value(src, node.named_children[0], literal, string)
    if node.type == "boolean_operator" and src.text(node.children[1]) == "or":
        env = _env(src, node.child_by_field_name("left"))
        default = setting_value(src, node.child_by_field_name("right"), literal, string)
        if env is not None and default is not None and not default[1]:
            return default[0], (("env", env[0]),)
        return None
    if node.type == "call":
        name = _callee(src, node)
        pos, kw = _args(node)
        split = _split_env(src, node, literal, string)
        if split is not None:
            return split
        if (name in _CASTS or name in _TRANSLATED) and len(pos) == 1 and not kw:
            return setting_value(src, pos[0], literal, string)  # int("5"); _("Options"): the
            # message a translation marker looks up is the text shown where none is installed
        if name in ("Field", "pydantic.Field") and (pos or "default" in kw):
            return setting_value(src, pos[0] if pos else kw["default"], literal, string)
        env = _env(src, node)
        if env is not None:
            var, default = env
            if default is None:
                return "None", (("env", var),)
            got = setting_value(src, default, literal, string)
            return (got[0], (("env", var),)) if got is not None and not got[1] else None
        return _constructed(src, node, name, pos, kw, literal, string)
    return None


# Calls that declare a type, not a value (``T = TypeVar("T")``).
_TYPE_CALLS = {"TypeVar", "NewType", "ParamSpec", "TypeVarTuple", "TypeAliasType", "NamedTuple",
               "TypedDict", "namedtuple"}


_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")


def _constructed(src, call, name: str, pos, kw, literal, string) -> tuple[str, tuple] | None:
    """A call whose every argument is a value (``Timeout(timeout=5.0)``, ``timedelta(days=7)``,
    ``re.compile("^v[0-9]+")``): the call as written, whitespace collapsed -- what the setting is
    built from is the setting.  Argument-less calls (``object()``) state nothing."""
    if (not pos and not kw) or not _DOTTED.fullmatch(name) or name.rsplit(".", 1)[-1] in _TYPE_CALLS:
        return None  # nothing given, a type, or a call on a call's result (os.getenv("A").split(","))
    for arg in [*pos, *kw.values()]:
        got = setting_value(src, arg, literal, string)
        if got is None or got[1]:
            return None
    return " ".join(src.text(call).split()), ()


def _split_env(src, call, literal, string):
    """``os.getenv("HOSTS", "a,b").split(",")`` (Django's ALLOWED_HOSTS): the default's items."""
    f = call.child_by_field_name("function")
    if f is None or f.type != "attribute" or src.text(f.child_by_field_name("attribute")) != "split":
        return None
    env = _env(src, f.child_by_field_name("object"))
    pos, kw = _args(call)
    sep = string(src, pos[0]) if len(pos) == 1 and not kw else None
    if env is None or env[1] is None or not sep:
        return None
    default = string(src, env[1])
    if default is None:
        return None
    return json.dumps(default.split(sep)), (("env", env[0]),)


# A function named for reading the environment (a project's own envint("X", "30"), get_env).
_ENV_NAME = re.compile(r"(?:get_?)?env(?:iron)?(?:_?(?:int|integer|bool|boolean|float|str|string|list|"
                       r"dict|json|path|url|csv|tuple|var|default|or_default))?")


def reads_env(src, name: str) -> bool:
    """Whether a call of NAME is an environment lookup: a known one, a function named for it,
    or one the file defines whose body reads the environment (see env_functions)."""
    return name in _ENV_CALLS or bool(_ENV_NAME.fullmatch(name.rsplit(".", 1)[-1])) \
        or name in getattr(src, "env_functions", ())


_READS_ENV = re.compile(rb"\bos\.environ\b|\bgetenv\(|\benviron\.get\(|\benviron\[")


def env_functions(src, root) -> frozenset[str]:
    """The module-level functions whose body reads the environment (``def envbool(s, default):
    v = os.getenv(s, default=default) ...``): a default passed to them is the setting's."""
    names = set()
    for child in root.named_children:
        fn = child.child_by_field_name("definition") if child.type == "decorated_definition" else child
        if fn is not None and fn.type == "function_definition" \
                and _READS_ENV.search(src.data, fn.start_byte, fn.end_byte):
            names.add(src.text(fn.child_by_field_name("name")))
    return frozenset(names)


def _env(src, node):
    """(variable, default node or None) for an environment lookup call, else None."""
    if node is None or node.type != "call" or not reads_env(src, _callee(src, node)):
        return None
    pos, kw = _args(node)
    if not pos or pos[0].type != "string":
        return None
    try:
        name = ast.literal_eval(src.text(pos[0]))
    except (ValueError, SyntaxError):
        return None
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        return None
    default = pos[1] if len(pos) > 1 else kw.get("default")
    return name, default


def settings_kind(src, cls, decorators, config_classes: set[str]) -> str | None:
    """'model' (every public annotated or assigned attribute is a setting), 'upper' (only the
    UPPER_CASE ones: a Flask/Django-style Config class) or None (not a settings class)."""
    if any(_DATACLASS_DECOS.match(src.text(d)) for d in decorators):
        return "model"
    sup = cls.child_by_field_name("superclasses")
    bases = [src.text(b) for b in sup.named_children] if sup is not None else []
    if any(_SETTINGS_BASES.search(b) for b in bases):
        return "model"
    name = src.text(cls.child_by_field_name("name"))
    if _CONFIG_CLASS.search(name) or any(b in config_classes for b in bases):
        return "upper"
    return None
