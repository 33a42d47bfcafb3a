"""The real-history benchmark: questions about public histories, answered by ``repomem ask``.

Questions live in ``bench/realrepos/<repo>.json`` (generated from git itself by
``bench/realtruth/generate.py``; never from repomem's output).  Each history is cloned from its
bundle into the cache, ingested once per version of the mining code (see realstore), and every
question is asked in-process with ``repomem.service.query.ask`` (k = 5, ``as_of`` when given), then judged
by :mod:`bench.realjudge`.  Scores are kept per repository, per family and per group:
the split is by repository (``TRAINING`` / ``HELD_OUT``, fixed by the bundles' README), and the
two groups are always reported side by side; only the training group may be tuned on.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

from bench import realjudge, realstore
from repomem.core.errors import RepomemError

K = 5
ROOT = Path(__file__).resolve().parents[1]  # the checkout: bench/ sits at its top
QUESTIONS = ROOT / "bench" / "realrepos"
# The split is by repository (../shared/realrepos/README.md): a rule, weight or threshold fitted
# on a repository's questions says nothing about a repository nobody tuned on.
TRAINING = ("click", "httpx", "microblog", "bakerydemo", "express", "node-express-realworld",
            "uvicorn", "typer", "golang-gin-realworld-example-app", "mini-redis", "gs-rest-service")
HELD_OUT = ("httpie", "pydantic-settings", "django-locallibrary-tutorial", "koa", "echo",
            "spring-boot-realworld-example-app")
SPLITS = ("train", "held-out")
# --quick: the small histories of both groups whole (seconds to ingest), and a slice of one
# Python library per group (N questions, chosen by a salted hash)
QUICK_REPOS = ("microblog", "node-express-realworld", "mini-redis", "gs-rest-service",
               "golang-gin-realworld-example-app", "django-locallibrary-tutorial",
               "spring-boot-realworld-example-app")
QUICK_SLICES = {"click": 24}
# ask latency: the largest training histories (httpx has the most fact versions), a store of
# 100k versions generated from httpx (bench/asklatency); --quick: click alone
LATENCY_REPOS = ("httpx", "express")
QUICK_LATENCY_REPOS = ("click",)
GENERATED_FROM = "httpx"
METRICS = ("top1", "top3", "stale_top1", "stale_at5")


def split_of(repo: str) -> str:
    """"train" or "held-out"; a repository in neither list is held out (never tuned on)."""
    return "train" if repo in TRAINING else "held-out"


def default_sources() -> list[Path]:
    env = os.environ.get("REPOMEM_REALREPOS")
    return [Path(env)] if env else [ROOT.parent / "shared" / "realrepos"]


def load_questions(qdir: Path, split: str = "all", repos: list[str] | None = None,
                   quick: bool = False) -> dict[str, list[dict]]:
    """{repo: questions} from QDIR's ``<repo>.json`` (generated) and ``hand/<repo>.json``
    (written by hand); each record's split is its repository's group."""
    out: dict[str, list[dict]] = {}
    files = sorted(Path(qdir).glob("*.json")) + sorted(Path(qdir).glob("hand/*.json"))
    for f in files:
        name = f.stem
        if repos and name not in repos:
            continue
        qs = [dict(q, source=q.get("source") or ("hand" if f.parent.name == "hand" else "generated"))
              for q in json.loads(f.read_text())]
        for q in qs:
            if q.get("split") != split_of(name):
                raise RepomemError(f"{f}: question {q.get('id')} has split {q.get('split')!r}, "
                                   f"but {name} is in the {split_of(name)!r} group",
                                   hint="the split is by repository; regenerate the file")
        if quick:
            if name in QUICK_SLICES:
                qs = sorted(qs, key=lambda q: hashlib.sha1(b"quick\0" + q["id"].encode()).digest())
                qs = qs[:QUICK_SLICES[name]]
            elif name not in QUICK_REPOS:
                continue
        if split != "all":
            qs = [q for q in qs if q["split"] == split]
        if qs:
            out.setdefault(name, []).extend(qs)
    return out


def is_python(qs: list[dict]) -> bool:
    return any((q["expect"].get("path") or "").endswith((".py", "pyproject.toml", "setup.py",
                                                          "setup.cfg")) for q in qs)


def _short(f: dict) -> dict:
    return {"kind": f.get("kind"), "value": f.get("value"), "path": f.get("path"),
            "subject": f.get("subject")}


def ask_all(r, qs: list[dict], current: list[dict] | None = None) -> list[dict]:
    """Each question asked and judged.  CURRENT: the snapshot's current rows; a current
    question whose answer is not first is then marked ``in_store`` when one of them is the
    expected fact (ranking missed it) or not (mining did): counted, never read to tune."""
    from repomem.service.query import ask

    rows = []
    for q in qs:
        t = time.perf_counter()
        try:
            facts = ask(r, q["question"], as_of=q["as_of"], k=K)["facts"]
            err = None
        except RepomemError as e:
            facts, err = [], str(e)
        ms = (time.perf_counter() - t) * 1000
        rows.append(dict(realjudge.judge(q, facts), id=q["id"], repo=q["repo"],
                         family=q["family"], split=q["split"], source=q["source"], as_of=q["as_of"],
                         absent=q["absent"], question=q["question"], expected=q["expect"]["value"],
                         expected_path=q["expect"].get("path"), got=[_short(f) for f in facts[:3]],
                         ms=round(ms, 2), error=err))
        if current is not None and not rows[-1]["top1"] and not q["as_of"] and not q["absent"]:
            rows[-1]["in_store"] = any(realjudge.right(x, q["expect"]) for x in current)
    return rows


def summarise(rows: list[dict], by: str) -> dict:
    """{group: {split: metrics}} with split in train, held-out, all."""
    out: dict = {}
    for split in (*SPLITS, "all"):
        sel = [x for x in rows if split == "all" or x["split"] == split]
        groups: dict = {}
        for x in sel:
            groups.setdefault(x[by], []).append(x)
        groups["ALL"] = sel
        for g, xs in groups.items():
            if not xs:
                continue
            asof = [x for x in xs if x["as_of"]]
            out.setdefault(g, {})[split] = {
                "n": len(xs), "top1": _rate(xs, "top1"), "top3": _rate(xs, "top3"),
                "as_of_n": len(asof), "as_of": _rate(asof, "top1") if asof else None,
                "as_of_top3": _rate(asof, "top3") if asof else None,
                "as_of_any_path": _rate(asof, "top1_any_path") if asof else None,
                "stale_top1": sum(x["stale_top1"] for x in xs),
                # current questions not answered first: the expected fact in the store
                # (ranking's miss) or not (mining's)
                "ranking_miss": sum(x.get("in_store") is True for x in xs),
                "mining_miss": sum(x.get("in_store") is False for x in xs),
                "stale_at5": _rate(xs, "stale_at5")}
    return out


def _rate(xs, key):
    return round(sum(bool(x[key]) for x in xs) / len(xs), 3) if xs else None


def run(sources: list[Path], qdir: Path = QUESTIONS, split: str = "all",
        repos: list[str] | None = None, quick: bool = False, fresh: bool = False,
        log=print, embedder: str | None = None) -> dict:
    from repomem.service.repo import Repo

    questions = load_questions(qdir, split, repos, quick)
    hist = {h.name: h for h in realstore.discover(sources)}
    timed: dict[str, tuple] = {}
    res: dict = {"k": K, "split": split, "quick": quick, "repos": {}, "rows": [], "latency": None,
                 "embedder": embedder or "hash"}
    for name, qs in questions.items():
        info: dict = {"questions": len(qs), "python": is_python(qs), "split": split_of(name),
                      "hand": sum(q["source"] == "hand" for q in qs)}
        res["repos"][name] = info
        h = hist.get(name)
        if h is None:
            info["status"] = "no history given"
            continue
        try:
            work = realstore.checkout(h)
            store, ing = realstore.store_for(h, work, fresh=fresh, log=log, embedder=embedder)
        except Exception as e:  # a crash of ingestion is a result: every question unanswered
            msg = str(e) if isinstance(e, RepomemError) else f"{type(e).__name__}: {str(e)[:200]}"
            info.update(status="ingest failed", error=msg)
            log(f"{name}: ingest failed: {info['error']}")
            # nothing can be answered: even "absent" questions count as missed
            res["rows"] += [dict(top1=False, top3=False, top1_any_path=False, stale_top1=False,
                                 stale_at5=False, id=q["id"], repo=name, family=q["family"],
                                 split=q["split"], source=q["source"], as_of=q["as_of"],
                                 absent=q["absent"],
                                 question=q["question"], expected=q["expect"]["value"],
                                 expected_path=q["expect"].get("path"), got=[], ms=None,
                                 error=info["error"]) for q in qs]
            continue
        info.update(status="ok", **ing)
        r = Repo.open(work, store=store)
        log(f"{name}: asking {len(qs)} questions")
        from repomem.service import viewcache

        snap = viewcache.load_search(store)
        res["rows"] += ask_all(r, qs, snap[1] if snap else None)
        if name in (QUICK_LATENCY_REPOS if quick else LATENCY_REPOS):
            timed[name] = (r, work, store)
    if timed:
        from bench import asklatency

        res["latency"] = asklatency.measure(
            timed, questions, realstore.cache_root() / "generated",
            None if quick else GENERATED_FROM, cold_per=2 if quick else 3, log=log)
    res["by_repo"] = summarise(res["rows"], "repo")
    res["by_family"] = summarise(res["rows"], "family")
    res["by_source"] = summarise(res["rows"], "source")
    res["stale_python"] = sum(x["stale_top1"] for x in res["rows"]
                              if res["repos"][x["repo"]]["python"])
    res["stale_top1"] = sum(x["stale_top1"] for x in res["rows"])
    return res
