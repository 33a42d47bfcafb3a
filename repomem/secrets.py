"""Secret redaction: no credential reaches the store in clear text.

Two signals, both applied by :func:`redact_fact`:

* the *name*: a config/constant fact whose setting name says "password", "token", "api_key"...
  has its value redacted, unless the value is a placeholder (``changeme``, ``${VAR}``), a bool,
  a short number, or the name also says it is not the secret itself (``TOKEN_TTL``, ``AUTH_URL``);
* the *value*: text shaped like a credential (cloud/API key formats, PEM private keys, JWTs, the
  password of a ``user:password@`` URL, long high-entropy strings) is redacted in any fact.

A secret becomes ``<redacted:XXXXXX>``, a short salted hash of it: a rotated secret still shows up
as a new value in the ledger, while equal secrets stay recognisably equal.  Pure: no I/O.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import math
import re
from collections import Counter

from repomem.model import CONFIG, CONSTANT, DOCKER, Fact

_SECRET_WORDS = {"password", "passwd", "pwd", "pass", "passphrase", "secret", "secrets", "token",
                 "tokens", "credential", "credentials", "creds", "dsn", "auth", "apikey"}
# compounds found inside one run-together word as well (DBPASSWORD, apiKey, PRIVATEKEY)
_SECRET_JOINED = ("password", "passwd", "apikey", "privatekey", "accesskey", "clientsecret",
                  "secretkey", "signingkey", "encryptionkey", "masterkey", "authtoken")
# words saying the setting is *about* the secret, not the secret itself
_SAFE_WORDS = {"ttl", "timeout", "expiry", "expires", "expire", "expiration", "lifetime", "age",
               "length", "len", "size", "url", "uri", "endpoint", "host", "port", "enabled",
               "enable", "disabled", "required", "type", "header", "file", "path", "dir", "name",
               "user", "username", "count", "limit", "max", "min", "algorithm", "method", "mode",
               "prefix", "field", "param", "provider", "backend", "scheme", "version", "format",
               "policy", "interval", "duration", "retries", "seconds", "minutes", "hours", "days",
               "ms", "validation", "regex", "pattern", "hint", "label", "env", "var", "class"}
_PLACEHOLDER = re.compile(
    r"""^(?:|changeme|change[-_ ]?me.*|x{3,}|\*{3,}|\.{3}|<[^<>]*>|\$\{[^}]*\}|\$[A-Za-z_]\w*
    |\{\{.*\}\}|%\([^)]*\)s|null|none|nil|todo|tbd|placeholder|dummy|example|redacted
    |your[-_ ].*|password|secret|pass)$""", re.I | re.X | re.S)
_BOOL = {"true", "false", "yes", "no", "on", "off"}

# credential shapes, each matched anywhere in any field
_PATTERNS = [
    re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|\Z)"),
    re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
    re.compile(r"\bgh[pousr]_[A-Za-z0-9]{20,}"),
    re.compile(r"\bgithub_pat_[A-Za-z0-9_]{20,}"),
    re.compile(r"\bxox[baprs]-[A-Za-z0-9-]{10,}"),
    re.compile(r"\bsk-(?=[A-Za-z_-]*\d)[A-Za-z0-9_-]{20,}"),
    re.compile(r"\beyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*"),
]
_URL_PASSWORD = re.compile(r"\b([a-zA-Z][a-zA-Z0-9+.-]*://[^:/@\s]*):([^@/\s]+)@")
_LONG = re.compile(r"[A-Za-z0-9+/_-]{32,}={0,2}")
# NAME = value / NAME: value / "NAME": "value" in free text
_ASSIGN = re.compile(r"""(?P<name>[A-Za-z_][A-Za-z0-9_.-]*)["']?[ \t]*(?::=|=|:)[ \t]*(?P<q>["']?)(?P<val>[^\s"',;#]+)""")


def _token(secret: str) -> str:
    return "<redacted:" + hashlib.sha256(("repomem-redact\0" + secret).encode()).hexdigest()[:6] + ">"


def _words(name: str) -> list[str]:
    name = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)
    return [w for w in re.split(r"[^A-Za-z0-9]+", name.lower()) if w]


@functools.lru_cache(maxsize=65536)
def secret_name(name: str) -> bool:
    """True when a setting/constant name says its value is a credential."""
    ws = _words(name)
    if not ws or any(w in _SAFE_WORDS for w in ws):
        return False
    joined = "".join(ws)
    return any(w in _SECRET_WORDS for w in ws) or any(c in joined for c in _SECRET_JOINED)


def _not_secret_value(value: str) -> bool:
    v = value.strip().strip("\"'")
    return (bool(_PLACEHOLDER.match(v)) or v.lower() in _BOOL
            or (re.fullmatch(r"-?\d+(?:\.\d+)?", v) is not None and len(v) < 6))


def _entropy(s: str) -> float:
    n = len(s)
    return -sum(c / n * math.log2(c / n) for c in Counter(s).values())


def _random_looking(s: str) -> bool:
    """A generic long credential: mixed case and digits, high entropy (hex digests do not count:
    commit SHAs and checksums are everywhere in configs and are not secrets)."""
    if "/" in s and not re.search(r"[+=]", s):  # a path, unless base64 padding says otherwise
        return any(_random_looking(p) for p in s.split("/") if len(p) >= 32)
    return (len(s) >= 32 and sum(c.isdigit() for c in s) >= 2 and re.search(r"[a-z]", s) is not None
            and re.search(r"[A-Z]", s) is not None and _entropy(s) >= 4.0)


@functools.lru_cache(maxsize=65536)
def _sub_patterns(s: str) -> str:
    for rx in _PATTERNS:
        s = rx.sub(lambda m: _token(m.group(0)), s)
    s = _URL_PASSWORD.sub(
        lambda m: m.group(0) if _not_secret_value(m.group(2)) or m.group(2).startswith("<redacted:")
        else f"{m.group(1)}:{_token(m.group(2))}@", s)
    return _LONG.sub(lambda m: _token(m.group(0)) if _random_looking(m.group(0)) else m.group(0), s)


def _free_text_value_secret(val: str) -> bool:
    """In free text only values that cannot be code or prose count (``password: str`` is a type)."""
    return (len(val) >= 6 and not _not_secret_value(val) and not val.startswith("<redacted:")
            and not re.fullmatch(r"[A-Za-z_][A-Za-z_.\[\]()]*", val))


@functools.lru_cache(maxsize=65536)
def redact_text(s: str) -> str:
    """Redact credential-shaped substrings and ``SECRET_NAME=value`` assignments in free text."""
    if not s:
        return s
    s = _sub_patterns(s)

    def assignment(m: re.Match) -> str:
        val = m.group("val")
        if secret_name(m.group("name").rsplit(".", 1)[-1]) and _free_text_value_secret(val):
            return m.group(0)[: m.start("val") - m.start()] + _token(val)
        return m.group(0)

    return _ASSIGN.sub(assignment, s)


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


def _setting_name(fact: Fact) -> str:
    """The last non-index part of a config/constant key (``db.passwords.0`` -> ``passwords``)."""
    rest = fact.key.split(f":{fact.path}:", 1)[-1] if fact.path else fact.key.rsplit(":", 1)[-1]
    parts = [p for p in re.split(r"[.:]", rest) if not p.isdigit()]  # docker keys: env:NAME
    return parts[-1] if parts else ""


def redact_fact(fact: Fact) -> Fact:
    """The fact with every secret in value, text, purpose, subject and attrs redacted."""
    value, text, purpose, subject = fact.value, fact.text, fact.purpose, fact.subject
    attrs = list(fact.attrs)
    if fact.kind in (CONFIG, CONSTANT, DOCKER) and secret_name(_setting_name(fact)) \
            and not _not_secret_value(value) and not re.fullmatch(r"[./~][^\s]*", value.strip()):
        secret = value.strip().strip("\"'")
        tok = _token(secret)
        value = tok
        text = _redact_line(text, secret, tok)
        purpose = _replace_secret(purpose, secret, tok)
        attrs = [(k, _replace_secret(v, secret, tok)) for k, v in attrs]
    value = _sub_patterns(value)
    text, purpose = redact_text(text), redact_text(purpose)
    subject = _sub_patterns(subject)
    attrs = tuple((k, redact_text(v)) for k, v in attrs)
    if (value, text, purpose, subject, attrs) == (fact.value, fact.text, fact.purpose, fact.subject, fact.attrs):
        return fact
    return dataclasses.replace(fact, value=value, text=text, purpose=purpose, subject=subject, attrs=attrs)
