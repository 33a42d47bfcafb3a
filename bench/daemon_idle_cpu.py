"""Measure the CPU an idle 'repomem daemon' uses: start it on a small throwaway repository, let it
settle, then read its user+system CPU time from /proc over a window (default 10 s).

Usage: python -m bench daemon-idle-cpu [SECONDS]"""

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main(window: float = 10.0) -> dict:
    from repomem.service.samples import git_env

    env = git_env()
    with tempfile.TemporaryDirectory(prefix="repomem-idle-") as tmp:
        repo = Path(tmp) / "repo"
        repo.mkdir()
        def run(*a):
            return subprocess.run(a, cwd=repo, env=env, check=True, capture_output=True)

        run("git", "init", "-q", "-b", "main")
        (repo / "app.py").write_text("PORT = 8080\n")
        run("git", "add", "app.py")
        run("git", "commit", "-q", "-m", "one")
        rm = [sys.executable, "-m", "repomem"]
        run(*rm, "init", "--no-hooks")
        run(*rm, "daemon", "start")
        pid = int((repo / ".git" / "repomem" / "daemon.pid").read_text())
        try:
            time.sleep(2)  # let start-up work finish
            c0, t0 = cpu_seconds(pid), time.monotonic()
            time.sleep(window)
            used, wall = cpu_seconds(pid) - c0, time.monotonic() - t0
        finally:
            run(*rm, "daemon", "stop")
    return {"window_s": round(wall, 1), "cpu_s": round(used, 3),
            "cpu_percent": round(100 * used / wall, 3)}


if __name__ == "__main__":
    print(json.dumps(main(float(sys.argv[1]) if len(sys.argv) > 1 else 10.0)))
