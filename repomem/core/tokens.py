"""The one tokenizer: identifiers split on snake_case/camelCase, lightly stemmed, with a small
table of developer synonyms (``tokens``), and whole identifiers kept for lexical ranking
(``norm_ident``; the Snowball-stemmed BM25 tokens are ``service.lexical.lexical_tokens``).
The hash embedder, the BM25 index, the question parser,
the ranker and the stale-reference check all tokenize with it, so a question and a fact meet on
the same words."""

from __future__ import annotations

import re

_STOP = set("""a an the of to in on for and or is are was be been what which who whom whose how
does do did it its this that these those there here we our us you your i me my with by at as from
into about now then than any some can could should would will shall may might tell give show
please s t""".split())

# Words a developer uses in a question -> words that appear in code facts.  Both sides map to one
# canonical token so "listen" meets "port" and "endpoint" meets "route".
_SYNONYMS = {
    "listen": "port", "listens": "port", "listening": "port",
    "endpoint": "route", "url": "route", "uri": "route", "path": "route", "api": "route",
    "routes": "route", "endpoints": "route", "urls": "route", "http": "route",
    "package": "dependency", "library": "dependency", "lib": "dependency", "pin": "dependency",
    "pinned": "dependency", "requirement": "dependency", "requirements": "dependency",
    "dependencies": "dependency", "deps": "dependency", "dep": "dependency",
    "expire": "timeout", "expiry": "timeout", "expiration": "timeout", "ttl": "timeout",
    "called": "name", "named": "name", "function": "func", "method": "func", "def": "func",
    "fetch": "get", "retrieve": "get", "lookup": "look", "find": "look",
    "db": "database", "env": "environment", "prod": "production", "stage": "staging",
    "interpreter": "python", "py": "python", "versions": "version", "supported": "support",
    "supports": "support", "max": "maximum", "min": "minimum", "cfg": "config",
    "configuration": "config", "settings": "config", "setting": "config",
}

_SPLIT = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+(?:\.\d+)*")


def tokens(text: str) -> list[str]:
    out = []
    for raw in _SPLIT.findall(text):
        w = raw.lower()
        if w in _STOP:
            continue
        w = _SYNONYMS.get(w, w)
        if len(w) > 4 and not w[0].isdigit():
            for suf in ("ing", "ed", "es", "s"):
                if w.endswith(suf) and len(w) - len(suf) >= 3:
                    w = w[: -len(suf)]
                    break
        out.append(_SYNONYMS.get(w, w))
    return out


def norm_ident(word: str) -> str:
    """One spelling of an identifier: lower case, runs of - _ . as one underscore (PEP 503-like,
    so typing-extensions, typing_extensions and typing.extensions meet), edges trimmed."""
    return re.sub(r"[-_.]+", "_", word.lower()).strip("_")


