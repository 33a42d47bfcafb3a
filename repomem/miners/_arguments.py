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
take a file past the miners' limit on facts, which would skip the whole file)."""

from __future__ import annotations

import re

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


_COUNTERS = re.compile(r"[-+]?[01](?:\.0*)?")


def is_counter(value: str) -> bool:
    """0, 1 or -1: what a local counts from, or a flag, not a setting."""
    return _COUNTERS.fullmatch(value) is not None


def kept(facts: list[Fact], taken: set[str]) -> list[Fact]:
    """The first MAX_PER_FILE facts whose key is not taken (by another fact of the file, or an
    earlier call)."""
    out = []
    for f in facts:
        if f.key not in taken:
            taken.add(f.key)
            out.append(f)
    return out[:MAX_PER_FILE]
