"""Print the Claude Code hook's latency (p50, p95, max) on a real history, and whether any prompt
made it import chromadb.

Each prompt is one `python -m repomem hook claude-code` process fed a UserPromptSubmit event on
stdin, as Claude Code runs it: the wall time includes the interpreter's start.  The prompts are
the real-history benchmark's hand-written questions for the repository (bench/realrepos/), plus
prompts that name dependencies (which once read the store of record for removed names) and
prompts with nothing to look up.

Usage: python benchmarks/hook_latency.py [BUNDLE_OR_CLONE] [--prompts N]
(default: express, the longest training history, from ../shared/realrepos)"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from repomem.bench.speed import _clone, sources

EXTRA = ["is body-parser still a dependency?", "do we still depend on connect?",
         "bump qs and check the cookie dependency", "thanks, looks good", "ok, continue",
         "fix the bug where res.redirect drops the query string"]
CHECK = """
import json, sys
from repomem.integrations.claude_code import context_for
for p in json.loads(sys.argv[2]):
    context_for({"prompt": p, "cwd": sys.argv[1]})
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] == "chromadb")[:3]))
"""


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, round(p / 100 * len(xs) + 0.5) - 1))]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source", nargs="?", help="a bundle or clone (default: express)")
    ap.add_argument("--prompts", type=int, default=0, help="use only the first N questions")
    ap.add_argument("--work", default=None, help="a folder to keep the clone and store in")
    args = ap.parse_args(argv)
    if args.source:
        src = Path(args.source)
    else:
        found = [s for s in sources([]) if s.name.startswith("express")]
        if not found:
            print("skipped: no ../shared/realrepos/express.bundle (pass a bundle or a clone)")
            return 0
        src = found[0]
    work = Path(args.work or tempfile.mkdtemp(prefix="repomem-hook-latency-"))
    repo = _clone(src, work)
    store = work / "store" / repo.name
    env = {k: v for k, v in os.environ.items() if not k.startswith("REPOMEM_")}
    t0 = time.perf_counter()
    if not store.exists():  # init records the store in git config: the hook finds it so
        subprocess.run([sys.executable, "-m", "repomem", "init", "--no-hooks", "--repo", str(repo),
                        "--store", str(store)], check=True, env=env, stdout=subprocess.DEVNULL)
    init_s = time.perf_counter() - t0
    from repomem.service.repo import Repo

    r = Repo.open(repo)
    with r.store.reader():
        versions = r.store.count_versions()
    qfile = Path(__file__).resolve().parent.parent / "bench" / "realrepos" / \
        f"{repo.name}.json"
    questions = [q["question"] for q in json.loads(qfile.read_text())] if qfile.exists() else []
    prompts = (questions[:args.prompts] if args.prompts else questions) + EXTRA
    times, cpu, blocks = [], [], 0
    for p in prompts:
        ev = json.dumps({"session_id": "bench", "cwd": str(repo), "prompt": p,
                         "hook_event_name": "UserPromptSubmit", "permission_mode": "default"})
        t, used = time.perf_counter(), _children_cpu()
        out = subprocess.run([sys.executable, "-m", "repomem", "hook", "claude-code"], input=ev,
                             capture_output=True, text=True, env=env, cwd=repo)
        times.append(time.perf_counter() - t)
        cpu.append(_children_cpu() - used)
        blocks += bool(out.stdout)
    chroma = subprocess.run([sys.executable, "-c", CHECK, str(repo), json.dumps(prompts)],
                            capture_output=True, text=True, env=env, check=True).stdout.strip()
    print(json.dumps({
        "repository": repo.name, "fact_versions": versions, "init_s": round(init_s, 1),
        "prompts": len(prompts), "blocks_given": blocks,
        "hook_s": {"p50": round(statistics.median(times), 3), "p95": round(pct(times, 95), 3),
                   "max": round(max(times), 3)},
        # CPU seconds of each hook process: what the wall time is on an idle core (the wall time
        # above includes waiting for a core on a loaded machine)
        "hook_cpu_s": {"p50": round(statistics.median(cpu), 3), "p95": round(pct(cpu, 95), 3),
                       "max": round(max(cpu), 3)},
        "chromadb_imported_by": json.loads(chroma) or None,
        "load_1min": round(os.getloadavg()[0], 1), "cores": os.cpu_count(),
    }, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
