"""Judging the real-history benchmark: is a returned fact the expected one?

A fact is right when its kind is one of ``expect.kinds``, its value equals ``expect.value`` once
both are normalised, and its path and subject match where the question gives them.  Normalising:

- a version spec is compared with ``packaging`` (``>=1,<2`` == ``<2, >=1``; ``*`` == no spec);
- a set (``3.10, 3.11``; a list of languages, ``["en", "es"]``) is compared as a set;
- a route as its set of methods and its path (``GET,POST /x`` == ``POST GET /x``);
- anything else as stripped text without surrounding quotes (``"8080"`` == ``8080``), booleans
  in any case (``True`` == ``true``).

The subject matches when the expected name is one of the identifiers of the fact's subject or key
(case, ``-``/``_``/``.``/``::`` ignored), so a key that gains a scope or a subject worded differently
still matches.
"""

from __future__ import annotations

import re

from packaging.specifiers import InvalidSpecifier, SpecifierSet

_METHOD = re.compile(r"^((?:GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS)(?:[\s,|]+(?:GET|POST|PUT|DELETE|"
                     r"PATCH|HEAD|OPTIONS))*)\s+(\S.*)$", re.I)
_SPEC = re.compile(r"^\s*(\*|(?:[<>=!~]=?|===)\s*[\w.*+!-]+(\s*,\s*(?:[<>=!~]=?|===)\s*[\w.*+!-]+)*)\s*$")


def _name(s: str) -> str:
    return re.sub(r"(?:[-_.]|::)+", "-", s.strip().lower())  # Rust's a::b is a.b in a key


_JAVA_VERSION = re.compile(r"^(?:JavaVersion\.)?VERSION_(\d+(?:_\d+)?)$")


_F_STRING = re.compile(r"^[fF][\"']")
_PROPERTY_ESCAPE = re.compile(r"\\([:=#!])")
_ARITHMETIC = re.compile(r"[\d\s*+()-]+")  # whole numbers multiplied, added, subtracted


def _evaluated(v: str) -> str:
    """The value of whole-number arithmetic (``16 * 1024 * 1024``), read with ast; V itself when
    it is not such an expression."""
    import ast

    def ev(node):
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return node.value
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Add, ast.Sub)):
            return {ast.Mult: int.__mul__, ast.Add: int.__add__,
                    ast.Sub: int.__sub__}[type(node.op)](ev(node.left), ev(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -ev(node.operand)
        raise ValueError(v)

    try:
        return str(ev(ast.parse(v.strip(), mode="eval").body))
    except (SyntaxError, ValueError, RecursionError):
        return v


def norm(value, kinds=()) -> object:
    """A comparable form of a fact's value."""
    if value is None:
        return None
    v = str(value).strip()
    if _F_STRING.match(v):  # f"python-httpx/{__version__}" states the text of its template
        v = v[1:]
    v = _PROPERTY_ESCAPE.sub(r"\1", v.strip("'\"").strip())  # a .properties file's https\://
    if "*" in v and _ARITHMETIC.fullmatch(v):  # 30 * 24 * 60 * 60 is 2592000 (a product: not
        # a date or a range, 2024-1-2)
        v = _evaluated(v)
    java = _JAVA_VERSION.match(v)  # Gradle's JavaVersion.VERSION_1_8 is the Java version 1.8
    if java:
        v = java.group(1).replace("_", ".")
    m = _METHOD.match(v)
    if m:
        return ("route", frozenset(x.upper() for x in re.split(r"[\s,|]+", m.group(1)) if x),
                m.group(2).strip())
    if "dependency" in kinds and _SPEC.match(v):
        try:
            return ("spec", SpecifierSet("" if v == "*" else v.replace(" ", "")))
        except InvalidSpecifier:
            pass
    if v.startswith("[") and v.endswith("]"):  # a list of strings: compared as a set
        return ("set", frozenset(x.strip().strip("'\"") for x in v[1:-1].split(",") if x.strip()))
    if v.lower() in ("true", "false", "none", "null"):  # Python True, YAML/JSON true
        return ("text", v.lower())
    if "," in v:
        return ("set", frozenset(x.strip().strip("'\"[]() ") for x in v.strip("[]()").split(",")))
    return ("text", v)


def same_value(a, b, kinds=()) -> bool:
    return norm(a, kinds) == norm(b, kinds)


def identifiers(fact: dict) -> set[str]:
    text = f"{fact.get('key', '')} {fact.get('subject', '')}"
    # split three ways: on '/' and '.' too (paths, dotted keys such as Config.PORT or
    # project.version), and not ('@types/node' and 'zope.interface' are one name each)
    words = {t for pat in (r"[\s:(),]+", r"[\s:(),/]+", r"[\s:(),/.]+")
             for t in re.split(pat, text) if t}
    # and a dotted key's dotted endings: properties.java.version is the java.version property
    words |= {t.split(".", i)[-1] for t in words for i in range(1, t.count("."))}
    # and a name the subject quotes: app setting 'query parser'
    words |= set(re.findall(r"'([^']+)'", str(fact.get("subject", ""))))
    return {_name(t) for t in words}


def _paths(fact: dict) -> set:
    """The files a shown fact names: its own, and those that state it alike (``same_in``: the
    answer names them too)."""
    return {fact.get("path")} | {c.get("path") for c in fact.get("same_in") or ()}


def about(fact: dict, expect: dict) -> bool:
    """Kind, subject and path as expected (the value is not looked at)."""
    if fact.get("kind") not in expect["kinds"]:
        return False
    if expect.get("path") and expect["path"] not in _paths(fact):
        return False
    subj = expect.get("subject")
    return not subj or _name(subj) in identifiers(fact)


def right(fact: dict, expect: dict) -> bool:
    return about(fact, expect) and same_value(fact.get("value"), expect["value"], expect["kinds"])


def stale(fact: dict, q: dict) -> bool:
    """The fact states one of the question's stale values for the asked subject (any path: a
    superseded value may have lived in another file)."""
    e = q["expect"]
    if fact.get("kind") not in e["kinds"]:
        return False
    if e.get("subject") and _name(e["subject"]) not in identifiers(fact):
        return False
    if not e.get("subject") and e.get("path") and fact.get("path") != e["path"] \
            and q["family"] not in ("renamed", "function"):
        return False
    # an earlier spelling of the value the question expects is no stale value ('1.8' before
    # JavaVersion.VERSION_1_8)
    return any(same_value(fact.get("value"), s, e["kinds"]) for s in q["stale_values"]
               if e.get("value") is None or not same_value(s, e["value"], e["kinds"]))


def judge(q: dict, facts: list[dict]) -> dict:
    """Scores of one answer (the facts best first)."""
    e = q["expect"]
    if q["absent"]:
        states = [f for f in facts if about(f, e)]
        ok = not states
        return {"top1": ok, "top3": ok, "top1_any_path": ok, "stale_top1": bool(facts) and stale(facts[0], q),
                "stale_at5": any(stale(f, q) for f in facts[:5])}
    hits = [i for i, f in enumerate(facts) if right(f, e)]
    anywhere = dict(e, path=None)  # the value right, its provenance (path) not looked at
    return {"top1": bool(hits) and hits[0] == 0, "top3": bool(hits) and hits[0] < 3,
            "top1_any_path": bool(facts) and right(facts[0], anywhere),
            "stale_top1": bool(facts) and stale(facts[0], q),
            "stale_at5": any(stale(f, q) for f in facts[:5])}
