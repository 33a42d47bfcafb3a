"""The feature columns of ranking and their weighted sum (_features): one numpy column per
feature of repomem.service.scorer.FEATURES over all rows at once, the weights read from
scorer's weights file.  docs/ranking.md says what each feature is.
"""

from __future__ import annotations

import functools
import re

from repomem.core.tokens import stem_word
from repomem.service import alias, naming
from repomem.service.columns import _CODE_NAMES
from repomem.service.lexical import lexical_tokens
from repomem.service.question import _FRAME, _GROUPS, Question
from repomem.service.rowindex import _at, _Facts
from repomem.service.tiers import RARE

RRF_K = 60  # the usual reciprocal-rank-fusion constant (lexical_rrf, vector_rrf: 1 / (RRF_K + rank))
RRF_DEPTH = 4096  # the rows a signal ranks (every row of each benchmark history's current view)


def _features(q: Question, facts: _Facts, kinds: set[str], named, lex, lexical, sims,
              w: dict[str, float], every: bool = False):
    """The feature columns of scorer.FEATURES over all rows (each a numpy array, 1/0 for a
    rule's test) and the score, their weighted sum.  Features of weight 0 are skipped unless
    EVERY (fitting reads them all).  LEX: the Lexical index; LEXICAL: its scores."""
    import numpy as np

    rows = facts.rows
    size = len(rows)
    cols: dict[str, object] = {}
    score = np.zeros(size, dtype=np.float64)

    def add(feature: str, column) -> None:
        nonlocal score
        cols[feature] = column
        if w[feature]:
            score = score + np.asarray(column, dtype=np.float64) * w[feature]

    def wants(feature: str) -> bool:
        return every or bool(w[feature])

    semantic = None
    if getattr(sims, "ndim", 1) == 2:  # scorer.similarities of an embedder with a semantic part
        sims, semantic = sims[:, 0], sims[:, 1]
    add("lexical_rrf", _rrf(lexical, 1.0, only_positive=True))
    add("vector_rrf", _rrf(sims, 1.0))
    if wants("semantic_rrf"):  # 0 where the embedder has no semantic part
        add("semantic_rrf", _rrf(semantic, 1.0) if semantic is not None else np.zeros(size))
    wanted = facts.of_kind(kinds)
    if kinds & {"dependency", "python"}:
        wanted |= facts.runtime
    add("kind_wanted", wanted)
    if q.asks_number:  # "how long is a jwt valid?": 60d, not the secret it is signed with
        add("number_value", facts.numeric())
    if q.asks_duration:  # "how many seconds is a reset link good for?": expires_in=600, named
        # as a time is, not a number of a form's field
        add("duration_named", facts.timed())
    if q.asked_shape:  # "which SQLite file does the app keep its data in?": ./../gorm.db; "what
        # character does the bar draw?": "-"; "what error message ...?": words
        add("shape_value", facts.shaped(q.asked_shape))
    if q.numbers:  # "why do we run out of connections at 100 concurrent requests?": the
        # limit whose value says 100 (max_connections=100)
        add("number_said", facts.stating(q.numbers))
    if wants("value_said"):  # "why are option names bold cyan?": STYLE_OPTION = "bold cyan"
        add("value_said", facts.value_said(q.phrases))
    methods = q.route_methods if "route" in kinds else frozenset()
    if methods:  # "which route returns the user's feed?": a GET, not POST /users (a route's
        # methods: GET of "GET /api/articles/feed", GET and POST of "GET,POST /edit")
        add("route_method", facts.answering_with(methods))
    wanted_groups = q.groups if "dependency" in kinds else frozenset()
    if wanted_groups:  # "the docs build", "type checking": that group's pin
        add("dependency_group", np.isin(facts.group, sorted(wanted_groups)) & wanted)
    else:  # the root project's runtime requirement over examples, docs and dev pins
        add("root_dependency", facts.root_dep & wanted)
    # for other kinds, the project's own files over its examples, docs and tests; a question of
    # no particular kind too ("how are cookies stored between requests?"), unless it asks about
    # them ("which test checks that cookies persist?")...
    own = facts.own & ~facts.of_kind(("dependency",)) & (wanted if kinds else not q.asks_aux)
    add("own_file", own)
    # ...and a function or class of the code itself over a test's: a test's name and docstring
    # paraphrase the behaviour it checks (test_cookie_persistence)
    add("own_code", own & wanted & facts.of_kind(_CODE_NAMES))
    if not q.asks_aux:  # a test's own functions least: no question not about the tests is
        add("test_code", facts.test_code)  # answered by one
    if not kinds or q.asks_how:  # "how are cookies stored?": the API before a private helper
        # of it (a private method may be how it is done: "how is a url merged?")
        add("private", facts.private & facts.of_kind(("class",)) if kinds else facts.private)
    verb = q.action
    about = set(q.words) - {stem_word(verb or "")}
    doers = facts.doing(verb, about) if verb else []
    if 0 < len(doers) <= RARE:  # "how are passwords hashed?": what calls bcrypt.hash...
        # ...those named after what the question is about, when some are ("how is a comment
        # deleted?": deleteComment, not deleteArticle, though both call delete)
        named_so = [i for i in doers if about & set(lexical_tokens(rows[i]["value"]))]
        add("does_action", _at(size, named_so or doers))
    if kinds and kinds <= {"route", "function", "class"}:  # (among the best so far)
        add("summary_said", _summary_said(q.text, rows, _best(score, SUMMARY_TOP),
                                          kinds))
    if q.paths:  # "the Gradle build (complete/build.gradle)": the facts of that file
        add("path_said", facts.in_paths(q.paths))
    add("path_named", _named_in_path(q.text, rows, np.flatnonzero(named), facts.project_of(q.text)))
    # "which example shows content negotiation?": what lies in examples/content-negotiation/
    add("in_named_dir", _at(size, facts.in_dirs({n for n, _, _ in q.joined})))
    tier = named & (wanted if kinds else True)
    add("named_other_kind", named & ~tier)  # a strong signal, not a tier
    add("owner_named", naming.owner_named(facts, q.capitalised))  # "uvicorn's Config"
    if wants("member_named") and "function" in kinds:  # "which Server method closes the sockets?"
        add("member_named", naming.member_named(facts, q.capitalised))
    if wants("alias_rrf"):  # "the bind address": Config.host, by the --host option's help
        add("alias_rrf", _rrf(alias.scores(facts, q.words - facts.project_of(q.text)), 1.0, only_positive=True))
    if facts.param_of.any():  # a function's parameter defaults answer when it is named: not
        # get.timeout for "what is the default timeout?", nor send_email.sync for "the admin
        # email" (httpx's nine request functions share four defaults)
        said = {n for x in q.identifiers(facts.project_of(q.text)) for n in (x[0], x[2].lower())}
        said |= {n.rsplit(".", 1)[-1] for n in said}
        add("parameter_unsaid", facts.unsaid_parameters(said, q.words))
    if facts.in_body.any() and not q.asks_number and not q.asked_shape:
        # a value in a function's body answers a number or a shape asked, or its own name ("when does the
        # jwt expire?"), not the words of the code around it ("what is the secret used to sign
        # tokens?" is not jwt.sign's expiresIn)
        add("body_value_unsaid", facts.body_values_unsaid(q.words))
    if "dependency" in kinds:  # "upgrade Spring Boot to 4.1": the pin that states a version,
        # not the starters whose version the parent manages
        add("unversioned", facts.unversioned & wanted)
    if wants("lexical_share"):
        add("lexical_share", lexical / max(float(lexical.max()), 1e-9))
    if wants("vector_sim"):
        add("vector_sim", np.asarray(sims, dtype=np.float64))
    for field in ("name", "purpose"):
        if wants(f"{field}_share"):
            drop = facts.project_of(q.text) | q.framing
            alone = lex.field_scores(q.text, field, drop) if hasattr(lex, "field_scores") \
                else _field_scores(lex, q.text, field, drop)
            add(f"{field}_share", alone / max(float(alone.max()), 1e-9))
    return cols, score, tier.astype(np.int32)


def _field_scores(lex, question: str, field: str, drop):
    """BM25 of one field alone (unweighted), from the Lexical index's columns."""
    import numpy as np

    out = np.zeros(lex.n, dtype=np.float64)
    drop = {stem_word(d) for d in drop}
    for t in sorted(set(lexical_tokens(question)) - drop):
        i = lex.vocab.get(f"{field}:{t}")
        if i is not None and i + 1 < len(lex.indptr):
            s, e = lex.indptr[i], lex.indptr[i + 1]
            out[lex.indices[s:e]] += lex.data[s:e]
    return out


SUMMARY_TOP = 30  # the best candidates so far whose summaries are compared with the question


def _summary_said(question: str, rows: list[dict], best, kinds: set[str]):
    """Per row, 1 where the question says every word of the fact's summary (the first sentence
    of its doc comment, two words at least): "get paginated articles" is all of the route
    documented "Get paginated articles", but not of "Get paginated feed articles", which BM25
    scores higher for its one more rare word shared with the question."""
    import numpy as np

    out = np.zeros(len(rows), dtype=np.float64)
    asked = set(lexical_tokens(question))
    for i in best:
        row = rows[i]
        if row["kind"] not in kinds or not row.get("purpose"):
            continue
        summary = re.split(r"\s+-\s+|(?<=[.!?:])\s|\(", row["purpose"], maxsplit=1)[0]
        words = set(lexical_tokens(summary))
        out[i] = len(words) >= 2 and words <= asked
    return out


@functools.lru_cache(maxsize=1)
def _frame_tokens() -> frozenset[str]:
    """The words that frame a question ("require" is "requirements" once stemmed), group names
    excepted: "the dev settings" names settings/dev.py."""
    return frozenset(t for w in _FRAME - set(_GROUPS) for t in lexical_tokens(w))


def _named_in_path(question: str, rows: list[dict], named, project: set[str]):
    """Per row, 1 where the question names a part of the file path that sets this named fact
    apart from the others of its name ("the production settings": `DEBUG` of
    settings/production.py, not of settings/base.py).  Words in every such path decide nothing."""
    import numpy as np

    out = np.zeros(len(rows), dtype=np.float64)
    alike: dict[str, list[int]] = {}
    for i in named:
        row = rows[i]
        name = row["value"] if row["kind"] in ("function", "class") else \
            row["key"].rsplit(":", 1)[-1]
        alike.setdefault(name, []).append(int(i))
    asked = set(lexical_tokens(question)) - {t for p in project for t in lexical_tokens(p)} \
        - _frame_tokens()
    for group in alike.values():
        if len(group) < 2:
            continue
        parts = [set(lexical_tokens(rows[i]["path"].replace("/", " "))) for i in group]
        common = set.intersection(*parts)
        for i, p in zip(group, parts):
            out[i] = bool((p - common) & asked)
    return out


def _rrf(scores, weight: float, only_positive: bool = False):
    """Reciprocal-rank-fusion terms of one signal: weight / (RRF_K + rank), ties by position,
    for the first RRF_DEPTH rows; 0 below them (a term of weight / 4,157 or less, which moves
    no row of a large store into the answer, and would cost a sort of every row)."""
    import numpy as np

    out = np.zeros(len(scores), dtype=np.float64)
    if only_positive:  # BM25 scores few rows: rank those
        some = np.flatnonzero(scores > 0)
        order = some[_best(scores[some], RRF_DEPTH)]
    else:
        order = _best(scores, RRF_DEPTH)
    out[order] = weight / (RRF_K + 1 + np.arange(len(order)))
    return out


def _best(score, m: int):
    """The M rows of the highest SCORE, best first, ties by position: the first M of a stable
    argsort of -SCORE, without sorting every row."""
    import numpy as np

    if len(score) > m > 0:
        some = np.flatnonzero(score >= _at_most_mth(score, m))  # the M best, and a few more
        return some[np.argsort(-score[some], kind="stable")][:m]
    return np.argsort(-score, kind="stable")[:m]


def _at_most_mth(score, m: int):
    """A value no higher than the M-th highest of SCORE (0 < M < len(SCORE)): the M-th highest
    of an evenly spaced sample of 64 * M rows (a subset's M-th highest is at most the whole's),
    so that about len(SCORE) / 64 rows reach it; of every row when the sample would be all."""
    import numpy as np

    step = len(score) // (64 * m)
    sample = score[::step] if step > 1 else score
    return np.partition(sample, len(sample) - m)[len(sample) - m]
