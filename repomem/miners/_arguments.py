"""A value a function passes to a call by name, or binds a local name to: what the code is set
up with where no setting names it.  Python's keyword arguments (microblog's
``RotatingFileHandler('logs/microblog.log', maxBytes=10240, backupCount=10)`` in ``create_app``)
and a JS/TS object literal's properties (``jwt.sign(payload, secret, { expiresIn: '60d' })`` in
``generateToken``) are settings keyed by the function, the callee and the name:
``config:<path>:<function>.<callee>.<name>``, attrs ``argument``.  A number a function's body
binds a local name to (express's ``var status = 302`` in ``res.redirect``, click's
``max_width = 80`` when none is given) is ``config:<path>:<function>.<name>``, attrs ``local``;
not 0, 1 or -1 (a counter, a flag).

Only a number or a quantity (``'60d'``, ``'10mb'``): a string passed by name is mostly a label,
a mode or a message, and a flag says little without its call.  Not at a module's top (its
settings are mined as such), nor in tests or schema migrations (a migration's ``String(length=64)``
is history: the model says what stands).  Of two calls in one function passing the same name to
the same callee, the first; at most MAX_PER_FILE a file (a generated table of numbers must not
take a file past the miners' limit on facts, which would skip the whole file).

A call given one number among its arguments passes a setting too, though no name says which:
gin's ``db.DB().SetMaxIdleConns(10)`` in ``Init``, node-express-realworld's
``bcrypt.hash(password, 10)``, mini-redis's ``broadcast::channel(1024)``.  Exactly one number
(literal arithmetic folded: ``4 * 1024`` is ``4096``), not 0, 1 or -1, is
``config:<path>:<function>.<callee>``, attrs ``argument`` and ``position`` (1 for the first);
the callee dotted (``broadcast.channel``; a call's result is named by its callee,
``db.DB.SetMaxIdleConns``).  Not a callee whose number counts, indexes, formats, rounds or
waits rather than sets something up (``range(10)``, ``s.substring(0, 5)``, ``parseInt(x,
10)``, ``time.Sleep``: NOT_SETTINGS), nor a private helper's (``_set_progress(100)``), nor
an error's or a response's status (``createError(406)``, ``ws.close(1012)``), nor a
``set(name, value)``'s, whose name says what the number is.

A struct literal a function body makes (Go's ``&http.Server{ReadTimeout: 10}``, Rust's
``Connection { buffer: BytesMut::with_capacity(4 * 1024) }``) states each field given a number
or a quantity, a call given only one number, or a number times a unit (``10 * time.Second``, as
written, attrs ``expression``): ``config:<path>:<function>.<Type>.<field>``, attrs ``field``;
not a field a constructor's literal states as a default (lang/values.py)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from repomem.core.model import CONFIG, Fact
from repomem.core.paths import is_migration, is_test
from repomem.miners._text import words

QUANTITY = re.compile(r"\d+(?:\.\d+)?\s*[A-Za-z]{0,5}")  # '60d', '10mb', '500ms', '1.5h'
_CALLEE = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*")
_RECEIVERS = ("self.", "cls.", "this.")  # the object's own: its name says nothing
MAX_PER_FILE = 200


def mined_in(path: str) -> bool:
    """Whether a file's calls are mined for their arguments."""
    return not is_test(path) and not is_migration(path)


def callee_name(text: str) -> str | None:
    """A callee as a dotted name (``jwt.sign``; ``self.session.get`` is ``session.get``), or None
    for one that is not a plain name (``make()(x=1)``, ``items[0].run(...)``)."""
    name = re.sub(r"\s+", "", text)
    for receiver in _RECEIVERS:
        if name.startswith(receiver):
            name = name[len(receiver):]
            break
    return name if _CALLEE.fullmatch(name) else None


def argument_fact(path: str, function: str, callee: str, name: str, value: str, line: int,
                  text: str) -> Fact:
    """The fact of NAME=VALUE passed to CALLEE by FUNCTION (a qualified name) at LINE (0-based)."""
    dotted = f"{function}.{callee}.{name}"
    return Fact(key=f"{CONFIG}:{path}:{dotted}", kind=CONFIG, subject=f"{dotted} in {path}",
                value=value, attrs=(("argument", "true"),), path=path, line=line + 1, text=text,
                purpose=f"{words(name)} - passed to {callee}() by {function}()")


def local_fact(path: str, function: str, name: str, value: str, line: int, text: str) -> Fact:
    """The fact of FUNCTION binding its local NAME to VALUE at LINE (0-based): ``var status =
    302`` in express's ``res.redirect``, the status unless the caller gives one."""
    dotted = f"{function}.{name}"
    return Fact(key=f"{CONFIG}:{path}:{dotted}", kind=CONFIG, subject=f"{dotted} in {path}",
                value=value, attrs=(("local", "true"),), path=path, line=line + 1, text=text,
                purpose=f"{words(name)} - set in {function}()")


def number_fact(path: str, function: str, callee: str, value: str, position: int, line: int,
                text: str) -> Fact:
    """The fact of the one number FUNCTION passes to CALLEE, as its argument POSITION (1-based)."""
    dotted = f"{function}.{callee}"
    return Fact(key=f"{CONFIG}:{path}:{dotted}", kind=CONFIG, subject=f"{dotted} in {path}",
                value=value, attrs=(("argument", "true"), ("position", str(position))), path=path,
                line=line + 1, text=text,
                purpose=f"{words(callee.rsplit('.', 1)[-1])} - the number {function}() passes to {callee}()")


def field_fact(path: str, function: str, type_name: str, field: str, value: str, line: int,
               text: str, attrs: tuple = ()) -> Fact:
    """The fact of FIELD given VALUE in the TYPE_NAME literal FUNCTION makes (ATTRS: how the
    value is stated, ``expression`` when as written)."""
    dotted = f"{function}.{type_name}.{field}"
    return Fact(key=f"{CONFIG}:{path}:{dotted}", kind=CONFIG, subject=f"{dotted} in {path}",
                value=value, attrs=tuple(sorted({("field", "true"), *attrs})), path=path, line=line + 1, text=text,
                purpose=f"{words(field)} - the {type_name} {function}() makes")


# Callees whose one number is no setting: it counts, indexes, slices, rounds, converts, formats,
# prints, waits or exits (the last name of the callee, lower-cased).
NOT_SETTINGS = frozenset((
    "range", "len", "round", "print", "println", "printf", "sprintf", "fprintf", "format", "errorf",
    "itoa", "atoi", "str", "int", "float", "number", "bool", "chr", "hex", "valueof",
    "parseint", "parsefloat", "formatint", "parseuint", "tostring", "tofixed", "toprecision",
    "slice", "substring", "substr", "splice", "charat", "charcodeat", "codepointat", "at", "get", "nth",
    "skip", "take", "split", "splitn", "rsplit", "repeat", "pad", "padstart", "padend", "ljust", "rjust",
    "zfill", "center", "pow", "min", "max", "floor", "ceil", "abs", "sqrt", "exit", "sleep", "advance",
    "insert", "remove", "pop", "push", "append", "truncate", "fill", "index", "seek", "read", "write",
    "readexact", "lastindexof", "indexof", "startswith", "endswith", "expect", "assert", "assert_eq",
    "status", "sendstatus", "writeheader", "abort", "abortwithstatus", "abortwithstatusjson", "json",
    "string", "data", "redirect", "error", "warn", "warning", "info", "debug", "log", "fatal", "panic",
    "exception", "echo", "secho", "style", "wrap", "indent", "shorten", "dedent", "encode", "decode",
    "join", "bytes", "set", "group", "randrange", "randint", "update", "add", "sub", "mul", "div", "rem", "shl", "shr",
))
# A call whose one number is a status or a close code: createError(406), error_response(400),
# HTTPException(404), ws.close(1012), conn.reject(500)
_STATUS_CALL = re.compile(r"(?i)error|exception|response|reject|close|abort|status|fail")
_CALL_RESULT = re.compile(r"\((?:[^()]|\([^()]*\))*\)")


def call_name(text: str) -> str | None:
    """A callee as a dotted name for the one number it is given: as callee_name, a Rust path's
    ``::`` a dot (``broadcast.channel``), a call's result named by its callee
    (``db.DB().SetMaxIdleConns`` is ``db.DB.SetMaxIdleConns``); None for a callee whose
    number is no setting (NOT_SETTINGS, a private helper, a status's)."""
    name = callee_name(_CALL_RESULT.sub("", text).replace("::", "."))
    last = name.rsplit(".", 1)[-1] if name is not None else ""
    if name is None or last.startswith("_") or last.lower() in NOT_SETTINGS \
            or _STATUS_CALL.search(last):
        return None
    return name


_COUNTERS = re.compile(r"[-+]?[01](?:\.0*)?")


def is_counter(value: str) -> bool:
    """0, 1 or -1: what a local counts from, or a flag, not a setting."""
    return _COUNTERS.fullmatch(value) is not None


def only_number(values: Iterable[str | None]) -> tuple[int, str] | None:
    """(position from 1, value) of the one number among a call's positional arguments (VALUES:
    each argument's number, None for one that is none), when exactly one is and it is no
    counter; else None."""
    found = [(i, v) for i, v in enumerate(values, 1) if v is not None]
    return found[0] if len(found) == 1 and not is_counter(found[0][1]) else None


def kept(facts: list[Fact], taken: set[str]) -> list[Fact]:
    """The first MAX_PER_FILE facts whose key is not taken (by another fact of the file, or an
    earlier call)."""
    out = []
    for f in facts:
        if f.key not in taken:
            taken.add(f.key)
            out.append(f)
    return out[:MAX_PER_FILE]
