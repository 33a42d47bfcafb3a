"""Time from `repomem init` to the first right current answer, and to the whole history.

For each history: clone the bundle, time `git log -p --first-parent` (the floor: git reading
every change once), then run `repomem init` as a user would (a fresh process), ask a current
question whose answer is read from git itself (`git show HEAD:...`) until the top answer is
right, and wait for the background backfill to finish.  Both times are printed as a ratio to the
`git log -p` time measured in the same run (targets: first answer <= 5x, whole history <= 10x).

  python benchmarks/first_answer.py [NAME ...]     (default: express typer click)
"""

from __future__ import annotations

import json
import os
import re
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


# (question, the right answer read from git)
QUESTIONS = {
    "express": ("what version is express?", lambda r: json.loads(_show(r, "package.json"))["version"]),
    "click": ("what is the version of click?",
              lambda r: tomllib.loads(_show(r, "pyproject.toml"))["project"]["version"]),
    "typer": ("what is typer's __version__?",
              lambda r: re.search(r'__version__ = "([^"]+)"', _show(r, "typer/__init__.py"))[1]),
}


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
        t0 = time.perf_counter()
        subprocess.run(["git", "-C", str(root), "log", "-p", "--first-parent"],
                       stdout=subprocess.DEVNULL, check=True)
        floor = time.perf_counter() - t0
        env = dict(os.environ)
        t0 = time.perf_counter()
        init = _repomem("init", "--no-hooks", "-q", "--json", "--repo", str(root), "--store",
                        str(store), env=env)
        assert init.returncode == 0, init.stderr
        inited = time.perf_counter() - t0
        answer = None
        while time.perf_counter() - t0 < 600:
            got = _repomem("ask", question, "--json", "--repo", str(root), "--store", str(store),
                           env=env)
            answer = json.loads(got.stdout)["answer"] if got.returncode == 0 else None
            if answer == want:
                break
            time.sleep(0.2)
        first = time.perf_counter() - t0
        backfill.wait(store)
        full = time.perf_counter() - t0
        st = backfill.describe(backfill.read_state(store), False)
        commits = int(subprocess.run(["git", "-C", str(root), "rev-list", "--count",
                                      "--first-parent", "HEAD"], capture_output=True,
                                     text=True).stdout)
        return {"repo": name, "commits": commits, "git_log_p_s": round(floor, 2),
                "init_returned_s": round(inited, 2), "first_right_answer_s": round(first, 2),
                "answer": answer, "right": answer == want,
                "full_history_s": round(full, 2), "history_complete": st["complete"],
                "first_answer_ratio": round(first / floor, 1),
                "full_history_ratio": round(full / floor, 1)}


def main(names: list[str]) -> int:
    if not BUNDLES.is_dir():
        print(f"skipped: {BUNDLES} is absent")
        return 0
    for name in names or ["express", "typer", "click"]:
        print(json.dumps(measure(name)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
