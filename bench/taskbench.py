"""The task benchmark: prompts a developer types to a coding agent, and the context repomem gives.

Prompts and the facts each task needs live in ``bench/tasks/<repo>.json`` (read from git, never
from repomem's output; see that folder's README).  Each history is cloned and ingested as the
real-history benchmark does it (:mod:`bench.realstore`: the same cache, the same
stores), then every prompt is given to :func:`repomem.service.context.build_context` -- what
``repomem context`` and the Claude Code hook print -- at the hook's and the CLI's token budgets.

What the context showed is judged on the store's own records: every bullet of the block names
its provenance (``path:line``), which resolves it to the current fact it renders (the value
decides between facts of one line); its ``same in`` line names the files stating the same fact
(kind and value), each shown as well.  So the judge reads structured facts while measuring exactly
the text an agent gets.  :mod:`bench.taskjudge` says when a shown fact serves a needed
one, when a stale value was shown, and how a keyword grep at the same budget does.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

from bench import realstore, taskjudge
from repomem.core.errors import RepomemError

ROOT = Path(__file__).resolve().parents[1]  # the checkout: bench/ sits at its top
TASKS = ROOT / "bench" / "tasks"
HOOK_BUDGET = 250  # the Claude Code hook's (integrations/claude_hook)
CLI_BUDGET = 400  # ``repomem context``'s default
BUDGETS = (HOOK_BUDGET, CLI_BUDGET)
# --quick: one small history of each group (CI); the full run has all seventeen
QUICK_REPOS = ("microblog", "spring-boot-realworld-example-app")
SPLITS = ("training", "held-out")

# "- `subject`: `value` (`path`:line, commit ...": the provenance of one fact's bullet (the
# path in a code span, as every mined string of an agent's block is)
_PROV = re.compile(r"\(`?([^()\s`]+?)`?:(\d+)[,)]")
_WHERE = re.compile(r"`([^`]+)`:(\d+)")  # a file and line of a "same in" line


def load(tdir: Path = TASKS, repos: list[str] | None = None, quick: bool = False) -> dict:
    out = {}
    for f in sorted(Path(tdir).glob("*.json")):
        data = json.loads(f.read_text())
        name = data["repo"]
        if (repos and name not in repos) or (quick and name not in QUICK_REPOS):
            continue
        out[name] = data
    return out


def resolve(text: str, index: dict[tuple[str, int], list[dict]]) -> tuple[list[dict], int]:
    """The facts a context block shows, in its order, and how many bullets named no current
    fact (0 unless the rendering's provenance changed: then the report says so)."""
    shown: list[dict] = []
    unresolved = 0
    bullet = None
    for line in text.splitlines():
        if line.startswith("  same in ") and bullet is not None:
            # the same fact (kind, subject, value) in other files: each is shown as well
            for path, num in _WHERE.findall(line):
                copy = next((f for f in index.get((path, int(num)), [])
                             if f not in shown and f["value"] == bullet["value"]
                             and f["kind"] == bullet["kind"]), None)
                if copy is not None:
                    shown.append(copy)
            continue
        if not line.startswith("- "):
            continue
        bullet = None
        m = _PROV.search(line)
        if m is None:  # a note on a retired name, or "no indexed fact matches"
            continue
        cands = index.get((m.group(1), int(m.group(2))), [])
        cands = [f for f in cands if f not in shown]
        best = next((f for f in cands if f"`{f['value']}`" in line), cands[0] if cands else None)
        if best is None:
            unresolved += 1
            shown.append({"kind": None, "path": m.group(1), "line": int(m.group(2)),
                          "subject": line[2:80], "value": None})
        else:
            shown.append(best)
            bullet = best
    return shown, unresolved


def _short(f: dict) -> dict:
    return {k: f.get(k) for k in ("kind", "subject", "value", "path")}


def run_repo(r, work: Path, data: dict) -> list[dict]:
    from repomem.service.context import build_context
    from repomem.service.query import facts

    current = facts(r)["facts"]
    index: dict[tuple[str, int], list[dict]] = {}
    for f in current:
        index.setdefault((f["path"], f["line"]), []).append(f)
    rows = []
    for p in data["prompts"]:
        needs = p["needs"]
        keys = [{f["key"] for f in current if taskjudge.serves(f, n)} for n in needs]
        row: dict = {"id": p["id"], "repo": data["repo"], "split": data["split"],
                     "shape": p["shape"], "prompt": p["prompt"], "needs": len(needs),
                     "in_store": [bool(k) for k in keys],
                     "need": [f"{n['subject']} = {n['value']} ({n['path']})" for n in needs]}
        for b in BUDGETS:
            t = time.perf_counter()
            text = build_context(r, p["prompt"], budget=b)
            ms = (time.perf_counter() - t) * 1000
            shown, unresolved = resolve(text, index)
            j = taskjudge.judge(needs, shown, keys)
            g = taskjudge.judge_grep(needs, taskjudge.grep_lines(work, p["prompt"], b))
            row[str(b)] = dict(j, unresolved=unresolved, ms=round(ms, 1),
                               got=[_short(f) for f in shown])
            row[f"grep{b}"] = g
        rows.append(row)
    return rows


def _rate(num: float, den: float) -> float | None:
    return round(num / den, 3) if den else None


def metrics(rows: list[dict]) -> dict:
    needs = sum(x["needs"] for x in rows)
    m: dict = {"repos": len({x["repo"] for x in rows}), "prompts": len(rows), "needs": needs,
               "in_store": _rate(sum(sum(x["in_store"]) for x in rows), needs)}
    for b in BUDGETS:
        got = [x[str(b)] for x in rows]
        grep = [x[f"grep{b}"] for x in rows]
        m[f"recall@{b}"] = _rate(sum(sum(g["served"]) for g in got), needs)
        m[f"full@{b}"] = _rate(sum(all(g["served"]) for g in got), len(rows))
        m[f"precision@{b}"] = _rate(sum(g["useful"] for g in got), sum(g["shown"] for g in got))
        m[f"stale@{b}"] = sum(g["stale"] for g in got)
        m[f"ranking_miss@{b}"] = sum(not s and i for x, g in zip(rows, got)
                                     for s, i in zip(g["served"], x["in_store"]))
        m[f"other_value@{b}"] = sum(sum(g["about_other_value"]) for g in got)
        m[f"unresolved@{b}"] = sum(g["unresolved"] for g in got)
        m[f"grep_recall@{b}"] = _rate(sum(sum(g["served"]) for g in grep), needs)
        m[f"grep_full@{b}"] = _rate(sum(all(g["served"]) for g in grep), len(rows))
        m[f"grep_precision@{b}"] = _rate(sum(g["useful"] for g in grep),
                                         sum(g["shown"] for g in grep))
    return m


def summarise(rows: list[dict]) -> dict:
    """{"groups": {training, held-out, all: metrics}, "by_repo": {name: metrics}}"""
    groups = {s: metrics([x for x in rows if x["split"] == s]) for s in SPLITS}
    groups["all"] = metrics(rows)
    repos = {}
    order = sorted({(SPLITS.index(x["split"]), x["repo"]) for x in rows})  # training first
    for _, name in order:
        repos[name] = metrics([x for x in rows if x["repo"] == name])
    return {"groups": groups, "by_repo": repos}


def run(sources: list[Path], tdir: Path = TASKS, repos: list[str] | None = None,
        quick: bool = False, fresh: bool = False, log=print, embedder: str | None = None) -> dict:
    from repomem.service.repo import Repo

    started = time.time()
    tasks = load(tdir, repos, quick)
    hist = {h.name: h for h in realstore.discover(sources)}
    res: dict = {"budgets": list(BUDGETS), "quick": quick, "repos": {}, "rows": [],
                 "embedder": embedder or "hash"}
    for name, data in tasks.items():
        info: dict = {"split": data["split"], "prompts": len(data["prompts"]),
                      "needs": sum(len(p["needs"]) for p in data["prompts"])}
        res["repos"][name] = info
        h = hist.get(name)
        if h is None:
            info["status"] = "no history given"
            continue
        t = time.time()
        try:
            work = realstore.checkout(h)
            store, ing = realstore.store_for(h, work, fresh=fresh, log=log, embedder=embedder)
        except Exception as e:  # a crashed ingest is a result: nothing served
            info.update(status="ingest failed", error=str(e)[:300])
            log(f"{name}: ingest failed: {info['error']}")
            continue
        head = realstore._git("-C", str(work), "rev-parse", "HEAD")
        if head != data["head"]:
            info["warning"] = f"the history's HEAD {head[:12]} is not the truth's {data['head'][:12]}"
            log(f"{name}: {info['warning']}")
        log(f"{name}: {info['prompts']} prompts at {' and '.join(map(str, BUDGETS))} tokens")
        res["rows"] += run_repo(Repo.open(work, store=store), work, data)
        info.update(status="ok", seconds=round(time.time() - t, 1), **ing)
    res.update(summarise(res["rows"]))
    res["seconds"] = round(time.time() - started, 1)
    return res


def main(args) -> int:
    """``python -m bench tasks [PATH...]``: the report on stdout and under --out."""
    import sys

    from bench import real, taskreport

    sources = [Path(p) for p in args.tasks] or real.default_sources()
    present = [p for p in sources if p.exists()]
    if not present or not realstore.discover(present):
        print("python -m bench tasks: skipped, no real histories (git bundles or clones) at "
              + ", ".join(str(p) for p in sources))
        return 0
    if not TASKS.is_dir():
        raise RepomemError(f"no task files at {TASKS}", hint="run from a clone of repomem")
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    res = run(present, repos=args.repo or None, quick=args.quick, fresh=args.fresh,
              log=lambda m: print(m, file=sys.stderr, flush=True), embedder=args.embedder)
    md = taskreport.markdown(res, misses=args.misses)
    (out / "tasks_report.md").write_text(md)
    (out / "tasks_report.json").write_text(json.dumps(res, indent=1, default=str))
    if args.json:
        json.dump(res, sys.stdout, indent=1, default=str)
        sys.stdout.write("\n")
    else:
        print(md, end="")
    return 0
