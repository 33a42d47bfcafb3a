"""Seconds from 'git commit' returning to the commit's fact being answerable, with the hooks alone
(a detached worker per burst) and with the daemon running.  Small repository, 5 commits each.

Usage: python -m bench freshness"""

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def main(n: int = 5) -> dict:
    from repomem.service.query import ask
    from repomem.service.repo import Repo
    from repomem.service.samples import git_env

    env = git_env()
    out = {}
    for mode in ("hooks", "daemon"):
        with tempfile.TemporaryDirectory(prefix="repomem-fresh-") as tmp:
            repo = Path(tmp)
            def run(*a, repo=repo):
                return subprocess.run(a, cwd=repo, env=env, check=True, capture_output=True)

            run("git", "init", "-q", "-b", "main")
            (repo / "app.py").write_text("PORT = 1\n")
            run("git", "add", "app.py")
            run("git", "commit", "-q", "-m", "one")
            rm = [sys.executable, "-m", "repomem"]
            run(*rm, "init")
            if mode == "daemon":
                run(*rm, "daemon", "start")
            times = []
            for i in range(n):
                (repo / "app.py").write_text(f"PORT = {1000 + i}\n")
                run("git", "commit", "-q", "-am", f"c{i}")
                t0 = time.monotonic()
                while ask(Repo.open(repo), "PORT in app.py", k=1)["answer"] != str(1000 + i):
                    if time.monotonic() - t0 > 30:
                        raise SystemExit(f"{mode}: not fresh after 30 s")
                    time.sleep(0.1)
                times.append(time.monotonic() - t0)
                print(mode, i, round(times[-1], 2), file=sys.stderr)
                time.sleep(0.5)
            if mode == "daemon":
                run(*rm, "daemon", "stop")
            out[mode] = {"median_s": round(statistics.median(times), 2),
                         "max_s": round(max(times), 2)}
    return out


if __name__ == "__main__":
    print(json.dumps(main()))
