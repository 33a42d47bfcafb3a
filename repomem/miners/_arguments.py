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
not a field a constructor's literal states as a default (lang/values.py).

The one path or URL a call is given is stated as its one number is (``gorm.Open("sqlite3",
"./../gorm.db")`` in ``Init`` -> ``Init.gorm.Open``, attrs ``path``): a URL, a name with a data,
settings, log or key file's extension, or a relative path; not a message, a format string, a
route, nor a string a log, a print, a format, a match or an import is given (NOT_PATHS).  A
string-keyed entry of a map a function builds (Go's ``jwt.MapClaims{"exp": ...}``, a Python
dict display) given a number, a quantity, a deadline from now (by its duration: ``time.Hour *
24``) or an expression with a number in it is ``config:<path>:<function>.<key>``, attrs
``entry``; not a name, a label, nor a response's or a log record's map.  The number an if, a
while or a for compares a name with (``if backoff > 64``) is ``config:<path>:<function>.<name>``,
attrs ``bound`` = the operator; not a call's result (``len(x) > 5``), a loop's one-letter index,
a status or an equality.  A setter given a setting's name and a literal (``viper.SetDefault("port",
8080)`` in ``initConfig``, ``System.setProperty("k", "v")``, ``kwargs.setdefault("is_flag",
True)``) is ``config:<path>:<function>.<receiver>.<name>``, attrs ``setter`` = the method; not a
header, nor the set of a response, a context, a session, a cache, a map or the environment."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from repomem.core.model import Fact, file_setting
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


def body_fact(path: str, dotted: str, value: str, attrs: tuple, line: int, text: str,
              purpose: str) -> Fact:
    """A value a function's body states, keyed ``config:<path>:<DOTTED>`` (DOTTED: the function's
    qualified name and what in it), at LINE (0-based)."""
    return file_setting(path, dotted, value, line + 1, text, purpose, attrs)


def argument_fact(path: str, function: str, callee: str, name: str, value: str, line: int,
                  text: str) -> Fact:
    """The fact of NAME=VALUE passed to CALLEE by FUNCTION (a qualified name) at LINE (0-based)."""
    dotted = f"{function}.{callee}.{name}"
    return body_fact(path, dotted, value, (("argument", "true"),), line, text,
                     f"{words(name)} - passed to {callee}() by {function}()")


def local_fact(path: str, function: str, name: str, value: str, line: int, text: str) -> Fact:
    """The fact of FUNCTION binding its local NAME to VALUE at LINE (0-based): ``var status =
    302`` in express's ``res.redirect``, the status unless the caller gives one."""
    dotted = f"{function}.{name}"
    return body_fact(path, dotted, value, (("local", "true"),), line, text,
                     f"{words(name)} - set in {function}()")


def number_fact(path: str, function: str, callee: str, value: str, position: int, line: int,
                text: str) -> Fact:
    """The fact of the one number FUNCTION passes to CALLEE, as its argument POSITION (1-based)."""
    dotted = f"{function}.{callee}"
    return body_fact(path, dotted, value, (("argument", "true"), ("position", str(position))), line, text,
                     f"{words(callee.rsplit('.', 1)[-1])} - the number {function}() passes to {callee}()")


def field_fact(path: str, function: str, type_name: str, field: str, value: str, line: int,
               text: str, attrs: tuple = ()) -> Fact:
    """The fact of FIELD given VALUE in the TYPE_NAME literal FUNCTION makes (ATTRS: how the
    value is stated, ``expression`` when as written)."""
    dotted = f"{function}.{type_name}.{field}"
    return body_fact(path, dotted, value, tuple(sorted({("field", "true"), *attrs})), line, text,
                     f"{words(field)} - the {type_name} {function}() makes")


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
_STATUS_NAME = re.compile(r"(?i)status|code$")  # a status's or a code's name, not a setting's
_CALL_RESULT = re.compile(r"\((?:[^()]|\([^()]*\))*\)")


def _setting_callee(text: str, not_settings: frozenset[str]) -> str | None:
    """A callee as a dotted name: as callee_name, a Rust path's ``::`` a dot
    (``broadcast.channel``), a call's result named by its callee (``db.DB().SetMaxIdleConns`` is
    ``db.DB.SetMaxIdleConns``); None for a private helper's, a status's or an error's, an
    assert's, or one whose last name (lower-cased) is in NOT_SETTINGS."""
    name = callee_name(_CALL_RESULT.sub("", text).replace("::", "."))
    last = name.rsplit(".", 1)[-1] if name is not None else ""
    if name is None or last.startswith("_") or last.lower() in not_settings \
            or last.lower().startswith("assert") or _STATUS_CALL.search(last):
        return None
    return name


def call_name(text: str) -> str | None:
    """A callee as a dotted name for the one number it is given; None for one whose number is
    no setting (NOT_SETTINGS, a private helper, a status's)."""
    return _setting_callee(text, NOT_SETTINGS)


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


# -- a call's path or URL ----------------------------------------------------------------------
# The files a program keeps its data, settings, logs and keys in, by extension (lower-cased), and
# what such a file is, for the fact's purpose.
_FILE_KINDS = {
    **dict.fromkeys(("db", "sqlite", "sqlite3"), "database file"),
    **dict.fromkeys(("yaml", "yml", "toml", "ini", "cfg", "conf", "env", "properties"), "settings file"),
    **dict.fromkeys(("json", "xml", "csv"), "data file"),
    "log": "log file",
    **dict.fromkeys(("pem", "key", "crt", "cer", "p12", "pfx"), "key or certificate file"),
    "sock": "socket file", "pid": "pid file"}
_FILE_EXTENSIONS = frozenset(_FILE_KINDS)
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s]+")
# a relative path, or an absolute one under the usual system folders (a route, "/users", is no path)
_PATH_PREFIXES = ("./", "../", "~/", "/etc/", "/var/", "/tmp/", "/usr/", "/opt/", "/home/", "/run/", "/srv/",
                  "/data/")
# a format string's placeholder: "%s", "%d", "{}", "{0}", "{name}", "${x}"
_PLACEHOLDER = re.compile(r"%[-+ #0-9.]*[sdvfqrxi]|\{\w*\}|\$\{")
MAX_PATH = 300
# Callees whose string is a message, a pattern, a template, a module or a test's name, not a
# file the program uses: logging, printing, formatting, errors, asserts, imports, translations,
# string matching (the last name of the callee, lower-cased).
NOT_PATHS = frozenset((
    "print", "println", "printf", "sprintf", "fprintf", "fprintln", "sprint", "format", "errorf", "error",
    "warn", "warning", "warnf", "info", "infof", "debug", "debugf", "trace", "log", "logf", "fatal", "fatalf",
    "panic", "panicf", "exception", "echo", "secho", "write", "writeln", "assert", "assert_eq", "expect",
    "equal", "equals", "require", "import", "import_module", "include", "gettext", "ngettext", "t", "tr",
    "render", "render_template", "template", "compile", "match", "matches", "search", "fullmatch", "sub",
    "replace", "replaceall", "split", "startswith", "endswith", "hasprefix", "hassuffix", "contains",
    "includes", "trimprefix", "trimsuffix", "strip", "lstrip", "rstrip", "removeprefix", "removesuffix",
    "describe", "it", "test", "run", "redirect", "url_for", "abort",
))


def path_like(text: str | None) -> bool:
    """Whether a string names a file or a URL: ``scheme://...``, a name with a data, settings,
    log or key file's extension (``app.db``, ``config/settings.yaml``), or a relative path
    (``./data``); not a message (a space), a format string (``"%s.json"``) or a route."""
    if not text or len(text) > MAX_PATH or any(c.isspace() for c in text) or _PLACEHOLDER.search(text):
        return False
    if _URL.fullmatch(text):
        return True
    name = text.rstrip("/").rsplit("/", 1)[-1]
    extension = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    return extension in _FILE_EXTENSIONS or text.startswith(_PATH_PREFIXES) and len(name.strip(".")) > 0


def _file_kind(text: str) -> str:
    """What a path names, for a purpose: a URL, a database, settings, data, log or key file, or
    a path."""
    if _URL.fullmatch(text):
        return "URL"
    name = text.rstrip("/").rsplit("/", 1)[-1]
    return _FILE_KINDS.get(name.rsplit(".", 1)[-1].lower() if "." in name else "", "path")


def path_call_name(text: str) -> str | None:
    """A callee as a dotted name for the path it is given (as call_name), or None for one whose
    string is no file the program uses (NOT_PATHS, a private helper, an error's)."""
    return _setting_callee(text, NOT_PATHS)


_DRIVER = re.compile(r"[A-Za-z][\w.+-]{2,23}")  # not a mode ("rb")


def only_path(strings: Iterable[str | None]) -> tuple[int, str, str | None] | None:
    """(position from 1, path, driver) of the one path or URL among a call's arguments (STRINGS:
    each argument's string content, None for one that is no plain string); DRIVER: the one other
    string when it is a bare word (``gorm.Open("sqlite3", "./gorm.db")``), else None."""
    items = list(enumerate(strings, 1))
    paths = [(i, s) for i, s in items if s is not None and path_like(s)]
    if len(paths) != 1:
        return None
    others = [s for i, s in items if s is not None and i != paths[0][0]]
    driver = others[0] if len(others) == 1 and _DRIVER.fullmatch(others[0]) else None
    return paths[0][0], paths[0][1], driver


def path_fact(path: str, function: str, callee: str, found: tuple[int, str, str | None], line: int,
              text: str) -> Fact:
    """The fact of the one path or URL FUNCTION passes to CALLEE (FOUND: only_path's)."""
    position, value, driver = found
    dotted = f"{function}.{callee}"
    what = _file_kind(value)
    said = f" ({driver})" if driver else ""
    return body_fact(path, dotted, value, (("argument", "true"), ("path", "true"), ("position", str(position))),
                     line, text,
                     f"{words(callee.rsplit('.', 1)[-1])} - the {what}{said} {function}() passes to {callee}()")


# -- a string-keyed entry of a map a function builds ------------------------------------------
# Callees whose map argument is a response's body, a log record or a template's context.
NOT_ENTRIES = frozenset((
    "json", "jsonp", "indentedjson", "securejson", "purejson", "asciijson", "abortwithstatusjson", "xml",
    "yaml", "toml", "render", "html", "send", "string", "jsonify", "make_response", "render_template",
    "templateresponse", "with_fields", "withfields", "fields", *NOT_PATHS))
_NOW = re.compile(r"\b(?:now|utcnow|Now|UtcNow)\(|\btime\(\)")  # now(), now(tz), time.time()


_UNIT_QUANTITY = re.compile(r"\d+(?:\.\d+)?\s*[A-Za-z]{1,5}")  # '1h', '10mb': not '3.0', a version
# a value that is no setting however many numbers it holds: a display of its own, a choice, a function
NOT_ENTRY_VALUES = frozenset(("dictionary", "list", "tuple", "set", "composite_literal", "literal_value",
                              "conditional_expression", "ternary_expression", "lambda", "func_literal",
                              "list_comprehension", "dictionary_comprehension", "generator_expression",
                              "subscript", "index_expression"))


def entry_key(key: str | None) -> bool:
    """Whether a map's key names a setting (not a status or a code: a response's)."""
    return bool(key) and _STATUS_NAME.search(str(key)) is None


def entry_quantity(value: str | None) -> bool:
    """Whether a map entry's string is a quantity with its unit (``'1h'``, ``'10mb'``): a string
    else is mostly a label, a type or a protocol's word, as a string passed by name is."""
    return value is not None and _UNIT_QUANTITY.fullmatch(value) is not None


def entry_container_cut(callee_text: str | None) -> bool:
    """Whether a map given to the callee CALLEE_TEXT (None: no call) is a response, a log record
    or a context rather than settings."""
    if callee_text is None:
        return False
    name = callee_name(_CALL_RESULT.sub("", callee_text).replace("::", "."))
    last = (name or callee_text).rsplit(".", 1)[-1]
    return last.lower() in NOT_ENTRIES or _STATUS_CALL.search(last) is not None


def from_now(node, text) -> Any:
    """The duration a deadline counted from now adds (``time.Now().Add(time.Hour * 24).Unix()``
    is ``time.Hour * 24``, ``datetime.utcnow() + timedelta(hours=1)`` is ``timedelta(hours=1)``),
    else NODE itself.  TEXT: a node's source."""
    for _ in range(8):  # a chain's depth, bounded
        kids = [c for c in node.named_children if c.type not in ("comment", "line_comment", "block_comment")]
        op = node.child_by_field_name("operator")
        if node.type in ("binary_expression", "binary_operator") and op is not None and text(op) == "+" \
                and len(kids) == 2:
            left, right = kids
            if _NOW.search(text(left)) and not _NOW.search(text(right)):
                return right
            if _NOW.search(text(right)) and not _NOW.search(text(left)):
                return left
            return node
        function = node.child_by_field_name("function")
        args = node.child_by_field_name("arguments")
        if node.type not in ("call", "call_expression") or function is None or args is None \
                or not _NOW.search(text(function)):
            return node
        given = [c for c in args.named_children if c.type not in ("comment", "line_comment", "block_comment")]
        if len(given) == 1 and not _NOW.search(text(given[0])):
            return given[0]  # now().Add(d)
        if given or not function.named_child_count:
            return node
        node = function.named_children[0]  # now().Add(d).Unix(): the call it is made on
    return node


def entry_fact(path: str, function: str, owner: str, key: str, value: str, attrs: tuple, line: int,
               text: str) -> Fact:
    """The fact of the entry KEY given VALUE in the OWNER map FUNCTION builds (ATTRS: how the
    value is stated, ``expression`` when as written)."""
    dotted = f"{function}.{key}"
    return body_fact(path, dotted, value, tuple(sorted({("entry", "true"), *attrs})), line, text,
                     f"{words(key.rsplit('.', 1)[-1])} - an entry of the {owner} {function}() builds")


# -- a number a branch or a loop compares a name with -------------------------------------------
_FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
# where a comparison is a branch's or a loop's test, and what stands between: parentheses, a
# conjunction, a negation
_CONDITIONS = frozenset(("if_statement", "if_expression", "elif_clause", "while_statement",
                         "while_expression", "for_clause", "for_statement", "do_statement", "do_while_statement"))
_GLUE = frozenset(("parenthesized_expression", "boolean_operator", "not_operator", "unary_expression",
                   "conjunction_expression", "disjunction_expression", "prefix_expression", "binary_expression"))


def in_condition(node, text) -> bool:
    """Whether NODE (a comparison) is the test of an if, a while or a for, alone or joined by
    ``&&``/``||``/``and``/``or``/``!``."""
    p = node.parent
    while p is not None and p.type in _GLUE:
        op = p.child_by_field_name("operator")
        if p.type == "binary_expression" and (op is None or text(op) not in ("&&", "||")):
            return False
        node, p = p, p.parent
    if p is None or p.type not in _CONDITIONS:
        return False
    test = p.child_by_field_name("condition")
    return test is not None and test.id == node.id


def bound_name(text: str) -> str | None:
    """The compared name, dotted, the object's own receiver left out (``self.retries`` is
    ``retries``); None for one that is no plain name, a single letter (a loop's index) or a
    status (``res.statusCode >= 400``)."""
    name = callee_name(text)
    last = name.rsplit(".", 1)[-1] if name is not None else ""
    if name is None or len(last) < 2 or _STATUS_NAME.search(last):
        return None
    return name


def bound_operator(operator: str, name_first: bool) -> str | None:
    """The operator as read with the name on its left (``64 < backoff`` is ``backoff > 64``);
    None for one that is no bound (``==``, ``!=``)."""
    if operator not in _FLIPPED:
        return None
    return operator if name_first else _FLIPPED[operator]


def bound_fact(path: str, function: str, name: str, operator: str, value: str, line: int, text: str) -> Fact:
    """The fact of the number FUNCTION's branch or loop compares NAME with (``backoff > 64``)."""
    dotted = f"{function}.{name}"
    return body_fact(path, dotted, value, (("bound", operator),), line, text,
                     f"{words(name)} - the bound {function}() compares it with "
                        f"({operator} {value})")


# -- a setter given a setting's name and a literal ---------------------------------------------
# The methods that set a named setting (lower-cased): set, a default's, a switch, a property's
SETTERS = frozenset(("set", "setdefault", "set_default", "enable", "disable", "put", "setproperty",
                     "set_property"))
_DEFAULTING = frozenset(("setdefault", "set_default"))
_SWITCHES = {"enable": "true", "disable": "false"}
# Receivers whose set is no setting of the program: an HTTP request's or response's headers, a
# handler's context, a session, a cookie jar, a cache, a form or a model's data (the last name,
# lower-cased); the environment's (os.environ.setdefault) is mined as an environment variable.
NOT_SETTERS = frozenset((
    "res", "resp", "response", "req", "request", "ctx", "context", "c", "w", "rw", "writer", "headers",
    "header", "session", "sess", "cookies", "cookie", "cache", "redis", "store", "client", "form", "params",
    "query", "args", "data", "model", "errors", "environ", "env", "os", "map", "m", "dict", "d", "attrs",
    "attributes", "set", "values", "result", "results", "out", "state", "locals", "g", "app"))
# a map's put is a setting's only on what holds settings
_PROPERTIES = re.compile(r"(?i)(?:prop|propert|config|conf|setting|option|opt|default|pref)\w*$")
# an HTTP header's name (Content-Type, X-Powered-By), a format string, a path
_HEADER = re.compile(r"(?i)^(?:x-|content-|accept|cache-control$|etag$|location$|vary$|link$)"
                     r"|^[A-Z][a-z]+(?:-[A-Z][A-Za-z]*)+$")
MAX_SETTING_NAME = 80


def setter_call(callee_text: str) -> tuple[str, str] | None:
    """(receiver, method) of a setter's callee (``viper.SetDefault``, ``self.config.set``:
    ``config``; ``this.set``: ``this``), or None for a callee that sets no setting: no setter
    (SETTERS), a receiver of headers or data (NOT_SETTERS), a map's put but on properties.  The
    function's own object (``this``, ``self``) is the receiver "" (see own_setter)."""
    text = _CALL_RESULT.sub("", re.sub(r"\s+", "", callee_text)).replace("::", ".")
    receiver, _, method = text.rpartition(".")
    if method.lower() not in SETTERS or not receiver:
        return None
    if receiver in ("this", "self"):
        return "", method  # the function's own object: its owner is in the function's name
    name = callee_name(receiver)
    last = name.rsplit(".", 1)[-1] if name is not None else ""
    if name is None or last.lower() in NOT_SETTERS or last.startswith("_") \
            or method.lower() == "put" and not _PROPERTIES.search(last):
        return None
    return name, method


def own_setter(function: str) -> bool:
    """Whether ``this.set(...)`` in FUNCTION sets a setting: not in a response's method
    (``res.send``), nor in the app's (``app.defaultConfiguration``: mined as app settings)."""
    owner = function.rsplit(".", 1)[0] if "." in function else ""
    return owner.rsplit(".", 1)[-1].lower() not in NOT_SETTERS


def setting_name(text: str | None) -> bool:
    """Whether a setter's string names a setting: not empty, a header's name, a format string,
    a path or a sentence."""
    return bool(text) and len(str(text)) <= MAX_SETTING_NAME and "\n" not in str(text) \
        and _HEADER.search(str(text)) is None and _PLACEHOLDER.search(str(text)) is None \
        and "/" not in str(text) and len(str(text).split()) <= 4


def setter_value(method: str, given: list[str | None]) -> str | None:
    """The value a setter states: GIVEN holds each argument's literal after the name (None for
    one that is none); a switch (enable/disable) given none is true or false.  Not an empty
    string or list, nor null."""
    if not given:
        return _SWITCHES.get(method.lower())
    if len(given) != 1 or method.lower() in _SWITCHES:
        return None
    value = given[0]
    return None if value is None or value in ("", "[]", "null", "None", "nil") else value


def setter_fact(path: str, function: str, receiver: str, method: str, name: str, value: str, line: int,
                text: str) -> Fact:
    """The fact of FUNCTION setting NAME to VALUE on RECEIVER by METHOD (``viper.SetDefault("port",
    8080)`` in ``initConfig``: ``config:<path>:initConfig.viper.port``)."""
    dotted = f"{function}.{receiver}.{name}" if receiver else f"{function}.{name}"
    attrs = {("setter", method), *((("default", "true"),) if method.lower() in _DEFAULTING else ())}
    on = f" on {receiver}" if receiver else ""
    said = f"a default given{on} by {function}()" if method.lower() in _DEFAULTING else f"set{on} by {function}()"
    return body_fact(path, dotted, value, tuple(sorted(attrs)), line, text,
                     f"{words(re.sub(r'[^A-Za-z0-9]+', '_', name))} - {said}")
