"""Recognise a function that was renamed and/or moved within one commit.

A commit that removes ``a.py::load`` and adds ``b.py::load_config`` with (nearly) the same body
has moved one function, not retired one and created another: the ledger keeps its identity, so
its history survives.  Only fingerprints (normalised bodies, own name replaced by ``_SELF_``) are
compared; names and paths are deliberately ignored, since those are what a rename/move changes.
"""

from __future__ import annotations

import re
from collections import Counter
from difflib import SequenceMatcher

from repomem.model import Fact

THRESHOLD = 0.8
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


def family(anchor: str | None) -> str:
    path = (anchor or "").split("::", 1)[0]
    base = path.rsplit("/", 1)[-1]
    return _FAMILY.get(base[base.rfind("."):].lower(), "") if "." in base else ""


def _tokens(fact: Fact) -> list[str]:
    if not fact.fingerprint:
        return []
    fam = family(fact.anchor)
    noise = _NOISE.get(fam)
    if noise is None:
        return fact.fingerprint.split()
    fp = fact.fingerprint
    if fam == "js":  # 'x' and "x" are one string to prettier's quote style
        fp = _SINGLE_QUOTED.sub(r'"\1"', fp)
    return [t for t in fp.split() if t not in noise]


def match_moves(removed: list[Fact], added: list[Fact]) -> list[tuple[str, str]]:
    """``(old_anchor, new_anchor)`` pairs for functions that are the same function, one-to-one.

    Scores every removed x added pair, keeps those >= THRESHOLD, then assigns greedily from the
    best score down (ties broken by anchors), so the result does not depend on input order.
    """
    old = sorted({f.anchor: f for f in removed if f.anchor}.items())
    new = sorted({f.anchor: f for f in added if f.anchor}.items())
    if not old or not new:
        return []
    old_tok = [(a, toks, " ".join(toks)) for a, f in old for toks in [_tokens(f)]]
    new_tok = [(a, toks, " ".join(toks)) for a, f in new for toks in [_tokens(f)]]
    old_count = Counter(fp for _, _, fp in old_tok)
    new_count = Counter(fp for _, _, fp in new_tok)

    candidates: list[tuple[float, str, str]] = []
    matcher = SequenceMatcher(autojunk=False)  # autojunk would ignore "(" and "self" in long bodies
    for new_anchor, b, b_fp in new_tok:
        matcher.set_seq2(b)  # seq2 is the side SequenceMatcher indexes; set it once per column
        for old_anchor, a, a_fp in old_tok:
            if family(old_anchor) != family(new_anchor):
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
    return sorted(pairs)
