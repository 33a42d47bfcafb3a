"""Judging the task benchmark: which needed facts a context showed, and a keyword-grep baseline.

A shown fact serves a needed one (``bench/tasks/<repo>.json``, see its README) when

- its kind is one of the need's ``kinds`` and its path is the need's path;
- its value equals the need's value once both are normalised as the question benchmark does
  (:func:`bench.realjudge.norm`: version specs, sets, routes, quotes, booleans); a route
  also matches when the shown path is the tail of the needed one (a router's prefix left off:
  ``GET /:slug`` for ``GET /api/articles/:slug``), and its methods are only compared when the
  need names any;
- and, for a setting, constant, dependency or container fact (where a path holds many values),
  the need's subject is one of the fact's identifiers.  A function's, a class's or a route's
  value is its name, and a file states one Python requirement, so path and value decide.
  Runs of white space count as one (a schema's aligned columns are mined collapsed).

A stale value is shown when a shown fact of the need's kind and subject states one of the need's
earlier values and not its current one, under the need's own key (the ledger kept an old
version current) or in a file the setting lived in before (``old_paths``).

The grep baseline answers the same prompt with ``git grep`` over the work tree at HEAD: the
prompt's words (identifiers and words of three letters or more, without common English words)
are searched for, lines are ranked by how many different words they contain, and
``path:line: text`` lines are shown up to the same token budget.  A line serves a need when it is
in the need's file and contains its subject (or, for a route, the last literal part of its path)
and its value.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from bench.realjudge import _name, identifiers, norm

NAMED = ("function", "class", "route")  # kinds whose value is the name
# kinds whose path and value decide: a name's value is the name; a file states one Python
# requirement ("required Python version (pyproject.toml)" is requires-python)
UNNAMED = NAMED + ("python",)


_ROUTE = re.compile(r"^\s*((?:[A-Za-z]+[\s,|]+)*?)(/\S*)\s*$")


def _route(value: str) -> tuple[frozenset, str]:
    """A route's methods (``GET,POST``, ``ANY``: a Django view) and its path."""
    m = _ROUTE.match(value)
    if m is None:
        return frozenset(), value.strip()
    return frozenset(x.upper() for x in re.split(r"[\s,|]+", m.group(1)) if x), m.group(2)


def same(fact_value, need_value, kinds) -> bool:
    if "route" in kinds:
        fm, fp = _route(str(fact_value))
        nm, np_ = _route(str(need_value))
        if nm and fm and not (nm <= fm or "ANY" in fm):
            return False
        return fp == np_ or (fp not in ("", "/") and np_.endswith(fp))
    return norm(_spaces(fact_value), kinds) == norm(_spaces(need_value), kinds)


def _spaces(v):
    # "String    @unique" as aligned in a schema is "String @unique" once mined
    return re.sub(r"\s+", " ", v) if isinstance(v, str) else v


def _named(fact: dict, subject: str) -> bool:
    """The subject is one of the fact's identifiers; one with a colon (an npm script
    ``test:coverage``, a Maven ``group:artifact``) when each of its parts is."""
    ids = identifiers(fact)
    return _name(subject) in ids or (":" in subject and all(
        _name(part) in ids for part in subject.split(":") if part))


def _subject_ok(fact: dict, need: dict) -> bool:
    return need["kinds"][0] in UNNAMED or _named(fact, need["subject"])


def serves(fact: dict, need: dict) -> bool:
    return (fact.get("kind") in need["kinds"] and fact.get("path") == need["path"]
            and same(fact.get("value"), need["value"], need["kinds"]) and _subject_ok(fact, need))


def about(fact: dict, need: dict) -> bool:
    """Kind, path and subject as needed, the value not looked at (a diagnostic: the right fact
    with its value written otherwise)."""
    return (fact.get("kind") in need["kinds"] and fact.get("path") == need["path"]
            and _named(fact, need["subject"]))


def stale(fact: dict, need: dict, keys: set[str]) -> bool:
    """keys: the store's current keys that serve the need.  Every fact a context shows is
    current for its own key, so a stale value shows up either under the need's own key (the
    ledger kept an old version current) or in a file the setting lived in before; a sibling
    fact of the same file and name (a dependency's test-group pin) states its own value."""
    if fact.get("kind") not in need["kinds"] or not need.get("stale"):
        return False
    old = {o if isinstance(o, str) else o["path"] for o in need.get("old_paths", ())}
    if fact.get("key") not in keys and fact.get("path") not in old \
            and (keys or fact.get("path") != need["path"]):
        return False
    if need["kinds"][0] not in UNNAMED and not _named(fact, need["subject"]):
        return False
    v = fact.get("value")
    return not same(v, need["value"], need["kinds"]) and \
        any(same(v, s, need["kinds"]) for s in need["stale"])


def judge(needs: list[dict], shown: list[dict], keys: list[set[str]]) -> dict:
    served = [any(serves(f, n) for f in shown) for n in needs]
    useful = sum(any(serves(f, n) for n in needs) for f in shown)
    return {"served": served, "shown": len(shown), "useful": useful,
            "stale": sum(any(stale(f, n, k) for n, k in zip(needs, keys)) for f in shown),
            "about_other_value": [not s and any(about(f, n) for f in shown)
                                  for s, n in zip(served, needs)]}


# --- the keyword-grep baseline ---------------------------------------------------------------

_STOP = frozenset("""
the and for with from that this what which where when why how does doesn did not are was were
can could should would will into onto than then them they their there here have has had also
just only like some any all its our your you add fix make use used using get set new old now
still more most much many few per each every both other same after before over under about
check look find show tell give need want let please instead current currently default time
times work works working bug issue error fails fail failing return returns returned way one two
""".split())
_WORD = re.compile(r"[A-Za-z_][\w.-]*[\w]|[A-Za-z_]\w*")


def keywords(prompt: str) -> list[str]:
    out: list[str] = []
    for w in _WORD.findall(prompt):
        w = w.strip(".-").lower()
        if len(w) >= 3 and w not in _STOP and w not in out:
            out.append(w)
    return out


def grep_lines(work: Path, prompt: str, budget: int) -> list[tuple[str, int, str]]:
    """(path, line, text) that ``git grep`` shows for the prompt's words within the budget."""
    from repomem.service.context import approx_tokens

    words = keywords(prompt)
    if not words:
        return []
    args = ["git", "-C", str(work), "grep", "-n", "-I", "-i", "--full-name", "-F"]
    for w in words:
        args += ["-e", w]
    env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)
    out = subprocess.run(args, capture_output=True, text=True, errors="replace", env=env).stdout
    hits: list[tuple[int, str, int, str]] = []
    for row in out.splitlines():
        path, _, rest = row.partition(":")
        num, _, text = rest.partition(":")
        if not num.isdigit():
            continue
        low = text.lower()
        score = sum(w in low for w in words)
        hits.append((-score, path, int(num), text.strip()[:160]))
    hits.sort()
    shown: list[tuple[str, int, str]] = []
    used = 0
    for _, path, line, text in hits:
        cost = approx_tokens(f"{path}:{line}: {text}\n")
        if used + cost > budget:
            break
        shown.append((path, line, text))
        used += cost
    return shown


def _line_serves(path: str, text: str, need: dict) -> bool:
    if path != need["path"]:
        return False
    low = text.lower()
    if "route" in need["kinds"]:
        _, url = _route(need["value"])
        parts = [p for p in url.split("/") if p and not p.startswith((":", "<", "{"))]
        return bool(parts) and parts[-1].lower() in low
    value = str(need["value"]).strip("'\"").lower()
    return need["subject"].lower() in low and value in low


def judge_grep(needs: list[dict], lines: list[tuple[str, int, str]]) -> dict:
    served = [any(_line_serves(p, t, n) for p, _, t in lines) for n in needs]
    useful = sum(any(_line_serves(p, t, n) for n in needs) for p, _, t in lines)
    return {"served": served, "shown": len(lines), "useful": useful}
