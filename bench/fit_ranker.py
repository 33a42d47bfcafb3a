"""Fit the ranking weights (repomem/service/rank_weights_fitted.json) on the TRAINING histories.

Reads only the training repositories of ../shared/realrepos (bench.real.TRAINING; the
held-out ones are never opened): their current-time questions (bench/realrepos) and their task
prompts (bench/tasks), over the benchmark's cached stores (bench.realstore: the same
ingest the benchmarks use).  For each question, rank.feature_table gives every fact's feature
vector and the named tiers that order facts before the score; the judges of the benchmarks say
which facts answer (realjudge.right, taskjudge.serves).

Method: pairwise logistic regression (scikit-learn).  Within one question, each answering fact
is paired with each of the 30 best-ranked non-answering facts of the same named tier (only the
score orders those); the model learns sign(w . (x_pos - x_neg)).  The regularisation C is the one
whose leave-one-repository-out top-1 is best; the final fit uses every training repository.
The script prints, per held-out-of-the-fit repository, top-1 and top-3 of the hand weights and
of the fitted ones, and writes the weights file.  Deterministic: the same stores and question
files give the same file (lbfgs, no random sampling, weights rounded to 6 significant digits).

    .venv/bin/pip install -e '.[fit]'
    .venv/bin/python -m bench fit-ranker [--realrepos ../shared/realrepos] [--out FILE] [--check]

--check: fit, and fail unless the file written equals the one in the repository.

--floor: fit instead the relevance floor of the agent's context (rank.FLOOR, written to
repomem/service/rank_weights_floor.json): for each floor of FLOORS, the training repositories'
task prompts are given to repomem.service.context.build_context at the hook's and the CLI's
budgets and judged as `python -m bench tasks` judges them; the floor is the one serving the most
needed facts at both budgets (ties: the higher floor, which shows fewer facts).  Each
repository's figure at the floor chosen on the others is printed (leave-one-repository-out).
Needs neither scikit-learn nor LightGBM.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
NEGATIVES = 30  # best-ranked non-answering facts of the same tier paired with each answer
POOL = 200  # facts of each question kept for re-ranking with other weights
C_GRID = (0.001, 0.01, 0.1, 1.0)
FLOORS = (0.0, 0.05, 0.1, 0.2, 0.3, 0.4)  # shares of the best fact's BM25 tried for the floor


def _log(*a) -> None:
    print(*a, file=sys.stderr, flush=True)


def collect(sources: list[Path], embedder: str | None = None) -> list[dict]:
    """One record per training question or prompt: the pool's features, tiers and labels, over
    the stores of EMBEDDER (None: the default)."""
    from bench import real, realjudge, realstore, taskjudge
    from bench import taskbench as tasks
    from repomem.adapters.embed import get_embedder
    from repomem.service import viewcache
    from repomem.service.query import fact_json
    from repomem.service.question import task_subject
    from repomem.service.rank import feature_table
    from repomem.service.scorer import similarities

    hist = {h.name: h for h in realstore.discover(sources)}
    questions = real.load_questions(real.QUESTIONS, split="train")
    prompts = tasks.load()
    out: list[dict] = []
    for name in real.TRAINING:
        if name not in hist:
            _log(f"{name}: no history given, skipped")
            continue
        work = realstore.checkout(hist[name])
        store, _ = realstore.store_for(hist[name], work, log=_log, embedder=embedder)
        snap = viewcache.load_search(store)
        if snap is None:
            _log(f"{name}: no snapshot, skipped")
            continue
        state, rows, matrix, lex = snap
        if lex is None:
            from repomem.service.lexical import Lexical

            lex = Lexical.build(rows)
        emb = get_embedder(state["embedder"])
        t = int(time.time())
        jrows = [fact_json(x) for x in rows]
        by_kind: dict[str, list[int]] = {}
        for i, x in enumerate(rows):
            by_kind.setdefault(x["kind"], []).append(i)

        # (id, text, [the facts answering each need], a prompt?)
        asks: list[tuple[str, str, list[list[int]], bool]] = []
        for q in questions.get(name, ()):
            if q["as_of"] is None and not q["absent"]:
                e = q["expect"]
                asks.append((q["id"], q["question"],
                             [_answering(lambda f, e=e: realjudge.right(f, e), e["kinds"], by_kind, jrows)], False))
        for p in prompts.get(name, {}).get("prompts", ()):
            asks.append((p["id"], task_subject(p["prompt"]),
                         [_answering(lambda f, n=n: taskjudge.serves(f, n), n["kinds"], by_kind, jrows)
                          for n in p["needs"]],
                         True))
        _log(f"{name}: {len(asks)} questions and prompts over {len(rows)} facts")
        for qid, text, needs, is_prompt in asks:
            sims = similarities(matrix, emb.embed([text])[0], emb)
            table = feature_table(text, rows, sims, lex, t)
            score, level = table["score"], table["level"]
            order = np.lexsort((table["key_order"], -score, -level[:, 2], -level[:, 1], -level[:, 0]))
            pool = order[:POOL]
            # every need is one positive set: a question has one, a prompt one per needed fact
            extra = sorted({i for need in needs for i in need} - set(pool.tolist()))
            pool = np.concatenate([pool, np.asarray(extra, dtype=np.int64)])
            pos = {int(i): k for k, i in enumerate(pool)}
            out.append({"repo": name, "id": qid, "prompt": is_prompt,
                        "X": np.stack([table["features"][f][pool] for f in _features()], axis=1),
                        "level": level[pool], "key_order": table["key_order"][pool],
                        "needs": [[pos[i] for i in need] for need in needs]})
    return out


def _answering(test, kinds, by_kind: dict[str, list[int]], jrows: list[dict]) -> list[int]:
    """The rows TEST accepts, among those of KINDS (the judges accept no other kind)."""
    return [i for k in kinds for i in by_kind.get(k, ()) if test(jrows[i])]


def _features() -> tuple[str, ...]:
    from repomem.service.scorer import FEATURES

    return FEATURES


def _order(rec: dict, w: np.ndarray) -> np.ndarray:
    score = np.round(rec["X"] @ w, 6)
    lv = rec["level"]
    return np.lexsort((rec["key_order"], -score, -lv[:, 2], -lv[:, 1], -lv[:, 0]))


def evaluate(recs: list[dict], w, order_of=None) -> dict:
    """top-1 and top-3 of the questions (first need answered at 1 / within 3), and for prompts
    the share of needs within the first 8 (what the context may show).  ORDER_OF(rec): another
    ordering than the weights W's."""
    q1 = q3 = nq = served = needs = 0
    for rec in recs:
        order = order_of(rec) if order_of else _order(rec, w)
        rank_of = np.empty(len(order), dtype=np.int64)
        rank_of[order] = np.arange(len(order))
        if rec["prompt"]:
            for need in rec["needs"]:
                needs += 1
                served += bool(need) and int(rank_of[need].min()) < 8
        else:
            need = rec["needs"][0]
            nq += 1
            best = int(rank_of[need].min()) if need else 10**9
            q1 += best == 0
            q3 += best < 3
    return {"questions": nq, "top1": round(q1 / max(nq, 1), 3), "top3": round(q3 / max(nq, 1), 3),
            "prompt_needs": needs, "needs_at8": round(served / max(needs, 1), 3)}


def pairs(recs: list[dict]) -> tuple[np.ndarray, np.ndarray]:
    hand = _hand()
    diffs = []
    for rec in recs:
        order = _order(rec, hand)
        lv = rec["level"]
        for need in rec["needs"]:
            good = set(need)
            for p in need:
                same = [i for i in order if i not in good and (lv[i] == lv[p]).all()][:NEGATIVES]
                diffs += [rec["X"][p] - rec["X"][i] for i in same]
    d = np.asarray(diffs, dtype=np.float64)
    x = np.concatenate([d, -d])
    y = np.concatenate([np.ones(len(d)), np.zeros(len(d))])
    return x, y


def fit(recs: list[dict], c: float) -> np.ndarray:
    from sklearn.linear_model import LogisticRegression

    x, y = pairs(recs)
    hand = _hand()
    # the hand rules' score is one more column: w = a * hand + d, the penalty pulling d (the
    # correction to the rules' weights) toward none rather than every weight toward 0
    x = np.concatenate([(x @ hand)[:, None], x], axis=1)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    model = LogisticRegression(C=c, fit_intercept=False, max_iter=5000)
    model.fit(x / scale, y)
    coef = model.coef_[0] / scale
    w = coef[0] * hand + coef[1:]
    lead = w[list(_features()).index("lexical_rrf")]
    w = w / (lead if lead > 0 else np.abs(w).sum())  # the score's scale: lexical_rrf weighs 1
    return np.array([float(f"{v:.6g}") for v in w])


def lambdarank(recs: list[dict], tiers: bool) -> dict:
    """Leave-one-repository-out top-1 / top-3 / needs@8 of a LightGBM lambdarank model over the
    same feature columns and the named tiers (as three more columns), fitted on the other
    training repositories.  TIERS: the tiers still order first and the model's score only
    within them (as the weighted score does); else the model's score alone orders."""
    import lightgbm as lgb

    def data(part):
        xs, ys, groups = [], [], []
        for rec in part:
            label = np.zeros(len(rec["X"]))
            for need in rec["needs"]:
                label[need] = 1
            if label.any():
                xs.append(np.concatenate([rec["X"], rec["level"]], axis=1))
                ys.append(label)
                groups.append(len(label))
        return np.concatenate(xs), np.concatenate(ys), groups

    held = []
    for repo in sorted({r["repo"] for r in recs}):
        x, y, groups = data([r for r in recs if r["repo"] != repo])
        model = lgb.LGBMRanker(objective="lambdarank", n_estimators=200, learning_rate=0.05,
                               num_leaves=15, min_child_samples=20, deterministic=True,
                               force_row_wise=True, n_jobs=1, random_state=0, verbose=-1)
        model.fit(x, y, group=groups)

        def order_of(rec, model=model):
            score = np.round(model.predict(np.concatenate([rec["X"], rec["level"]], axis=1)), 6)
            lv = rec["level"]
            if not tiers:
                return np.lexsort((rec["key_order"], -score))
            return np.lexsort((rec["key_order"], -score, -lv[:, 2], -lv[:, 1], -lv[:, 0]))

        held.append(evaluate([r for r in recs if r["repo"] == repo], None, order_of))
    return _pooled(held)


def _pooled(held: list[dict]) -> dict:
    n = sum(h["questions"] for h in held)
    return {"top1": round(sum(h["top1"] * h["questions"] for h in held) / n, 3),
            "top3": round(sum(h["top3"] * h["questions"] for h in held) / n, 3),
            "needs_at8": round(sum(h["needs_at8"] * h["prompt_needs"] for h in held)
                               / max(sum(h["prompt_needs"] for h in held), 1), 3)}


def floor_counts(sources: list[Path]) -> dict[str, dict[float, dict]]:
    """Per training repository and floor of FLOORS: the needed facts of its task prompts
    served at each of the task benchmark's budgets, the prompts fully served, the facts shown."""
    from bench import real, realstore, taskjudge
    from bench import taskbench as tasks
    from repomem.service import rank
    from repomem.service.context import build_context
    from repomem.service.query import facts
    from repomem.service.repo import Repo

    hist = {h.name: h for h in realstore.discover(sources)}
    prompts = tasks.load()
    out: dict[str, dict[float, dict]] = {}
    saved = rank.FLOOR
    try:
        for name in real.TRAINING:
            if name not in hist or name not in prompts:
                _log(f"{name}: no history or no prompts, skipped")
                continue
            work = realstore.checkout(hist[name])
            store, _ = realstore.store_for(hist[name], work, log=_log)
            r = Repo.open(work, store=store)
            current = facts(r)["facts"]
            index: dict[tuple[str, int], list[dict]] = {}
            for f in current:
                index.setdefault((f["path"], f["line"]), []).append(f)
            asked = [(p["needs"], p["prompt"],
                      [{f["key"] for f in current if taskjudge.serves(f, n)} for n in p["needs"]])
                     for p in prompts[name]["prompts"]]
            out[name] = {}
            for floor in FLOORS:
                rank.FLOOR = floor
                got: dict[str | int, object] = {"needs": sum(len(n) for n, _, _ in asked),
                                                "prompts": len(asked)}
                for b in tasks.BUDGETS:
                    served = full = shown = 0
                    for needs, prompt, keys in asked:
                        seen, _ = tasks.resolve(build_context(r, prompt, budget=b), index)
                        j = taskjudge.judge(needs, seen, keys)
                        served += sum(j["served"])
                        full += all(j["served"])
                        shown += j["shown"]
                    got[b] = {"served": served, "full": full, "shown": shown}
                out[name][floor] = got
            _log(f"{name}: served at {tasks.BUDGETS[-1]} tokens by floor "
                 + ", ".join(f"{fl}: {g[tasks.BUDGETS[-1]]['served']}" for fl, g in out[name].items()))
    finally:
        rank.FLOOR = saved
    return out


def _served(counts: dict[str, dict[float, dict]], repos, floor: float) -> int:
    from bench.taskbench import BUDGETS

    return sum(counts[r][floor][b]["served"] for r in repos for b in BUDGETS)


def _best_floor(counts: dict[str, dict[float, dict]], repos) -> float:
    """The floor serving the most needed facts of REPOS at both budgets; ties: the higher."""
    return max(FLOORS, key=lambda fl: (_served(counts, repos, fl), fl))


def _floor_figures(counts: dict[str, dict[float, dict]], pick) -> dict:
    """recall / fully served / precision at each budget when repository R is given floor PICK(R)."""
    from bench.taskbench import BUDGETS

    needs = sum(next(iter(c.values()))["needs"] for c in counts.values())
    prompts = sum(next(iter(c.values()))["prompts"] for c in counts.values())
    out: dict = {}
    for b in BUDGETS:
        got = [counts[r][pick(r)][b] for r in counts]
        served, shown = sum(g["served"] for g in got), sum(g["shown"] for g in got)
        out[f"recall@{b}"] = round(served / max(needs, 1), 3)
        out[f"full@{b}"] = round(sum(g["full"] for g in got) / max(prompts, 1), 3)
        out[f"shown@{b}"] = shown
    return out


def fit_floor(sources: list[Path], dest: Path, check: bool) -> int:
    counts = floor_counts(sources)
    repos = sorted(counts)
    held = {r: _best_floor(counts, [x for x in repos if x != r]) for r in repos}
    best = _best_floor(counts, repos)
    report = {"leave-one-repository-out": _floor_figures(counts, held.get),
              "floors chosen": held,
              **{f"every repository at {fl}": _floor_figures(counts, lambda r, fl=fl: fl)
                 for fl in FLOORS}}
    _log(json.dumps(report, indent=1))
    doc = {"about": "The relevance floor of the agent's context (repomem.service.rank.FLOOR: a "
                    "fact whose BM25 is below this share of the best fact's is not shown unless "
                    "the prompt names it), fitted by bench/fit_ranker.py --floor on the training "
                    "repositories' task prompts: the floor of the grid serving the most needed "
                    "facts at the hook's and the CLI's budgets (ties: the higher).",
           "floor": best,
           "fit": {"repositories": repos, "grid": list(FLOORS),
                   "leave-one-repository-out": report["leave-one-repository-out"],
                   "floors chosen leaving one out": sorted(set(held.values()))}}
    text = json.dumps(doc, indent=1) + "\n"
    if check:
        same = dest.exists() and dest.read_text() == text
        _log("the floor file is reproduced" if same else f"{dest} differs from this fit")
        return 0 if same else 1
    dest.write_text(text)
    _log(f"wrote {dest}")
    return 0


def _hand() -> np.ndarray:
    from repomem.service.scorer import DEFAULT, read_weights

    hand = read_weights(DEFAULT)
    return np.array([hand[f] for f in _features()])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--realrepos", type=Path, default=ROOT.parent / "shared" / "realrepos")
    ap.add_argument("--out", type=Path, default=ROOT / "repomem" / "service" / "rank_weights_fitted.json")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--lambdarank", action="store_true",
                    help="compare, by leave-one-repository-out, the hand weights with a LightGBM "
                         "lambdarank model (pip install lightgbm); writes nothing")
    ap.add_argument("--floor", action="store_true",
                    help="fit the context's relevance floor instead "
                         "(repomem/service/rank_weights_floor.json; --out does not apply)")
    ap.add_argument("--embedder", metavar="SPEC",
                    help="fit over the stores of this embedder (docs/embedders.md; default hash)")
    a = ap.parse_args(argv)
    if not a.realrepos.exists():
        _log(f"no histories at {a.realrepos}: nothing to fit on")
        return 2
    if a.floor:
        return fit_floor([a.realrepos], ROOT / "repomem" / "service" / "rank_weights_floor.json",
                         a.check)
    recs = collect([a.realrepos], a.embedder)
    repos = sorted({r["repo"] for r in recs})
    hand = _hand()
    if a.lambdarank:
        hand_loro = _pooled([evaluate([x for x in recs if x["repo"] == repo], hand)
                             for repo in repos])
        _log(json.dumps({"hand weights, per repository pooled": hand_loro,
                         "lambdarank within the tiers, leave-one-repository-out":
                             lambdarank(recs, tiers=True),
                         "lambdarank alone, leave-one-repository-out":
                             lambdarank(recs, tiers=False)}, indent=1))
        return 0
    report: dict = {"hand": evaluate(recs, hand), "cv": {}}
    for c in C_GRID:  # leave one repository out: fitted on the others, judged on it
        held = [r for repo in repos for r in [evaluate([x for x in recs if x["repo"] == repo],
                                                         fit([x for x in recs if x["repo"] != repo], c))]]
        n = sum(h["questions"] for h in held)
        report["cv"][c] = {"top1": round(sum(h["top1"] * h["questions"] for h in held) / n, 3),
                           "top3": round(sum(h["top3"] * h["questions"] for h in held) / n, 3),
                           "needs_at8": round(sum(h["needs_at8"] * h["prompt_needs"] for h in held)
                                              / max(sum(h["prompt_needs"] for h in held), 1), 3)}
        _log(f"C={c}: leave-one-repository-out {report['cv'][c]}")
    best = max(C_GRID, key=lambda c: (report["cv"][c]["top1"], report["cv"][c]["top3"], -c))
    w = fit(recs, best)
    report["fitted"] = evaluate(recs, w)
    report["C"] = best
    _log(json.dumps(report, indent=1))
    doc = {"about": "Weights of repomem.service.scorer.FEATURES fitted by bench/fit_ranker.py on the "
                    "training repositories' questions and task prompts (pairwise logistic regression, "
                    f"C={best} by leave-one-repository-out top-1); lexical_rrf weighs 1.",
           "fit": {"repositories": repos, "questions": report["fitted"]["questions"],
                   "prompt_needs": report["fitted"]["prompt_needs"], "cv": report["cv"][best]},
           "weights": {f: v for f, v in zip(_features(), w.tolist())}}
    text = json.dumps(doc, indent=1) + "\n"
    if a.check:
        same = a.out.exists() and a.out.read_text() == text
        _log("the weights file is reproduced" if same else f"{a.out} differs from this fit")
        return 0 if same else 1
    a.out.write_text(text)
    _log(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
