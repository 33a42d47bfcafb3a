"""Secret redaction: no credential reaches the store in clear text.

:func:`redact_blob` redacts a whole file before any miner reads it (line numbers unchanged), so
docstrings, function bodies and the fingerprints computed from them never hold a secret;
:func:`redact_fact` then redacts each mined fact once more.  The signals:

* the *name*: a config/constant fact whose setting name says "password", "token", "api_key"...
  has its value redacted, unless the value is a placeholder (``changeme``, ``${VAR}``), a bool,
  a short number, or the name also says it is not the secret itself (``TOKEN_TTL``, ``AUTH_URL``);
* the *value*: text shaped like a credential is redacted anywhere -- detect-secrets' plugins and
  repomem's rules (``secret_scan``: provider key formats, webhooks, PEM keys, JWTs, the password
  of a URL, secret query parameters) and long high-entropy strings;
* in a file, ``SECRET_NAME = value`` assignments (in code only quoted values), the literals of a
  secret-named default written as code (``def f(token=get("..."))``, ``apiKey = x || "..."``),
  and every other occurrence of a secret found in it (a comment repeating a password).

A secret becomes ``<redacted:XXXXXX>``, a short salted hash of it: a rotated secret still shows up
as a new value in the ledger, while equal secrets stay recognisably equal.  Pure: no I/O.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import re
from collections.abc import Iterable

from repomem.core.envreads import reads
from repomem.core.model import CONFIG, CONSTANT, DOCKER, Fact
from repomem.core.recent import recent
from repomem.core.secret_scan import merge, random_looking, scan, secret_name, token_runs

_PLACEHOLDER = re.compile(
    r"""^(?:|changeme|change[-_ ]?me.*|x{3,}|\*{3,}|\.{3}|<[^<>]*>|\$\{[^}]*\}|\$[A-Za-z_]\w*
    |\{\{.*\}\}|\$\{\{.*\}\}|%\([^)]*\)s|null|none|nil|undefined|todo|tbd|placeholder|dummy|example|redacted
    |your[-_ ].*|password|secret|pass)$""", re.I | re.X | re.S)
# ...and GitHub Actions' ${{ secrets.PYPI_TOKEN }} (a reference to a secret: which one is worth
# knowing); a permission (`id-token: write`)
_BOOL = {"true", "false", "yes", "no", "on", "off", "read", "write", "read-all", "write-all"}

_LONG = re.compile(r"[A-Za-z0-9+/_-]{32,}={0,2}")
# NAME = value / NAME: value / "NAME": "value".  The regex starts at a secret-ish word (cheap:
# the engine skips positions by first character); the rest of the name is found by walking
# back, and secret_name() decides.  A quoted value may hold spaces and escaped quotes; a backtick
# quotes too (a Go raw string, a JS template literal, Markdown code).
# A type annotation may stand between the name and the ``=`` (``password: str = "..."``,
# ``apiToken: string = '...'``, ``API_KEY: Final[str] = "..."``): one name with an optional
# bracketed or angled argument list, in a ``|`` union; then ``=`` must follow.
_ANNOTATION = (r"""(?::[ \t]*[a-z_][a-z0-9_.]*(?:\[[^\]\n=]{0,60}\]|<[^>\n=]{0,60}>)?"""
               r"""(?:[ \t]*\|[ \t]*[a-z_][a-z0-9_.]*(?:\[[^\]\n=]{0,60}\]|<[^>\n=]{0,60}>)?)*"""
               r"""(?=[ \t]*=(?![=>])))?""")
_ASSIGN_SRC = (
    r"""(?:pass|pwd|secret|token|cred|dsn|auth|key)[A-Za-z0-9_.-]*["']?[ \t]*"""
    + _ANNOTATION + r"""[ \t]*(?::=|=|:)(?![=:])[ \t]*"""
    r"""(?:(?P<q>["'`])(?P<qval>(?:\\.|(?!(?P=q))[^\\\r\n])+)(?P=q)|(?P<val>[^\s"'`,;#(){}\[\]]+))""")
# run on the lower-cased text (a case-insensitive regex is several times slower); the ignore-case
# one only when lower-casing changed the length (some non-ASCII letters), so spans still agree
_ASSIGN = re.compile(_ASSIGN_SRC)
_ASSIGN_I = re.compile(_ASSIGN_SRC, re.I)
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
_NAME_END = re.compile(r"[A-Za-z0-9_.-]*")
_TOKEN_BREAKS = re.compile(r"(<redacted:[0-9a-f]{6}>)\n+")
_FILE_LIKE = re.compile(r"[\w.~-]*(?:/[\w.-]+)+/?|[\w-]+\.(?:html?|txt|json|ya?ml|toml|py|cfg|ini|pem|key|crt|p12|env)")
_CODE_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*(?:\(\))?")


def _token(secret: str) -> str:
    return "<redacted:" + hashlib.sha256(("repomem-redact\0" + secret).encode()).hexdigest()[:6] + ">"


# A version or a version range ("1.2.1", "^9.0.0", ">=1.0.0 <2", "~=2.31.0rc1"): the pin of a
# package named like a secret (pbkdf2-password, secret-handshake) in a manifest, not a secret
_VERSION_ITEM = (r"(?:(?:\^|~=?|[<>]=?|==?|!=)?\s*v?\d+(?:\.(?:\d+|[xX*])){1,3}"
                 r"(?:[-.]?(?:alpha|beta|rc|dev|pre|post|next|canary|a|b)\.?\d*)?"
                 r"|(?:\^|~=?|[<>]=?|==?|!=)\s*\d+)")
_VERSION_SPEC = re.compile(rf"{_VERSION_ITEM}(?:\s*(?:,|\|\||\s-\s|\s)\s*{_VERSION_ITEM})*", re.I)


# A value that says what kind of thing a secret-named setting is, not the secret: a number (a
# length, a count: ``password_min_length: 8``), a short word (``keyword = "Token"``,
# ``token_kind: jwt``) or an identifier of words (``TOKEN_HEADER = "X-Api-Token"``).  A
# credential has digits or symbols among its letters, or is longer than any of these.
_NUMBER = re.compile(r"[-+]?\d{1,9}(?:\.\d+)?")
_WORD_PART = r"(?:[A-Z]?[a-z]{1,12}|[A-Z]{1,12})"
_IDENTIFIER = re.compile(rf"{_WORD_PART}(?:[-_.]?{_WORD_PART}){{0,3}}")


def _plain_value(v: str) -> bool:
    return _NUMBER.fullmatch(v) is not None or (len(v) <= 40 and _IDENTIFIER.fullmatch(v)
                                                is not None)


def _not_secret_value(value: str) -> bool:
    v = value.strip().strip("\"'")
    return (bool(_PLACEHOLDER.match(v)) or v.lower() in _BOOL
            or (re.fullmatch(r"-?\d+(?:\.\d+)?", v) is not None and len(v) < 6)
            or _VERSION_SPEC.fullmatch(v) is not None)


def _not_secret_setting(value: str) -> bool:
    """A secret-named setting's value that is no secret: as _not_secret_value, or a plain value
    (a number, a short word, an identifier).  Not for a literal that code falls back to as the
    secret itself (``process.env.JWT_SECRET || 'superSecret'``, a field's ``default=``): that is
    the secret whatever its shape."""
    return _not_secret_value(value) or _plain_value(value.strip().strip("\"'"))


# "Log in with password Tr0ub4dor3xyzzyQ.", "the admin token is ab12-CD34-ef56", "password for
# staging: St4g1ng#2024": a secret named in prose (a docstring, a function's comments, a commit's
# text), which an ``=`` or a ``:`` may or may not show.  Only a word shaped like a credential
# counts: 8+ characters with letters and digits, and mixed case or a symbol ("the password
# field", "token bucket", "password hashing with pbkdf2" stay).
_PROSE_SECRET = re.compile(
    r"(?<![A-Za-z0-9_])(?:password|passwd|passphrase|pwd|secret|token|api[ _-]?key)s?"
    r"(?:\s+(?:is|was|of|to|as|for\s+\w+(?:\s+is)?))?\s*[=:]?\s+[\"'`]?(?P<v>[^\s\"'`,;()<>\[\]]{8,})",
    re.I)


def _credential_word(v: str) -> bool:
    return (re.search(r"[0-9]", v) is not None and re.search(r"[A-Za-z]", v) is not None
            and (re.search(r"[a-z]", v) is not None and re.search(r"[A-Z]", v) is not None
                 or re.search(r"[!@#$%^&*+=?~|]", v) is not None)
            and "://" not in v and not _FILE_LIKE.fullmatch(v) and not _not_secret_setting(v))


_API_KEY = re.compile(r"api.?key")


def _prose_hint(low: str) -> bool:
    """Whether lower-cased text may name a secret in prose: ``pass|pwd|secret|token|api.?key``
    searched by substring tests, a fifth of the regex's time (most files hold none of them)."""
    return ("pass" in low or "pwd" in low or "secret" in low or "token" in low
            or ("key" in low and _API_KEY.search(low) is not None))


# Where a secret's name may start, found in the lower-cased text: the case-blind search itself
# (re.I over an alternation tried at every offset) was 6% of mining click's history.  The letters re.I also
# matches outside ASCII are folded first, so a name is never missed; each start is then matched
# by the pattern itself, on the text as it is.
_PROSE_START = re.compile(r"pass|pwd|secret|token|api")
_FOLDED = "\u0130\u0131\u017f\u212a"  # İ ı ſ K
_FOLD = str.maketrans(_FOLDED, "iisk")


def _prose_spans(text: str, lowered: str | None = None) -> list[tuple[int, int]]:
    """lowered: ``text.lower()`` when the caller has it already."""
    low = text.lower() if lowered is None else lowered
    if not text.isascii() and any(c in text for c in _FOLDED):
        low = text.translate(_FOLD).lower()
    found: Iterable[re.Match[str] | None]
    if len(low) == len(text):  # every offset kept
        found = (_PROSE_SECRET.match(text, s.start()) for s in _PROSE_START.finditer(low))
    else:
        found = _PROSE_SECRET.finditer(text)
    out, end = [], 0
    for m in found:
        if m is None or m.start() < end:
            continue
        end = m.end()
        v = m.group("v").rstrip(".!?")
        if _credential_word(v):
            out.append((m.start("v"), m.start("v") + len(v)))
    return out


def _random_looking(s: str) -> bool:
    """A generic long credential: mixed case and digits, high entropy (hex digests do not count:
    commit SHAs and checksums are everywhere in configs and are not secrets)."""
    if "/" in s and not re.search(r"[+=]", s):  # a path, unless base64 padding says otherwise
        return any(_random_looking(p) for p in s.split("/") if len(p) >= 32)
    return len(s) >= 32 and random_looking(s)


# An environment variable's name in code (os.environ["DJANGO_SECRET_KEY"]): what holds the secret
_ENV_NAME = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")


def _prose(v: str) -> bool:
    """Words, not a credential: a prompt or a label, which names what it asks for ("Enter your
    password", a field's label "Repeat Password"), ends like a sentence ("Token:"), or runs on
    as a sentence does.  A few other words are a passphrase (express-session's "keyboard cat"):
    the secret."""
    words = v.split()
    if len(words) < 2 or re.search(r"[0-9!@#$%^&*]", v):
        return False
    return _prose_hint(v.lower()) or v.rstrip()[-1] in ".:?" or len(words) >= _SENTENCE


_SENTENCE = 6  # words: a passphrase of diceware's length is shorter


def _skip(v: str) -> bool:
    return _not_secret_value(v) or v.startswith("<redacted:")


def _skip_setting(v: str) -> bool:
    return _not_secret_setting(v) or v.startswith("<redacted:")


# A secret-named parameter, keyword, property or assignment whose value is an expression:
# ``def connect(token=get("..."))``, ``apiKey = process.env.KEY || "..."``,
# ``constructor(secret = getSecret("..."))``.  The string literals of that expression are read up
# to where it ends: a ``,``, ``;``, ``#`` or line break outside brackets, the bracket that closes
# around it, or _EXPR_MAX characters.
_EXPR_MAX = 240
_OPEN, _CLOSE = "([{", ")]}"
_STRING_PREFIX = re.compile(r"(?<![A-Za-z0-9_])[rRbBuUfF]{1,2}\Z")  # f"...", rb'...'
_FALLBACK = re.compile(r"(?:\|\||\?\?|(?<![A-Za-z0-9_$])or)\Z")  # x || "...", x ?? "...", x or "..."
_COMPARED = re.compile(r"(?:[=!]=|(?<!=)>=?|<=?|(?<![A-Za-z0-9_$])(?:in|is))\Z")  # not `=>`
_KEYWORD = re.compile(r"(?<![A-Za-z0-9_$.])([A-Za-z_$][A-Za-z0-9_$]*)[ \t]*[=:]\Z")  # f(timeout="30")
_SUBSCRIPT = re.compile(r"[A-Za-z0-9_$)\]][ \t]*\[\Z")  # cfg["token"]
# a call's argument that is no value: words, a pattern, a format, a URL (its password, if any,
# is found by secret_scan)
_NOT_A_VALUE = re.compile(r"[\s()\[\]{}\\]|://")
_EXPR_MARK = re.compile(r"[\"'`()\[\]{},;#\n]")  # what the expression's reading stops at


# the rest of a one-line string literal opened by each quote, up to its closing quote
_STRING_REST = {q: re.compile(r"(?:\\.|[^\\\n%s])*%s" % (q, q)) for q in "\"'`"}


def _string_end(text: str, i: int, end: int) -> int:
    """The index of the quote closing the one-line string literal opened at i, or -1."""
    m = _STRING_REST[text[i]].match(text, i + 1, end)
    return m.end() - 1 if m else -1


def _expression_literals(text: str, start: int) -> list[tuple[int, int]]:
    """The spans of the literals in the expression at ``start`` that may be the secret its
    secret-named target is given (see :func:`_secret_literal`)."""
    out: list[tuple[int, int]] = []
    if text.startswith(">", start):
        return out  # ``token => ...``: an arrow function's parameter, no default
    depth, after, end = 0, start, min(len(text), start + _EXPR_MAX)
    for m in _EXPR_MARK.finditer(text, start, end):
        i = m.start()
        if i < after:
            continue  # inside a literal read already
        c = text[i]
        if c in "\"'`":
            if text.startswith(c * 3, i):
                break  # a triple-quoted string: prose or a block, not followed
            j = _string_end(text, i, end)
            if j < 0:
                break
            if _secret_literal(text, start, i, j):
                out.append((i + 1, j))
            after = j + 1
        elif c in _OPEN:
            depth += 1
        elif c in _CLOSE:
            depth -= 1
            if depth < 0:
                break
        elif depth == 0:  # a `,`, `;`, `#` or line break: the end of the expression
            break
    return out


def _secret_literal(text: str, start: int, q: int, close: int) -> bool:
    """Whether the literal quoted at ``q``..``close`` of the expression at ``start`` may be the
    secret.  One the code falls back to (after ``||``, ``??``, ``or``) or gives as a
    ``default=`` is the secret whatever its shape (as an environment variable's default); a
    call's argument only when shaped like a value, not a plain word (a variable's or a secret's
    own name), an environment variable's name, a path, words or a pattern.  A literal given to
    another keyword (``timeout="30"``), a key (``cfg["token"]``, ``{"id": ...}``) or a value
    compared with is none."""
    val = text[q + 1:close]
    if len(val) < 4 or val.startswith("<redacted:") or ("{" in val and "}" in val):
        return False  # short, done, or a template filled in by the code
    after = text[close + 1:close + 3].lstrip(" \t")
    if after.startswith(":") and not after.startswith(("::", ":=")):
        return False
    before = _STRING_PREFIX.sub("", text[start:q]).rstrip()
    if _SUBSCRIPT.search(before) or _COMPARED.search(before):
        return False
    keyword = _KEYWORD.search(before)
    if keyword and keyword.group(1).lower() not in _VALUE_PROPS:
        return False
    if keyword or _FALLBACK.search(before):
        return not (_skip(val) or _FILE_LIKE.fullmatch(val) or _prose(val))
    return not (_skip_setting(val) or _NOT_A_VALUE.search(val) or _FILE_LIKE.fullmatch(val)
                or _ENV_NAME.fullmatch(val) or _algorithm(val))


@functools.cache
def _algorithms() -> frozenset[str]:
    from encodings.aliases import aliases

    return frozenset({*aliases, *aliases.values(), *(a.lower() for a in hashlib.algorithms_available)})


_JOSE_ALGORITHM = re.compile(r"(?:HS|RS|ES|PS)(?:256|384|512)|EdDSA", re.I)  # RFC 7518, 8037


def _algorithm(v: str) -> bool:
    """A text codec's, a hash's or a JWT signature's name (``password.encode("latin1")``,
    ``jwt.GetSigningMethod("HS256")``)."""
    from encodings import normalize_encoding

    low = v.lower()
    return (low in _algorithms() or normalize_encoding(low) in _algorithms()
            or _JOSE_ALGORITHM.fullmatch(v) is not None)


def _assignment_spans(text: str, low: str, code: bool) -> list[tuple[int, int]]:
    """Values of ``SECRET_NAME = value``.  In code only quoted values count: an unquoted one is
    an expression (``password = get_password()``), and replacing it would break the syntax;
    the literals in it may be the secret (:func:`_expression_literals`)."""
    out = []
    same = len(low) == len(text)
    for m in (_ASSIGN if same else _ASSIGN_I).finditer(low if same else text):
        quoted = m.group("q") is not None
        start = m.start()
        while start > 0 and text[start - 1] in _NAME_CHARS:
            start -= 1
        end = _NAME_END.match(text, m.start())  # always matches (possibly empty)
        name = text[start:m.start()] + (end.group(0) if end else "")
        if not secret_name(name.rsplit(".", 1)[-1]):
            continue
        if not quoted:
            out += _expression_literals(text, m.start("val"))
            if code:
                continue
        g = "qval" if quoted else "val"
        val = text[m.start(g):m.end(g)]
        if _skip_setting(val) or len(val) < (4 if quoted else 6):
            continue
        if not quoted and _CODE_WORD.fullmatch(val) and not re.search(r"[0-9]", val):
            continue  # ``password: str``, ``token: Optional``: a type or a name, not a value
        if _FILE_LIKE.fullmatch(val):
            continue  # a path to the key file, a template name
        if quoted and _prose(val):
            continue  # prose ("Enter your password"), not a credential
        out.append(m.span(g))
    return out


def _env_default_spans(text: str) -> list[tuple[int, int]]:
    """The literal default of a secret-named environment variable's read, in code of either
    language: ``process.env.JWT_SECRET || 'superSecret'``, ``os.getenv("API_TOKEN", "x9...")``,
    ``os.environ.get('SECRET_KEY') or 'dev-key'`` (in a function body too, where no
    ``NAME = value`` assignment shows it)."""
    out = []
    for python in (True, False):
        for read in reads(text, python):
            if not read.default or read.default[:1] not in "'\"`" or not secret_name(read.name):
                continue
            val = text[read.span[0]:read.span[1]]
            if _skip(val) or len(val) < 4 or _FILE_LIKE.fullmatch(val) or _prose(val):
                continue
            out.append(read.span)
    return out


def _spans(text: str, assignments: bool, code: bool = False) -> list[tuple[int, int]]:
    low = text.lower()
    runs = token_runs(text)
    spans = scan(text, low, skip=_skip_setting, runs=runs)
    # a long random string lies in a run of token characters: look only inside those
    spans += [m.span() for a, b in runs for m in _LONG.finditer(text, a, b)
              if _random_looking(m.group(0))]
    if assignments:
        spans += _assignment_spans(text, low, code) + _env_default_spans(text)
        if _prose_hint(low):
            spans += _prose_spans(text, low)
    return merge(spans)


def _apply(text: str, spans: list[tuple[int, int]], keep_lines: bool = False,
           code: bool = False) -> str:
    """Replace the spans, and every other occurrence of the secrets they hold (a comment that
    repeats a password), by their tokens; a multi-line secret keeps its line breaks.  In code a
    secret that is also a valid name (``ADMIN_PASSWORD = "bcrypt"``) is replaced only where it
    was found: elsewhere it is the name (``import bcrypt``)."""
    if not spans:
        return text
    secrets = sorted({text[a:b] for a, b in spans if b - a >= 6
                      and not (code and text[a:b].isidentifier())}, key=len, reverse=True)
    if secrets:
        rx = re.compile(r"(?<![A-Za-z0-9])(?:" + "|".join(map(re.escape, secrets)) + r")(?![A-Za-z0-9])")
        spans = merge(spans + [m.span() for m in rx.finditer(text)])
    out, last = [], 0
    for a, b in spans:
        secret = text[a:b]
        if secret.startswith("<redacted:"):
            out.append(text[last:b])
        else:
            out += [text[last:a], _token(secret), "\n" * secret.count("\n") if keep_lines else ""]
        last = b
    out.append(text[last:])
    return "".join(out)


# one file version is often mined at several paths in one commit (repomem.core.recent)
@recent(size=16, max_chars=16_384)
def redact_blob(text: str, code: bool = False) -> str:
    """A whole file's text with every secret replaced, line numbers unchanged.  Run before any
    miner sees the file, so values, texts, purposes and function fingerprints are all computed
    from redacted text.  ``code``: Python source (see :func:`_assignment_spans`)."""
    return _apply(text, _spans(text, True, code), keep_lines=True, code=code)


@functools.lru_cache(maxsize=65536)
def _sub_patterns(s: str) -> str:
    return _apply(s, _spans(s, False))


@functools.lru_cache(maxsize=65536)
def redact_text(s: str) -> str:
    """Redact credential-shaped substrings and ``SECRET_NAME=value`` assignments in free text."""
    return _apply(s, _spans(s, True)) if s else s


def _replace_secret(s: str, secret: str, tok: str) -> str:
    if not s or not secret:
        return s
    return re.sub(r"(?<![A-Za-z0-9])" + re.escape(secret) + r"(?![A-Za-z0-9])", lambda _: tok, s)


def _redact_line(text: str, secret: str, tok: str) -> str:
    """Replace the secret in the value part of a source line (after the first ``=``/``:``);
    when the line does not hold it verbatim (escapes, multi-line), the whole value part."""
    m = re.match(r"^([^=:\n]*[=:][ \t]*)([\s\S]*)$", text)
    if not m:
        return _replace_secret(text, secret, tok)
    head, tail = m.groups()
    if secret in tail:
        return head + tail.replace(secret, tok)
    return head + tok if tail.strip() else text


def _setting_parts(fact: Fact) -> list[str]:
    """The non-index parts of a config/constant key after its path (``db.passwords.0`` ->
    ``db``, ``passwords``)."""
    rest = fact.key.split(f":{fact.path}:", 1)[-1] if fact.path else fact.key.rsplit(":", 1)[-1]
    return [p for p in re.split(r"[.:]", rest) if not p.isdigit()]  # docker keys: env:NAME


def _setting_name(fact: Fact) -> str:
    """The last non-index part of a config/constant key (``db.passwords.0`` -> ``passwords``)."""
    parts = _setting_parts(fact)
    return parts[-1] if parts else ""


# A field's property that is a value of the field itself (Mongoose's ``apiKey: {type: String,
# default: "..."}``): for a field named like a secret, the value is redacted whole
# (a CLI option's ``--token`` default, ``api_key.return``: what a function returns)
_VALUE_PROPS = {"default", "value", "example", "defaultvalue", "return"}


def _field_value(fact: Fact) -> bool:
    parts = _setting_parts(fact)
    return len(parts) >= 2 and parts[-1].lower() in _VALUE_PROPS and secret_name(parts[-2])


# A string literal in a field's definition (``default="..."``)
_LITERAL = re.compile(r"""(?P<q>["'])(?P<s>(?:\\.|(?!(?P=q))[^\\\r\n])*)(?P=q)""")


def _field_literals(fact: Fact) -> Fact:
    """A data model's field named like a secret (``password_hash = db.Column(db.String(128))``),
    or a secret-named setting computed by code (``SECRET_KEY = os.environ["KEY"]``), is
    defined by code, not by its secret: only the string literals in it (a ``default="..."``)
    are redacted -- not prose, not an environment variable's name -- each where it stands, in
    the value and in the source text, which may hold the field's whole definition (Mongoose's
    ``apiKey: {type: String, default: "..."}`` for the fact of its ``type``)."""
    value, text = fact.value, fact.text
    for m in [*_LITERAL.finditer(fact.value), *_LITERAL.finditer(fact.text)]:
        secret = m.group("s")
        if m.string[m.end():].lstrip().startswith(":"):
            continue  # a key ("TOKEN": os.environ["CLOUDFLARE_TOKEN"]), not a value
        if secret and not _not_secret_value(secret) and not secret.startswith("<redacted:") \
                and not _prose(secret) and not _ENV_NAME.fullmatch(secret):
            # the literal with its quotes: default="a" must not touch every "a" of the code
            quoted, q = m.group(0), m.group("q")
            value = value.replace(quoted, q + _token(secret) + q)
            text = text.replace(quoted, q + _token(secret) + q)
    return dataclasses.replace(fact, value=value, text=text)


def _secret_field(fact: Fact) -> bool:
    """A field fact whose field is named like a secret: any part of its key after the model's
    name (``User.password_hash``, ``userSchema.apiKey.type``, ``model.User.apiToken``)."""
    parts = _setting_parts(fact)
    return any(secret_name(p) for p in parts[1:])


def redact_fact(fact: Fact) -> Fact:
    """The fact with every secret in value, text, purpose, subject and attrs redacted."""
    field = fact.kind == CONFIG and ("field", "true") in fact.attrs
    if field and _secret_field(fact):
        fact = _field_literals(fact)
    if fact.kind == CONFIG and ("read", "true") in fact.attrs and secret_name(_setting_name(fact)):
        # a secret-named environment variable's read: its line may hold more literals than the
        # default stated as the value (os.environ.get("API_TOKEN") or "tok-" + "...")
        fact = _field_literals(fact)
    # a secret-named setting computed by code (SECRET_KEY = os.environ["DJANGO_SECRET_KEY"]):
    # the code says where the secret comes from; only a literal in it may be one
    computed = fact.kind in (CONFIG, CONSTANT) and ("expression", "true") in fact.attrs \
        and secret_name(_setting_name(fact))
    if computed:
        fact = _field_literals(fact)
    if field and ("default", "true") in fact.attrs and _secret_field(fact) \
            and not _not_secret_value(fact.value) and not fact.value.startswith("<redacted:"):
        # a field's default stated as its value (api_key = Column(default="...")): its literal
        # in the text is redacted above, by the same token
        fact = dataclasses.replace(fact, value=_token(fact.value))
    value, text, purpose, subject = fact.value, fact.text, fact.purpose, fact.subject
    attrs = list(fact.attrs)
    # a setting whose value is the type it is declared with (SECRET_KEY: str) states no secret
    named = _field_value(fact) if field else not computed and ("annotation", "true") not in fact.attrs \
        and (secret_name(_setting_name(fact)) or _field_value(fact))
    if fact.kind in (CONFIG, CONSTANT, DOCKER) and named \
            and not _not_secret_setting(value) and not re.fullmatch(r"[./~][^\s]*", value.strip()):
        secret = value.strip().strip("\"'")
        tok = _token(secret)
        value = tok
        text = _redact_line(text, secret, tok)
        purpose = _replace_secret(purpose, secret, tok)
        attrs = [(k, _replace_secret(v, secret, tok)) for k, v in attrs]
    # a multi-line secret redacted in the blob left its line breaks after the token
    value = _TOKEN_BREAKS.sub(r"\1", _sub_patterns(value))
    text, purpose = redact_text(text), redact_text(purpose)
    subject = _sub_patterns(subject)
    redacted = tuple((k, redact_text(v)) for k, v in attrs)
    if (value, text, purpose, subject, redacted) == (fact.value, fact.text, fact.purpose, fact.subject, fact.attrs):
        return fact
    return dataclasses.replace(fact, value=value, text=text, purpose=purpose, subject=subject, attrs=redacted)
