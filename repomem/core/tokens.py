"""The one tokenizer: identifiers split on snake_case/camelCase, with a small table of developer
synonyms, in two strengths over the same split, stop words and synonyms -- ``tokens`` (light
suffix stripping: the hash embedder, the question parser and the stale-reference check; stored
embeddings depend on it) and ``lexical_tokens`` (Snowball stems plus whole identifiers: the BM25
index and the ranker's word signals) -- and ``norm_ident``, one spelling of an identifier.  A
question and a fact meet on the same words because both go through this module."""

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


def _word(raw: str) -> str:
    """A split word lower-cased, as its synonym's word; "" for a stop word.  Both strengths
    start here."""
    w = raw.lower()
    return "" if w in _STOP else _SYNONYMS.get(w, w)


@functools.lru_cache(maxsize=1 << 17)  # a history repeats its words
def _token(raw: str) -> str:
    """One word's token; "" for a stop word."""
    w = _word(raw)
    if not w:
        return ""
    if len(w) > 4 and not w[0].isdigit():
        for suf in ("ing", "ed", "es", "s"):
            if w.endswith(suf) and len(w) - len(suf) >= 3:
                w = w[: -len(suf)]
                break
    return _SYNONYMS.get(w, w)


def tokens(text: str) -> list[str]:
    return [tok for raw in _SPLIT.findall(text) if (tok := _token(raw))]


def words(text: str) -> list[str]:
    """TEXT's split words lower-cased as written, stop words left out: no synonyms, no stems
    (the semantic embedder's input: its model knows "listen" and "port" on its own)."""
    return [w for raw in _SPLIT.findall(text) if (w := raw.lower()) not in _STOP]


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def uncamel(name: str, sep: str = "_") -> str:
    """camelCase word boundaries as separators, case kept: ``maxConnections`` ->
    ``max_Connections`` (then ``norm_ident``: ``max_connections``)."""
    return _CAMEL.sub(sep, name)


@functools.lru_cache(maxsize=1 << 17)  # a tree's fact texts repeat their identifiers
def norm_ident(word: str) -> str:
    """One spelling of an identifier: lower case, runs of - _ . as one underscore (PEP 503-like,
    so typing-extensions, typing_extensions and typing.extensions meet), edges trimmed."""
    return re.sub(r"[-_.]+", "_", word.lower()).strip("_")


# The tokenizer's name, kept in the snapshot's arrays and in every cached document digest: an
# index built by another tokenizer is not read (the question's tokens would not meet it), and
# its cached tokens are not reused.
# -2: the lexical name field holds a function's or class's name as written (BasicAuth: basic,
#     auth) and a setting's camelCase name split (testEnvironment, maxlength: max_length).
# -3: "linter" is lint, "formatter" format.
TOKENIZER = "snowball-english-3"


def written_names(text: str) -> list[tuple[str, list[str]]]:
    """Each word of TEXT as written, hyphens, dots and underscores inside it kept
    (``mini-redis-cli``, ``RealWorld``), with its parts between them (mini, redis, cli)."""
    return [(raw, _PARTS.findall(raw)) for raw in _IDENT.findall(text)]


_PARTS = re.compile(r"[A-Za-z0-9]+")


@functools.lru_cache(maxsize=1)
def _stemmer():
    import Stemmer  # PyStemmer: Snowball's C stemmers

    return Stemmer.Stemmer("english")


@functools.lru_cache(maxsize=1)
def _stem_synonyms() -> dict[str, str]:
    stem = _stemmer().stemWord
    return {stem(k): stem(v) for k, v in _SYNONYMS.items() if stem(k) != stem(v)}


# Words of a question that a fact's name spells otherwise: "how many workers" is WORKER_COUNT.
# "which linter": lint (ruff's [tool.ruff.lint], the lint job); "formatter": format.
_LEXICAL_SYNONYMS = {"mani": "count", "linter": "lint", "formatt": "format"}


@functools.lru_cache(maxsize=1 << 17)  # ~25 words a fact, most of them seen before
def stem_word(word: str) -> str:
    """A plain word's Snowball stem, inflections of a synonym included ("listened" is "port")."""
    if not word.isalpha():
        return word
    w = _stemmer().stemWord(word)
    w = _stem_synonyms().get(w, w)
    return _LEXICAL_SYNONYMS.get(w, w)


# A whole identifier as written: a dotted/dashed/underscored name, or a word with digits or inner
# capitals.  The words split "urllib3" into "urllib" + "3" (right for similarity), but a lexical
# ranker needs the identifier itself: "3" is in every version number, "urllib3" is rare.
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:[.\-][A-Za-z0-9_]+)*")


@functools.lru_cache(maxsize=1 << 16)  # as-of questions re-index the same fact texts
def lexical_tokens(text: str) -> tuple[str, ...]:
    """The embedder's words (split on case and underscores, stop words dropped, developer
    synonyms), each reduced to its Snowball stem, plus each whole identifier the words split,
    normalised (norm_ident).  The stem makes "tries" meet tryRender and "initializes"
    initialize, which the embedder's light suffix stripping cannot ("tri" is not "try"); the
    embedder keeps its own words, so that stored embeddings keep their meaning."""
    out = [w for raw in _SPLIT.findall(text) if (w := _lexical_word(raw))]
    out += [w for raw in _IDENT.findall(text) if (w := _whole_ident(raw))]
    return tuple(out)


@functools.lru_cache(maxsize=1 << 17)
def _lexical_word(raw: str) -> str:
    """A split word's lexical token; "" for a stop word."""
    w = _word(raw)
    return stem_word(w) if w else ""


@functools.lru_cache(maxsize=1 << 17)
def _whole_ident(raw: str) -> str:
    """An identifier the words split, as one token (norm_ident); "" when it is one word."""
    return norm_ident(raw) if len(_SPLIT.findall(raw)) > 1 else ""
