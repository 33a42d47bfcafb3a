"""Names a question gives a fact that the snapshot's name index (columns.facts_columns) leaves out,
read from the current rows on the first question that needs them and kept with the rows:

- **a package by the last part of its path**: a Go module is required by its path
  (``github.com/jinzhu/gorm``) and spoken of by its last part ("gorm", "jwt-go"), less a major
  version suffix (``github.com/labstack/echo/v4`` is echo); or by its whole path;
- **a setting by its owner**: ``Config.ws_max_size`` belongs to ``Config``, so "the size in
  uvicorn's Config" says the owner of that setting, not of the command-line option's default
  ``main.ws_max_size.default`` of the same name;
- **a setting by the end of its dotted name**: `java.version` is ``properties.java.version``;
- **a route by the last part of its path**: "log in" is ``POST /api/users/login``;
- **a name as spelled**: a setting or constant whose own name is written exactly as a name the
  question writes as code (`` `__version__` `` is ``__version__``, not ``main.version.is_flag``,
  which bears "version" too once names are normalised).
"""

from __future__ import annotations

import functools
import re
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

from repomem.core.tokens import norm_ident
from repomem.service.lexical import own_names, route_path

_MAJOR = re.compile(r"v\d+")  # a Go module's major version suffix: .../echo/v4
_OWNED = ("config", "constant")  # the kinds whose key names an owner before the setting
T = TypeVar("T")


def kept_with_rows(index: Callable[[Any], T]) -> Callable[[Any], T]:
    """An index of a row list (INDEX(facts), facts a rowindex._Facts), built on the first
    question that needs it and kept as long as those rows are (a warm process's snapshot)."""
    memo: weakref.WeakKeyDictionary[Any, T] = weakref.WeakKeyDictionary()

    @functools.wraps(index)
    def get(facts: Any) -> T:
        got = memo.get(facts)
        if got is None:
            got = memo[facts] = index(facts)
        return got
    return get


def package_tail(name: str) -> str:
    """The last part of a package's path (``github.com/jinzhu/gorm``: gorm), a major version
    suffix skipped; "" for a name that is no path under a host (a dotted first part)."""
    parts = [p for p in name.split("/") if p]
    if len(parts) < 2 or "." not in parts[0]:
        return ""
    if _MAJOR.fullmatch(parts[-1]) and len(parts) > 2:
        parts.pop()
    return norm_ident(parts[-1])


@kept_with_rows
def tails(facts) -> dict[str, list[int]]:
    """The dependencies by the last part of their path (normalised), for FACTS (rowindex._Facts)."""
    got: dict[str, list[int]] = {}
    for i, row in enumerate(facts.rows):
        if row["kind"] == "dependency":
            tail = package_tail(row["key"].split(":", 4)[-1])
            if tail:
                got.setdefault(tail, []).append(i)
    return got


def module_rows(facts, literal_words) -> list[list[int]]:
    """The dependencies a question names by their whole path as written
    (``github.com/gosimple/slug``: its words are identifiers one by one), one list a path."""
    out = []
    for word in sorted(literal_words):
        if "/" in word and package_tail(word.rstrip("?.,:;")):
            hits = [i for i in facts.names.get(norm_ident(word.rstrip("?.,:;")), ())
                    if facts.rows[i]["kind"] == "dependency"]
            if hits:
                out.append(hits)
    return out


@kept_with_rows
def route_ends(facts) -> dict[str, list[int]]:
    """The routes by the last part of their path (``/api/users/login``: login), parameters
    (``:slug``, ``<id>``, ``{id}``) skipped."""
    got: dict[str, list[int]] = {}
    for i, row in enumerate(facts.rows):
        if row["kind"] == "route":
            parts = [p for p in route_path(row["value"]).split("/")
                     if p and p[0] not in ":<{*("]
            if parts:
                got.setdefault(norm_ident(parts[-1]), []).append(i)
    return got


@kept_with_rows
def owners(facts) -> dict[str, list[int]]:
    """The settings and constants by each owner their key names before their own name
    (``Config`` of ``Config.ws_max_size``; as spelled: an owner is a class, named as written)."""
    got: dict[str, list[int]] = {}
    for i, row in enumerate(facts.rows):
        if row["kind"] in _OWNED:
            for part in set(own_names(row["key"])[0].split(".")[:-1]):
                got.setdefault(part, []).append(i)
    return got


@kept_with_rows
def dotted(facts) -> dict[str, list[int]]:
    """The settings and constants by each dotted ending of their own name, as written
    (``java.version`` of ``properties.java.version``)."""
    got: dict[str, list[int]] = {}
    for i, row in enumerate(facts.rows):
        parts = own_names(row["key"])[0].split(".") if row["kind"] in _OWNED else []
        for k in range(1, len(parts) - 1):
            got.setdefault(".".join(parts[k:]), []).append(i)
    return got


@kept_with_rows
def classes_of_methods(facts) -> dict[str, list[int]]:
    """The methods by their class, as spelled (``Config`` of "method Config.configure_logging",
    ``Db`` of "method Db.publish")."""
    got: dict[str, list[int]] = {}
    for i, row in enumerate(facts.rows):
        if row["kind"] == "function" and row["subject"].startswith("method "):
            for part in set(row["subject"][len("method "):].split(".")[:-1]):
                got.setdefault(part, []).append(i)
    return got


def member_named(facts, capitalised) -> Any:
    """Per row, whether it is a method of a class the question spells (a word of CAPITALISED:
    "which Server method closes the sockets?")."""
    return _of_words(facts, classes_of_methods, capitalised)


def owner_named(facts, capitalised) -> Any:
    """Per row, whether its key names as its owner a word the question spells as a class's name
    (CAPITALISED: question.Question.capitalised)."""
    return _of_words(facts, owners, capitalised)


def _of_words(facts, index, words) -> Any:
    """Per row, whether INDEX(facts) (an index by word) lists it under one of WORDS."""
    import numpy as np

    out = np.zeros(len(facts.rows), dtype=bool)
    got = index(facts) if words else {}
    for word in words:
        out[got.get(word, [])] = True
    return out


def spelled(rows: list[dict], hits: list[int], raw: str) -> list[int]:
    """HITS that are a setting or constant whose own name is RAW as written (``__version__``), or
    ends with it after a dot (``properties.java.version`` for `java.version`)."""
    return [i for i in hits if rows[i]["kind"] in _OWNED and _spells(rows[i]["key"], raw)]


def _spells(key: str, raw: str) -> bool:
    last, leaf = own_names(key)
    return raw in (last, leaf) or last.endswith("." + raw)
