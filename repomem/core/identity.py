"""Recognise a function that was renamed and/or moved within one commit.

A commit that removes ``a.py::load`` and adds ``b.py::load_config`` with (nearly) the same body
has moved one function, not retired one and created another: the ledger keeps its identity, so
its history survives.  Fingerprints (normalised bodies, own name replaced by ``_SELF_``) are
compared first, names and paths ignored, since those are what a rename/move changes.
A function renamed while its body was edited stays in its file and class: there a lower share of
the body in common links it (SAME_PLACE_THRESHOLD), when the two names share a word.  A function
moved to another file while its body was rewritten keeps its name instead: the one function of a
qualified name a commit removes and the one of that name it adds are linked, whatever their bodies.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from collections import Counter
from collections.abc import Sequence
from difflib import SequenceMatcher

from repomem.core.model import Fact

THRESHOLD = 0.8
# A function renamed while its body was edited, in the file and class it was in: one removed
# and one added function of one owner that are not linked otherwise (healthchecks'
# lock_and_delete -> rename_and_delete) need this much of a body in common.
SAME_PLACE_THRESHOLD = 0.6
_NAME_WORDS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
# Below this many tokens a body ("pass", "return None", "raise NotImplementedError") is too
# generic for similarity to mean anything; only an exact, unambiguous match counts.
MIN_TOKENS = 8


# Language families: a function may move between files of one family (a .js file renamed .ts),
# never across families.  Python fingerprints are compared as they are.
_FAMILY = {".py": "python", ".js": "js", ".jsx": "js", ".mjs": "js", ".cjs": "js", ".ts": "js",
           ".mts": "js", ".cts": "js", ".tsx": "js", ".go": "go", ".rs": "rust", ".java": "java"}
# Tokens a formatter adds or drops without changing the code (prettier's semicolons and trailing
# commas, rustfmt's trailing commas): left out so a reformat does not lower the similarity.
_NOISE = {"js": {";", ","}, "rust": {","}, "java": set(), "go": set()}
_SINGLE_QUOTED = re.compile(r"'((?:[^'\\\n]|\\.)*)'")


# -- fingerprints on demand ------------------------------------------------------------------
# Only the functions that appear or disappear in a commit are ever compared, a small share of
# all the functions of all the file versions a history mines; and a body that did not change
# since the file's previous version has the fingerprint it had then.  So a fingerprint is a
# Fingerprint: computed on first use, and looked up by a hash of its body text first.
CACHE_MAX = 10_000  # bodies (a fingerprint is about as long as its body): a few MB
_CACHE: dict[bytes, str] = {}


def remember(memo: dict, key, value, limit: int):
    """``memo[key] = value`` for a memo of at most ``limit`` entries: when full, its older half
    goes first (dicts keep insertion order).  Returns value."""
    if len(memo) >= limit:
        for k in list(itertools.islice(memo, limit // 2)):
            del memo[k]
    memo[key] = value
    return value


class Fingerprint:
    """A function's fingerprint, computed when first read (``str(fp)``) and then kept.

    It compares and tests like the string it stands for.  Pickled (a record sent from a mining
    worker) it becomes "": fingerprints only matter inside the commit that mined them, and the
    worker has already matched the moves."""

    __slots__ = ("_make", "_key", "_text")

    def __init__(self, make, key: bytes | None = None):
        self._make, self._key = make, key
        self._text = None if key is None else _CACHE.get(key)

    def __str__(self) -> str:
        if self._text is None:
            self._text = self._make()
            if self._key is not None:
                remember(_CACHE, self._key, self._text, CACHE_MAX)
        self._make = None  # frees what the computation needed (source bytes, closures)
        return self._text

    def __eq__(self, other) -> bool:
        return str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))

    def __contains__(self, part: str) -> bool:
        return part in str(self)

    def __bool__(self) -> bool:
        return bool(str(self))

    def __repr__(self) -> str:
        return f"Fingerprint({str(self)!r})"

    def __reduce__(self):
        return (str, ("",))


def body_key(lang: str, name: str, body: bytes) -> bytes:
    """The cache key of a fingerprint: what it is a function of (language, own name, body)."""
    h = hashlib.blake2b(body, digest_size=16)
    h.update(f"\0{lang}\0{name}".encode("utf-8", "surrogatepass"))
    return h.digest()


def family(anchor: str | None) -> str:
    path = (anchor or "").split("::", 1)[0]
    base = path.rsplit("/", 1)[-1]
    return _FAMILY.get(base[base.rfind("."):].lower(), "") if "." in base else ""


def _tokens(fact: Fact) -> list[str]:
    fp = str(fact.fingerprint)
    if not fp:
        return []
    fam = family(fact.anchor)
    noise = _NOISE.get(fam)
    if noise is None:
        return fp.split()
    if fam == "js":  # 'x' and "x" are one string to prettier's quote style
        fp = _SINGLE_QUOTED.sub(r'"\1"', fp)
    return [t for t in fp.split() if t not in noise]


_CLASS = "::class "  # a class's anchor: ``a.py::class C`` (its methods': ``a.py::C.m``)


def class_anchor(path: str, qual: str) -> str:
    return f"{path}{_CLASS}{qual}"


def _owner(anchor: str) -> tuple[str, str]:
    """(the anchor of what a method belongs to, or "", its own name): ``a.py::C.m`` -> (``a.py::C``,
    ``m``)."""
    path, _, qual = anchor.partition("::")
    owner, _, name = qual.partition("(")[0].rpartition(".")
    return (f"{path}::{owner}" if owner else ""), qual[len(owner) + 1 if owner else 0:]


def _same_place(old_tok, new_tok, used_old: set[str], used_new: set[str], matcher) -> list[tuple[str, str]]:
    """Functions left over that stayed in their file and class, renamed and edited in one
    commit: each owner's leftovers whose names share a word paired best score first, at
    SAME_PLACE_THRESHOLD or more (both long enough to compare)."""
    def owner(anchor: str) -> str:
        return _owner(anchor)[0] or anchor.partition("::")[0]

    def words(anchor: str) -> set[str]:
        return {w.lower() for w in _NAME_WORDS.findall(_owner(anchor)[1].partition("(")[0])} - {"test"}

    left_new: dict[str, list] = {}
    for a, toks, _, _ in new_tok:
        if a not in used_new and _CLASS not in a and len(toks) >= MIN_TOKENS:
            left_new.setdefault(owner(a), []).append((a, toks))
    candidates = []
    for o, a_toks, _, _ in old_tok:
        if o in used_old or _CLASS in o or len(a_toks) < MIN_TOKENS:
            continue
        for n, b_toks in left_new.get(owner(o), ()):
            if not words(o) & words(n):  # a rename keeps a word of the name (lock_and_delete)
                continue
            if 2 * min(len(a_toks), len(b_toks)) / (len(a_toks) + len(b_toks)) < SAME_PLACE_THRESHOLD:
                continue
            matcher.set_seqs(a_toks, b_toks)
            score = matcher.ratio()
            if score >= SAME_PLACE_THRESHOLD:
                candidates.append((score, o, n))
    pairs = []
    for _, o, n in sorted(candidates, key=lambda c: (-c[0], c[1], c[2])):
        if o not in used_old and n not in used_new:
            used_old.add(o)
            used_new.add(n)
            pairs.append((o, n))
    return pairs


def _same_name(old_tok, new_tok, used_old: set[str], used_new: set[str]) -> list[tuple[str, str]]:
    """Functions left over that kept their qualified name (``Class.method`` or ``name``) while
    moving to another file of their language family, their bodies rewritten on the way (a module
    split in two, its functions refactored as they went): linked when the name is the commit's
    only removed one and its only added one, so two helpers of one name are never guessed at."""
    def name(anchor: str, fam: str) -> tuple[str, str]:
        return fam, anchor.partition("::")[2]

    old_names = Counter(name(a, fam) for a, _, _, fam in old_tok)
    new_by_name = {name(a, fam): a for a, _, _, fam in new_tok}
    new_names = Counter(name(a, fam) for a, _, _, fam in new_tok)
    pairs = []
    for o, _, _, fam in old_tok:
        key = name(o, fam)
        n = new_by_name.get(key)
        if n is None or not fam or old_names[key] != 1 or new_names[key] != 1:
            continue
        if o not in used_old and n not in used_new:
            used_old.add(o)
            used_new.add(n)
            pairs.append((o, n))
    return pairs


def match_moves(removed: list[Fact], added: list[Fact],
                owners: Sequence[tuple[str, str]] = ()) -> list[tuple[str, str]]:
    """``(old_anchor, new_anchor)`` pairs for functions that are the same function, one-to-one.

    Scores every removed x added pair, keeps those >= THRESHOLD, then assigns greedily from the
    best score down (ties broken by anchors), so the result does not depend on input order.

    Then a method left over follows its class: OWNERS (the classes' own moves, anchors
    ``a.py::class C``) and the owners of the methods matched above say where each class went,
    and a method of the same name there with the same body is the same method.  click's
    ``KeepOpenFile`` and ``LazyFile`` became ``_KeepOpenFile`` and ``_LazyFile`` in one commit;
    both ``__enter__`` are ``return self``, too short and too alike to match by body alone, so
    both were retired and born again.
    """
    old = sorted({f.anchor: f for f in removed if f.anchor}.items())
    new = sorted({f.anchor: f for f in added if f.anchor}.items())
    if not old or not new:
        return []
    old_tok = [(a, toks, " ".join(toks), family(a)) for a, f in old for toks in [_tokens(f)]]
    new_tok = [(a, toks, " ".join(toks), family(a)) for a, f in new for toks in [_tokens(f)]]
    old_count = Counter(t[2] for t in old_tok)
    new_count = Counter(t[2] for t in new_tok)

    candidates: list[tuple[float, str, str]] = []
    matcher = SequenceMatcher(autojunk=False)  # autojunk would ignore "(" and "self" in long bodies
    for new_anchor, b, b_fp, b_fam in new_tok:
        matcher.set_seq2(b)  # seq2 is the side SequenceMatcher indexes; set it once per column
        for old_anchor, a, a_fp, a_fam in old_tok:
            if a_fam != b_fam:  # (families computed once per anchor, not once per pair)
                continue
            if len(a) < MIN_TOKENS or len(b) < MIN_TOKENS:
                if a_fp and a_fp == b_fp and old_count[a_fp] == 1 and new_count[b_fp] == 1:
                    candidates.append((1.0, old_anchor, new_anchor))
                continue
            if a_fp == b_fp:
                candidates.append((1.0, old_anchor, new_anchor))
                continue
            # ratio() <= 2*min/(len sum): a cheap length bound before any real work
            if 2 * min(len(a), len(b)) / (len(a) + len(b)) < THRESHOLD:
                continue
            matcher.set_seq1(a)
            if matcher.real_quick_ratio() < THRESHOLD or matcher.quick_ratio() < THRESHOLD:
                continue
            score = matcher.ratio()
            if score >= THRESHOLD:
                candidates.append((score, old_anchor, new_anchor))

    candidates.sort(key=lambda c: (-c[0], c[1], c[2]))
    used_old: set[str] = set()
    used_new: set[str] = set()
    pairs = []
    for _, o, n in candidates:
        if o in used_old or n in used_new:
            continue
        used_old.add(o)
        used_new.add(n)
        pairs.append((o, n))
    pairs += _same_place(old_tok, new_tok, used_old, used_new, matcher)
    pairs += _same_name(old_tok, new_tok, used_old, used_new)
    # methods follow their class: where each owner went (a class renamed, or all its matched
    # methods gone to one other owner)
    went: dict[str, set[str]] = {}
    classes = [(o.replace(_CLASS, "::", 1), n.replace(_CLASS, "::", 1)) for o, n in owners]
    for o, n in [*classes, *[(_owner(o)[0], _owner(n)[0]) for o, n in pairs]]:
        if o and n and o != n:
            went.setdefault(o, set()).add(n)
    if went:
        new_fp = {a: fp for a, _, fp, _ in new_tok}
        for o, _, a_fp, _ in old_tok:
            own, name = _owner(o)
            dest = went.get(own)
            if o in used_old or not a_fp or dest is None or len(dest) != 1:
                continue
            n = f"{next(iter(dest))}.{name}"
            if n not in used_new and new_fp.get(n) == a_fp:
                used_old.add(o)
                used_new.add(n)
                pairs.append((o, n))
    return sorted(pairs)
