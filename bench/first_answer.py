"""Time from `repomem init` to the first right current answer, and to the whole history.

For each history: clone the bundle, time `git log -p --first-parent` (the floor: git reading
every change once), then run `repomem init` as a user would (a fresh process), ask a current
question whose answer is read from git itself (`git show HEAD:...`) until the top answer is
right, and wait for the background backfill to finish.  Both times are printed as a ratio to the
`git log -p` time measured in the same run (targets: first answer <= 5x, whole history <= 10x),
with the CPU seconds behind the first answer (init with its mining workers, and the questions)
and the load average: on a shared machine the wall times say as much about the neighbours.

  python -m bench first-answer [NAME ...]     (default: typer httpx, the largest Python
  training histories; express and click too when named)
"""

from __future__ import annotations

import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

BUNDLES = Path("/work/shared/realrepos")


def _show(root: Path, path: str) -> str:
    return subprocess.run(["git", "-C", str(root), "show", f"HEAD:{path}"], check=True,
                          capture_output=True, text=True).stdout


def _group(pattern: str, text: str) -> str:
    m = re.search(pattern, text)
    if m is None:
        raise SystemExit(f"the right answer is not in git: no match for {pattern!r}")
    return m[1]


# (question, the right answer read from git): the real-history benchmark's hand-written
# questions (bench/realrepos/), which the tree view must answer as the history's view does
QUESTIONS = {
    "express": ("what version is express?", lambda r: json.loads(_show(r, "package.json"))["version"]),
    "click": ("what is the version of click?",
              lambda r: tomllib.loads(_show(r, "pyproject.toml"))["project"]["version"]),
    "typer": ("Which value does `__version__` hold in `typer/__init__.py`?",
              lambda r: _group(r'__version__ = "([^"]+)"', _show(r, "typer/__init__.py"))),
    "httpx": ("What is httpx's `__version__`?",
              lambda r: _group(r'__version__ = "([^"]+)"', _show(r, "httpx/__version__.py"))),
}


def _cpu() -> float:
    """CPU seconds of this process's waited-for children so far."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def _repomem(*args: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "repomem", *args], capture_output=True,
                          text=True, env=env)


def measure(name: str) -> dict:
    from repomem.service import backfill

    question, truth = QUESTIONS[name]
    with tempfile.TemporaryDirectory(prefix="repomem-first-") as tmp:
        root = Path(tmp) / name
        subprocess.run(["git", "clone", "-q", str(BUNDLES / f"{name}.bundle"), str(root)],
                       check=True)
        store = Path(tmp) / "store"
        want = truth(root)
        load = os.getloadavg()[0]
        c0, t0 = _cpu(), time.perf_counter()
        subprocess.run(["git", "-C", str(root), "log", "-p", "--first-parent"],
                       stdout=subprocess.DEVNULL, check=True)
        floor, floor_cpu = time.perf_counter() - t0, _cpu() - c0
        env = dict(os.environ)
        c0, t0 = _cpu(), time.perf_counter()
        init = _repomem("init", "--no-hooks", "-q", "--json", "--repo", str(root), "--store",
                        str(store), env=env)
        assert init.returncode == 0, init.stderr
        inited, init_cpu = time.perf_counter() - t0, _cpu() - c0
        answer, asks = None, 0
        while time.perf_counter() - t0 < 600:
            got = _repomem("ask", question, "--json", "--repo", str(root), "--store", str(store),
                           env=env)
            asks += 1
            answer = json.loads(got.stdout)["answer"] if got.returncode == 0 else None
            if answer == want:
                break
            time.sleep(0.2)
        first, first_cpu = time.perf_counter() - t0, _cpu() - c0
        backfill.wait(store)
        full = time.perf_counter() - t0
        st = backfill.describe(backfill.read_state(store), False)
        commits = int(subprocess.run(["git", "-C", str(root), "rev-list", "--count",
                                      "--first-parent", "HEAD"], capture_output=True,
                                     text=True).stdout)
        return {"repo": name, "commits": commits, "git_log_p_s": round(floor, 2),
                "git_log_p_cpu_s": round(floor_cpu, 2),
                "init_returned_s": round(inited, 2), "init_cpu_s": round(init_cpu, 2),
                "first_right_answer_s": round(first, 2), "asks": asks,
                "first_answer_cpu_s": round(first_cpu, 2),
                "answer": answer, "right": answer == want,
                "full_history_s": round(full, 2), "history_complete": st["complete"],
                "first_answer_ratio": round(first / floor, 1),
                "first_answer_cpu_ratio": round(first_cpu / max(floor_cpu, 1e-3), 1),
                "full_history_ratio": round(full / floor, 1),
                "load_avg_1min": [round(load, 1), round(os.getloadavg()[0], 1)],
                "cpus": os.cpu_count()}


def main(names: list[str]) -> int:
    if not BUNDLES.is_dir():
        print(f"skipped: {BUNDLES} is absent")
        return 0
    # as installed: pip byte-compiles a package it installs, where a checkout run with
    # PYTHONDONTWRITEBYTECODE set compiles ~90 modules again in every process (~0.2 s each)
    import compileall

    import repomem

    compileall.compile_dir(Path(repomem.__file__).parent, quiet=1)
    for name in names or ["typer", "httpx"]:
        print(json.dumps(measure(name)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
