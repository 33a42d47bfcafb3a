"""Print the Claude Code hook's latency (p50, p95, max) on a real history, cold and warm, and
whether any prompt made it import chromadb.

Each prompt is one `python -m repomem hook claude-code` process fed a UserPromptSubmit event on
stdin, as Claude Code runs it: the wall time includes the interpreter's start.  Each prompt is
asked twice in a row: the cold way (``REPOMEM_ANSWERER=0``: the hook's own process loads the
snapshot) and the warm way (a warm answerer, repomem/integrations/answerer.py, is running for
the store: the hook's process only asks it).  The prompts are the real-history benchmark's
hand-written questions for the repository (bench/realrepos/), plus prompts that name
dependencies (which once read the store of record for removed names) and prompts with nothing
to look up.

Besides wall times (which, on a shared machine, include waiting for a core) it prints the CPU
seconds per hook call: of the hook's process and its git calls, plus, warm, the answerer's CPU
for that answer.  The load average is printed at the start and at the end.

Usage: python -m bench hook-latency [BUNDLE_OR_CLONE] [--prompts N] [--rounds N]
(default: httpx, the training history with the most fact versions, from ../shared/realrepos)"""

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

from bench.speed import _clone, sources

EXTRA = ["is body-parser still a dependency?", "do we still depend on connect?",
         "bump qs and check the cookie dependency", "thanks, looks good", "ok, continue",
         "fix the bug where res.redirect drops the query string",
         "is chardet still a dependency?", "do we still depend on rfc3986?"]
DEFAULT = "httpx"
CHECK = """
import json, sys
from repomem.integrations.claude_code import context_for
for p in json.loads(sys.argv[2]):
    context_for({"prompt": p, "cwd": sys.argv[1]}, warm=False)
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] == "chromadb")[:3]))
"""


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, round(p / 100 * len(xs) + 0.5) - 1))]


def _figures(xs: list[float]) -> dict:
    return {"p50": round(statistics.median(xs), 3), "p95": round(pct(xs, 95), 3),
            "max": round(max(xs), 3)}


class _Timings:
    """Wall and CPU seconds of hook processes, and how many printed a block."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []
        self.blocks = 0

    def run(self, event: str, env: dict, cwd: Path) -> str:
        t, used = time.perf_counter(), _children_cpu()
        out = subprocess.run([sys.executable, "-m", "repomem", "hook", "claude-code"],
                             input=event, capture_output=True, text=True, env=env, cwd=cwd)
        self.wall.append(time.perf_counter() - t)
        self.cpu.append(_children_cpu() - used)
        self.blocks += bool(out.stdout)
        return out.stdout

    def wall_figures(self) -> dict:
        return _figures(self.wall)

    def cpu_figures(self) -> dict:
        return _figures(self.cpu)


def _status(store: Path) -> dict:
    from repomem.integrations import answerer

    return answerer.request(str(store), "status") or {}


def _answerer_cpu(store: Path) -> float:
    return float(_status(store).get("cpu_s", 0.0))


def _start_answerer(store: Path, repo: Path, env: dict) -> subprocess.Popen:
    """The store's warm answerer, as a hook starts it (no idle exit during the run); returns
    once it answers."""
    from repomem.integrations import answerer

    if answerer.request(str(store), "stop"):  # one left from an earlier run: a fresh one
        deadline = time.monotonic() + 30
        while not answerer._lock_free(str(store)) and time.monotonic() < deadline:
            time.sleep(0.1)
    proc = subprocess.Popen([sys.executable, "-m", "repomem.integrations.answerer", str(store),
                             str(repo)], env=dict(env, REPOMEM_ANSWERER_IDLE="3600"))
    deadline = time.monotonic() + 120
    while not _status(store):
        if proc.poll() is not None or time.monotonic() > deadline:
            raise SystemExit("the warm answerer did not start (is another one running?)")
        time.sleep(0.1)
    return proc


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source", nargs="?", help=f"a bundle or clone (default: {DEFAULT})")
    ap.add_argument("--prompts", type=int, default=0, help="use only the first N questions")
    ap.add_argument("--rounds", type=int, default=1, help="ask every prompt N times")
    ap.add_argument("--work", default=None, help="a folder to keep the clone and store in")
    args = ap.parse_args(argv)
    if args.source:
        src = Path(args.source)
    else:
        found = [s for s in sources([]) if s.name == f"{DEFAULT}.bundle"]
        if not found:
            print(f"skipped: no ../shared/realrepos/{DEFAULT}.bundle (pass a bundle or a clone)")
            return 0
        src = found[0]
    work = Path(args.work or tempfile.mkdtemp(prefix="repomem-hook-latency-"))
    repo = _clone(src, work)
    store = work / "store" / repo.name
    # The hook's own cut-off (5 s) is lifted: on a loaded machine a cold call may take longer,
    # and it would print nothing, which is no latency figure and no answer to compare.
    env = {k: v for k, v in os.environ.items() if not k.startswith("REPOMEM_")}
    env["REPOMEM_HOOK_TIMEOUT"] = "120"
    t0 = time.perf_counter()
    if not store.exists():  # init records the store in git config: the hook finds it so
        subprocess.run([sys.executable, "-m", "repomem", "init", "--no-hooks", "--repo", str(repo),
                        "--store", str(store)], check=True, env=env, stdout=subprocess.DEVNULL)
    from repomem.service import backfill

    backfill.wait(store)  # init answers from HEAD's tree at once; the history follows
    init_s = time.perf_counter() - t0
    from repomem.service.repo import Repo

    r = Repo.open(repo)
    with r.store.reader():
        versions = r.store.count_versions()
    qfile = Path(__file__).resolve().parent.parent / "bench" / "realrepos" / \
        f"{repo.name}.json"
    questions = [q["question"] for q in json.loads(qfile.read_text())] if qfile.exists() else []
    prompts = (questions[:args.prompts] if args.prompts else questions) + EXTRA
    load_start = os.getloadavg()
    cold, warm, same = _Timings(), _Timings(), 0
    answer = _start_answerer(store, repo, env)
    try:
        for p in prompts * max(1, args.rounds):
            ev = json.dumps({"session_id": "bench", "cwd": str(repo), "prompt": p,
                             "hook_event_name": "UserPromptSubmit", "permission_mode": "default"})
            a = cold.run(ev, dict(env, REPOMEM_ANSWERER="0"), repo)
            before = _answerer_cpu(store)
            b = warm.run(ev, dict(env, REPOMEM_ANSWERER="1"), repo)
            warm.cpu[-1] += _answerer_cpu(store) - before
            same += a == b
        status = _status(store)
        served, answerer_chroma = status["served"], status["chromadb_loaded"]
    finally:
        answer.terminate()
        answer.wait(30)
    chroma = subprocess.run([sys.executable, "-c", CHECK, str(repo), json.dumps(prompts)],
                            capture_output=True, text=True, env=dict(env, REPOMEM_ANSWERER="0"),
                            check=True).stdout.strip()
    print(json.dumps({
        "repository": repo.name, "fact_versions": versions, "init_s": round(init_s, 1),
        "prompts": len(prompts), "rounds": max(1, args.rounds), "blocks_given": cold.blocks,
        # hook process wall time: what Claude Code waits for (on a loaded machine this includes
        # waiting for a core)
        "cold_hook_s": cold.wall_figures(), "warm_hook_s": warm.wall_figures(),
        # CPU seconds per hook call: the hook's process and its git calls; warm, plus the
        # answerer's CPU for the answer.  What the wall time would be on an idle core.
        "cold_hook_cpu_s": cold.cpu_figures(), "warm_hook_cpu_s": warm.cpu_figures(),
        "warm_answers_served": served, "warm_equals_cold": f"{same}/{len(cold.wall)}",
        "chromadb_imported_by": json.loads(chroma) or None,
        "chromadb_loaded_by_the_answerer": answerer_chroma,
        "load_avg_start": [round(x, 1) for x in load_start],
        "load_avg_end": [round(x, 1) for x in os.getloadavg()], "cores": os.cpu_count(),
    }, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
