"""Hybrid ranking of the facts valid at one time: which of them answers a question.

Four signals, fused deterministically (reciprocal rank fusion, ties by key):

- **exact identifiers**: a name the question spells out (``urllib3``,
  ``ACCESS_TOKEN_EXPIRE_MINUTES``, ``create_jinja_loader``, a route path) that is the name of a
  fact puts that fact first when it is of a kind the question asks for (else it is one more
  fused signal).  A plain word counts only when few facts bear it (``blinker`` does, ``cli`` in
  click does not), and the words that frame the question ("version", "require", the project
  named in "does flask require") never do.  A name that only a *retired* version bore resolves
  to the key's current version and adds a lineage note: the one place an old name is shown,
  and only because the question used it (a quoted retired value gets a note too);
- **lexical**: BM25 over the fact's fields, weighted per field (repomem.service.lexical);
- **vector**: the embedder's cosine similarity (the snapshot's matrix, or Chroma's embeddings);
- **intent**: the kinds of fact the question's wording asks for (a version, a port, a route, a
  function's name, a setting, the Python version), and scope: for a dependency question the
  group it names ("the docs build") or else the root project's runtime group, for other kinds
  the project's own files over its examples, docs and tests.

Where the parts live: rank (here) orders the named tiers, then the score; the tiers are
repomem.service.tiers's (_asked, _exact and its naming signals), the feature columns and their
weighted sum repomem.service.features's (the weights: repomem.service.scorer), the per-row
columns they read repomem.service.columns's and repomem.service.rowindex's.  The relevance
floor of the agent's context is here too (relevant, FLOOR).
"""

from __future__ import annotations

import json

from repomem.service import scorer
from repomem.service.columns import _CODE_NAMES, columns_code, facts_columns, qualnames
from repomem.service.features import _at_most_mth, _features
from repomem.service.question import Question, groups, has_content, identifiers, intent, parse
from repomem.service.quoted import retired_values
from repomem.service.rowindex import _Facts, _facts, gone_cache, offer_columns, offered_columns
from repomem.service.tiers import _asked, taken_up, unnamed

# what callers read from here (the names after FLOOR live in the modules above)
__all__ = ["rank", "relevant", "feature_table", "FLOOR", "intent", "identifiers", "groups",
           "has_content", "columns_code", "facts_columns", "qualnames", "gone_cache",
           "offer_columns", "offered_columns", "taken_up", "unnamed"]


def rank(question: str, rows: list[dict], sims, lex, t: int, n: int):
    """rows: every version valid at t; sims: their vector similarities (numpy); lex: their
    Lexical index.  Returns (the best n rows, each with its score, best first; lineage notes).

    The order: facts the question names, of a kind it asks for, first (``tier``; among them
    those named by more of its identifiers, and the project's own before an example's of the
    same name); then by the score, scorer's weighted sum of the features (_features)."""
    import numpy as np

    if not rows:
        return [], []
    q = parse(question).measured  # "how wide is the progress bar?": its width
    facts = _facts(rows)
    kinds, exact, lineage = _asked(q, facts, t)
    lexical = lex.scores(q.text, facts.project_of(q.text) | q.framing,
                         "by_purpose" if q.asks_function else "default",
                         keep={"name"} if q.names_setting else ())
    named = exact > 0
    _, fused, tier = _features(q, facts, kinds, named, lex, lexical, sims, scorer.weights())
    fused = np.round(fused, 6)
    aside = _aside(q, facts, tier)
    order = _order(tier, exact * tier, aside, fused, facts.key_order, n)
    score = [round(float(tier[i] + fused[i]), 6) for i in order]  # a position keeps its score
    best = _first_route_first(rows, order, exact * tier)
    keep = {rows[i]["key"] for i in best}
    taken = {rows[i]["value"] for i in np.flatnonzero(named) if rows[i]["kind"] in _CODE_NAMES}
    lineage += retired_values(q, [rows[i] for i in best[:3]], t,
                               {(x["key"], x["name"]) for x in lineage}, taken)
    lineage = sorted((x for x in lineage if x["key"] in keep), key=lambda x: (x["at"], x["key"]))
    # what the relevance floor reads (see relevant): the question's words the fact bears (BM25),
    # and whether the question names it
    return [dict(rows[i], score=sc, lexical=float(lexical[i]), named=bool(exact[i] > 0 or tier[i]))
            for i, sc in zip(best, score)], lineage


def feature_table(question: str, rows: list[dict], sims, lex, t: int) -> dict:
    """What rank reads of every row, for fitting the weights (bench/fit_ranker.py): every
    feature column, and the named tiers that order facts before the score does (``level``:
    rows of equal level are ordered by the score alone)."""
    import numpy as np

    q = parse(question).measured
    facts = _facts(rows)
    kinds, exact, _ = _asked(q, facts, t)
    lexical = lex.scores(q.text, facts.project_of(q.text) | q.framing,
                         "by_purpose" if q.asks_function else "default",
                         keep={"name"} if q.names_setting else ())
    cols, score, tier = _features(q, facts, kinds, exact > 0, lex, lexical, sims, scorer.weights(),
                                  every=True)
    aside = _aside(q, facts, tier)
    level = np.stack([tier, exact * tier, -aside], axis=1)
    return {"features": {f: np.asarray(cols[f], dtype=np.float64) if f in cols else
                         np.zeros(len(rows)) for f in scorer.FEATURES},
            "level": level, "score": np.round(score, 6), "key_order": facts.key_order}


def _aside(q: Question, facts: _Facts, tier):
    """Per row, 1 for a named fact of an example, docs or tests when the project's own file has
    one of the same name ("where is the error handler?": the app's own, before an example's,
    however many more of the question's words it says); none when the question is about them."""
    import numpy as np

    rows = facts.rows
    aside = np.zeros(len(rows), dtype=np.int32)
    if not q.asks_aux:
        alike: dict[str, list[int]] = {}
        for i in np.flatnonzero(tier):
            alike.setdefault(rows[i]["key"].rsplit(":", 1)[-1] if rows[i]["kind"] not in _CODE_NAMES
                             else rows[i]["value"], []).append(int(i))
        for group in alike.values():
            if any(facts.own[i] for i in group):
                aside[[i for i in group if not facts.own[i]]] = 1
    return aside


def _order(tier, level, aside, fused, key_order, n: int):
    """The N first rows by (-TIER, ASIDE, -LEVEL, -FUSED, KEY_ORDER): every named row (tier 1)
    and, when they are fewer than N, the rest's best by FUSED (every row tied with the last
    one taken too), ordered by those keys: the order a sort of every row gives."""
    import numpy as np

    named = np.flatnonzero(tier > 0)
    some = named
    if len(named) < n:
        m = n - len(named)
        rest = fused if not len(named) else fused[tier <= 0]
        if len(rest) > m:
            some = np.flatnonzero((fused >= _at_most_mth(rest, m)) | (tier > 0))
        else:
            some = np.arange(len(fused))
    return some[np.lexsort((key_order[some], -fused[some], -level[some], aside[some],
                            -tier[some]))][:n]


def _first_route_first(rows: list[dict], best, level):
    """A handler with several routes (Flask's ``@bp.route('/')`` over ``@bp.route('/index')``)
    answers first with the one declared first, the URL its author lists as the page's own,
    whichever of them the question's words happen to match better.  Only routes of one handler
    at one exact-match level trade places, among the positions they already hold."""
    groups: dict[tuple, list[int]] = {}
    for pos, i in enumerate(best):
        row = rows[i]  # the benchmark's baselines rank snippets that have no line
        if row["kind"] == "route" and row.get("line") is not None \
                and row.get("subject", "").startswith("route of "):
            groups.setdefault((row.get("path"), row["subject"], int(level[i])), []).append(pos)
    best = list(best)
    for positions in groups.values():
        if len(positions) > 1:
            ordered = sorted((best[p] for p in positions), key=lambda i: (rows[i]["line"], i))
            for p, i in zip(positions, ordered):
                best[p] = i
    return best


# -- the relevance floor (the agent's context: nothing rather than something unrelated) -------
# A prompt of only chatter ("thanks, looks good", "ok, continue") has nothing to look up
# (question.has_content).
# A fact whose BM25 score is below a share of the best one's is not shown, however much of the
# budget is left: it shares a word or two with the prompt by chance.  The share is fitted on the
# training repositories' task prompts (bench/fit_ranker.py --floor writes the file: the floor
# that serves the most needed facts, chosen by leave-one-repository-out).
FLOOR_FILE = "rank_weights_floor.json"


def _fitted_floor() -> float:
    from pathlib import Path  # (not importlib.resources: ~10 ms of a cold ask's CPU)

    data = json.loads(Path(__file__).with_name(FLOOR_FILE).read_text("utf-8"))
    return float(data["floor"])


FLOOR = _fitted_floor()


def relevant(question: str, ranked: list[dict]) -> list[dict]:
    """RANKED (rank's rows) less those below the relevance floor: every fact the question names,
    and those whose share of its words scores at least FLOOR of the best; none for a question
    with nothing to look up."""
    if not has_content(question):
        return []
    top = max((x.get("lexical", 0.0) for x in ranked), default=0.0)
    return [x for x in ranked if x.get("named") or
            (top > 0 and x.get("lexical", 0.0) >= FLOOR * top)]
