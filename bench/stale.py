"""The stale-fact benchmark: every scenario x condition x system, scored deterministically.

Systems (same Chroma engine, same embedder, same candidate pool and the same lexical re-ranker as
``repomem.service.query.ask``, so only the handling of time differs):

- ``rag``: plain RAG over every fact of every file version a commit touched (the mined snippet's
  source text with its subject, purpose and path).  The reader answers with the top snippet's value.
- ``rag+dates``: the same, each snippet carrying its commit date; the reader takes, among the top
  k, the latest-dated snippet *about the asked subject* (ground-truth labels: a generous reader).
  As-of questions first drop snippets dated after the asked time.
- ``rag+arrival``: as ``rag+dates`` but "latest" is the order of ingestion, as systems that
  timestamp on arrival do.  It has no valid time, so it answers no as-of question.
- ``repomem``: ``repomem.service.ingest.ingest`` in the condition's order, ``repomem.service.query.ask``.

Conditions: ``in-order``; ``late-import`` (HEAD first, then the history oldest first);
``newest-first``; ``re-read`` (in order, then every earlier commit ingested again);
``many-versions`` (11+ versions per fact); ``noise`` (~350 unrelated facts with their own history).
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Any

from repomem.adapters import git
from repomem.adapters.embed import get_embedder
from repomem.core.model import WIRING
from repomem.miners.mining import CommitMiner
from repomem.service import samples

CONDITIONS = ["in-order", "late-import", "newest-first", "re-read", "many-versions", "noise"]
SYSTEMS = ["rag", "rag+dates", "rag+arrival", "repomem"]
K = 5
# the scenarios live in the checkout beside bench/ (sample_repos/scenarios), not in the package
SUITE_PATH = Path(__file__).resolve().parents[1] / "sample_repos" / "scenarios" / "suite.py"


def load_suite():
    return samples.load(SUITE_PATH)


def suite_for(cond: str, suite_mod) -> list[dict]:
    if cond == "many-versions":
        return suite_mod.scenarios("many")
    if cond == "noise":
        return suite_mod.scenarios("base", noise=True)
    return suite_mod.scenarios("base")


def order_for(cond: str, shas: list[str]) -> list[str]:
    if cond == "late-import":
        return [shas[-1]] + shas[:-1]
    if cond == "newest-first":
        return shas[::-1]
    if cond == "re-read":
        return shas + shas[:-1]
    return list(shas)


# ------------------------------------------------------------------------------------ labels

def _anchor(kind: str, path: str, subject: str) -> str | None:
    if kind == "function":
        return f"{path}::{subject.split(' ', 1)[1]}" if " " in subject else None
    if kind == "route":
        return f"{path}::{subject[len('route of '):]}" if subject.startswith("route of ") else None
    return None


def about(q: dict, kind: str, key: str, path: str, subject: str) -> bool:
    """Ground truth: is this fact (repomem's, or a snippet's raw fact) about the asked subject?"""
    a = q["about"]
    if kind != a["kind"]:
        return False
    if "anchors" in a:
        return _anchor(kind, path, subject) in a["anchors"]
    return key in a["keys"]


# ------------------------------------------------------------------------------------ scoring

def score(q: dict, facts: list[dict], answer_of=None) -> dict:
    """facts: the context handed to the agent, best first (dicts with kind, key, path, subject,
    value).  answer_of: the fact the reader answers with (default: the first)."""
    field = q["field"]
    stale = set(q["stale"])
    top = answer_of if answer_of is not None else (facts[0] if facts else None)
    ab = [about(q, f["kind"], f["key"], f["path"], f["subject"]) for f in facts]
    top_about = top is not None and about(q, top["kind"], top["key"], top["path"], top["subject"])
    if q["answer"] is None:
        correct = not top_about
        is_stale = top_about
    else:
        correct = top is not None and top_about and top[field] == q["answer"]
        is_stale = top is not None and top_about and top[field] in stale
    exposed = any(a and f[field] in stale for a, f in zip(ab, facts)) if q["answer"] else any(ab)
    right = [a and f[field] == q["answer"] for a, f in zip(ab, facts)]
    return {"correct": bool(correct), "stale": bool(is_stale), "exposed": bool(exposed),
            "hit1": bool(right[:1] and right[0]) if q["answer"] else None,
            "hit5": any(right[:5]) if q["answer"] else None,
            "got": None if top is None else top[field]}


# ------------------------------------------------------------------------------------ systems

def run_repomem(repo: Path, store: Path, order: list[str], cond: str, qs: list[dict],
                embedder: str | None) -> list[dict]:
    from repomem.service.ingest import ingest
    from repomem.service.query import ask
    from repomem.service.repo import Repo

    r = Repo.open(repo, store, embedder)
    try:
        if cond in ("in-order", "many-versions", "noise"):
            ingest(r, all_history=True, progress=False)
        else:
            for sha in order:
                ingest(r, revs=[sha], progress=False)
        out = []
        for q in qs:
            res = ask(r, q["question"], None, K)
            s = score(q, res["facts"])
            s["asof"] = []
            for when, value in q["as_of"]:
                ra = ask(r, q["question"], when, K)
                s["asof"].append(bool(ra["facts"]) and score(dict(q, answer=value),
                                                              ra["facts"])["correct"])
            out.append(s)
        return out
    finally:
        r.store.close()


class Baselines:
    """Snippet RAG over one scenario's history, in one Chroma collection."""

    def __init__(self, repo: Path, path: Path, order: list[str], emb):
        import chromadb
        from chromadb.config import Settings

        self.emb = emb
        self.client: Any = chromadb.PersistentClient(path=str(path), settings=Settings(
            anonymized_telemetry=False))
        self.col: Any = self.client.get_or_create_collection("snippets", embedding_function=None,
                                                        metadata={"hnsw:space": "cosine"})
        chain = git.first_parent_chain(repo)
        eff = git.effective_times(chain)
        infos = {c.sha: c for c in chain}
        recs = {}
        with CommitMiner(repo) as miner:
            changes = git.changes(repo, chain)
            for c in chain:
                recs[c.sha] = miner.mine(c, changes.get(c.sha, []))
        ids: list[str] = []
        docs: list[str] = []
        metas: list[Any] = []  # chromadb metadata mappings
        for seq, sha in enumerate(order):
            for fpath, facts in sorted(recs[sha].files.items()):
                for n, f in enumerate(facts):
                    if f.kind in WIRING:  # internal to the ledger's route composition
                        continue
                    ids.append(f"{seq:05d}-{fpath}-{n}")
                    docs.append(f"{f.subject}. {f.purpose}. {f.path}\n{f.text}")
                    metas.append({"kind": f.kind, "key": f.key, "path": f.path,
                                  "subject": f.subject, "purpose": f.purpose, "value": f.value,
                                  "date": eff[sha], "seq": seq, "ct": infos[sha].ct})
        for i in range(0, len(ids), 500):
            self.col.add(ids=ids[i:i + 500], documents=docs[i:i + 500],
                         metadatas=metas[i:i + 500], embeddings=emb.embed(docs[i:i + 500]))
        self.n = len(ids)

    def retrieve(self, question: str, before: int | None = None) -> list[dict]:
        from repomem.service.query import _rerank

        n = min(max(40, 4 * K), self.n)
        where: Any = {"date": {"$lte": before}} if before is not None else None
        got = self.col.query(query_embeddings=self.emb.embed([question]), n_results=n,
                             where=where, include=["metadatas", "distances"])
        rows = [dict(m, distance=d) for m, d in zip(got["metadatas"][0], got["distances"][0])]
        return _rerank(question, rows)[:K]

    def answer(self, q: dict) -> dict:

        out = {}
        top = self.retrieve(q["question"])
        lab = [f for f in top if about(q, f["kind"], f["key"], f["path"], f["subject"])]
        out["rag"] = score(q, top)
        out["rag+dates"] = score(q, top, max(lab, key=lambda f: (f["date"], f["seq"]))
                                 if lab else None)
        out["rag+arrival"] = score(q, top, max(lab, key=lambda f: f["seq"]) if lab else None)
        for name in out:
            out[name]["asof"] = []
        for when, value in q["as_of"]:
            qa = dict(q, answer=value)
            t = _ts(when)
            out["rag"]["asof"].append(score(qa, top)["correct"])
            ctx = self.retrieve(q["question"], before=t)
            lab = [f for f in ctx if about(q, f["kind"], f["key"], f["path"], f["subject"])]
            pick = max(lab, key=lambda f: (f["date"], f["seq"])) if lab else None
            out["rag+dates"]["asof"].append(score(qa, ctx, pick)["correct"])
            out["rag+arrival"]["asof"].append(None)
        return out

    def close(self) -> None:
        from chromadb.api.client import SharedSystemClient

        self.client = self.col = None
        SharedSystemClient.clear_system_cache()


def _ts(when: str) -> int:
    from datetime import datetime

    return int(datetime.fromisoformat(when).timestamp())


# ------------------------------------------------------------------------------------ the run

def run(workdir: Path, quick: bool = False, conditions: list[str] | None = None,
        embedder: str | None = None, only: list[str] | None = None, log=None,
        built: dict[tuple[str, str], tuple[Path, list[str]]] | None = None) -> dict:
    """Returns {"rows": per-question results, "summary": {cond: {system: metrics}}}.
    ``built``: the scenario repositories of an earlier call, (kind, name) -> (path, shas), filled
    by this one (the test suite runs one condition at a time and builds each repository once)."""
    suite_mod = load_suite()
    conditions = conditions or CONDITIONS
    names = set(only or (suite_mod.QUICK if quick else []))
    emb = get_embedder(embedder)
    workdir = Path(workdir)
    rows = []
    built = {} if built is None else built
    started = time.time()
    for cond in conditions:
        kind = {"many-versions": "many", "noise": "noise"}.get(cond, "base")
        for scn in suite_for(cond, suite_mod):
            if names and scn["name"] not in names:
                continue
            if (kind, scn["name"]) not in built:
                repo = workdir / "repos" / kind / scn["name"]
                if repo.exists():
                    shutil.rmtree(repo)
                built[(kind, scn["name"])] = (repo, samples.build(scn["commits"], repo))
            repo, shas = built[(kind, scn["name"])]
            order = order_for(cond, shas)
            tag = f"{cond}-{scn['name']}"
            store = workdir / "stores" / tag
            shutil.rmtree(store, ignore_errors=True)
            rm = run_repomem(repo, store, order, cond, scn["questions"], embedder)
            bpath = workdir / "baselines" / tag
            shutil.rmtree(bpath, ignore_errors=True)
            base = Baselines(repo, bpath, order, emb)
            try:
                bs = [base.answer(q) for q in scn["questions"]]
            finally:
                base.close()
            for q, r_res, b_res in zip(scn["questions"], rm, bs):
                b_res["repomem"] = r_res
                for system, res in b_res.items():
                    rows.append({"condition": cond, "scenario": scn["name"],
                                 "family": scn["family"], "question": q["question"],
                                 "system": system, "expected": q["answer"], **res})
            shutil.rmtree(store, ignore_errors=True)
            shutil.rmtree(bpath, ignore_errors=True)
            if log:
                bad = [x for x in rows[-4 * len(scn["questions"]):]
                       if x["system"] == "repomem" and not x["correct"]]
                log(f"[{time.time() - started:6.1f}s] {cond:<13} {scn['name']:<28}"
                    + (f"  repomem WRONG: got {bad[0]['got']!r}, expected {bad[0]['expected']!r}"
                       if bad else ""))
    return {"embedder": emb.name, "k": K, "rows": rows, "summary": summarize(rows),
            "seconds": round(time.time() - started, 1)}


def summarize(rows: list[dict]) -> dict:
    out: dict = {}
    for r in rows:
        cell = out.setdefault(r["condition"], {}).setdefault(r["system"], {
            "questions": 0, "correct": 0, "stale": 0, "exposed": 0, "asof_n": 0, "asof_ok": 0,
            "hit_n": 0, "hit1": 0, "hit5": 0})
        cell["questions"] += 1
        cell["correct"] += r["correct"]
        cell["stale"] += r["stale"]
        cell["exposed"] += r["exposed"]
        for ok in r["asof"]:
            if ok is not None:
                cell["asof_n"] += 1
                cell["asof_ok"] += bool(ok)
        if r["hit1"] is not None:
            cell["hit_n"] += 1
            cell["hit1"] += r["hit1"]
            cell["hit5"] += r["hit5"]
    for cond in out.values():
        for c in cond.values():
            n = max(c["questions"], 1)
            c["accuracy"] = round(c["correct"] / n, 3)
            c["stale_rate"] = round(c["stale"] / n, 3)
            c["exposure"] = round(c["exposed"] / n, 3)
            c["asof_accuracy"] = round(c["asof_ok"] / c["asof_n"], 3) if c["asof_n"] else None
            c["hit@1"] = round(c["hit1"] / c["hit_n"], 3) if c["hit_n"] else None
            c["hit@5"] = round(c["hit5"] / c["hit_n"], 3) if c["hit_n"] else None
    return out


def env_for_git() -> dict:
    """The sample builder reads no global git config; neither does the benchmark."""
    return {"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
