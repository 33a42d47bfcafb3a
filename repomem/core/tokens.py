"""The one tokenizer: identifiers split on snake_case/camelCase, lightly stemmed, with a small
table of developer synonyms (``tokens``), and whole identifiers kept for lexical ranking
(``lexical_tokens``, ``norm_ident``).  The hash embedder, the BM25 index, the question parser,
the ranker and the stale-reference check all tokenize with it, so a question and a fact meet on
the same words."""

from __future__ import annotations

import functools
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


# A whole identifier as written: a dotted/dashed/underscored name, or a word with digits or inner
# capitals.  tokens() splits "urllib3" into "urllib" + "3" (right for similarity), but a lexical
# ranker needs the identifier itself: "3" is in every version number, "urllib3" is rare.
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:[.\-][A-Za-z0-9_]+)*")


def norm_ident(word: str) -> str:
    """One spelling of an identifier: lower case, runs of - _ . as one underscore (PEP 503-like,
    so typing-extensions, typing_extensions and typing.extensions meet), edges trimmed."""
    return re.sub(r"[-_.]+", "_", word.lower()).strip("_")


@functools.lru_cache(maxsize=1 << 16)  # as-of questions re-index the same fact texts
def lexical_tokens(text: str) -> tuple[str, ...]:
    """tokens() plus each whole identifier that tokens() splits, normalised (norm_ident).  Also
    strips the plural/3rd-person s of four-letter words ("sets" meets set_parameter_source),
    which tokens() leaves alone so that stored embeddings keep their meaning."""
    out = [w[:-1] if len(w) == 4 and w[-1] == "s" and w[-2] not in "su" and w[0].isalpha() else w
           for w in tokens(text)]
    for raw in _IDENT.findall(text):
        parts = _SPLIT.findall(raw)
        if len(parts) > 1:
            whole = norm_ident(raw)
            if whole:
                out.append(whole)
    return tuple(out)


