"""Print what a question costs: the CPU of a cold `repomem ask` answered from the snapshot (a
new process, as a shell or an agent's tool call starts one), where it goes (the imports of the
snapshot path, one by one), and the cost of 1 KB / 100 KB / 1 MB questions in a warm process
(as the MCP server and the hook's daemon answer them).

Usage: python -m bench ask-cost [--repo DIR] [--runs N]
Without --repo it builds a small repository with a real history in a temporary folder.
CPU is user + system seconds of the child process (os.wait4), the minimum of N runs (the
least disturbed by other work on the machine) and the median."""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable


def cpu_of(argv: list[str], cwd: Path, env: dict | None = None) -> float:
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env=env)
    _, _, usage = os.wait4(proc.pid, 0)
    return usage.ru_utime + usage.ru_stime


def figures(argv: list[str], cwd: Path, runs: int, env: dict | None = None) -> str:
    got = [cpu_of(argv, cwd, env) for _ in range(runs)]
    return f"min {min(got):.3f} s  median {statistics.median(got):.3f} s"


def small_repo(where: Path) -> Path:
    repo = where / "repo"
    repo.mkdir()
    env = dict(os.environ, GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@x", GIT_COMMITTER_NAME="b",
               GIT_COMMITTER_EMAIL="b@x")

    def git(*a, date=None):
        e = dict(env, GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date) if date else env
        subprocess.run(["git", "-C", str(repo), *a], env=e, check=True, capture_output=True)

    git("init", "-q", "-b", "main")
    for i in range(20):
        (repo / "app.py").write_text(f"PORT = {8000 + i}\nTIMEOUT = {i}\n\n\ndef serve(host):\n"
                                     f"    return host\n")
        (repo / "settings.toml").write_text(f"[db]\nhost = 'db{i}'\npool = {i}\n")
        git("add", "-A")
        git("commit", "-q", "-m", f"c{i}", date=f"2024-01-{i + 1:02d}T10:00:00Z")
    subprocess.run([PY, "-m", "repomem", "init", "--no-hooks", "--repo", str(repo)], check=True,
                   capture_output=True)
    return repo


def stack_trace(n: int) -> str:
    lines, size, i = [], 0, 0
    while size < n:
        line = (f'  File "/srv/app/module_{i % 37}/handler.py", line {i * 7 % 900}, in '
                f"process_{i % 13}\n    result = self.dispatch(request, n={i % 5})\n")
        lines.append(line)
        size += len(line)
        i += 1
    return "which port does the server listen on?\n" + "".join(lines)[:n]


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--repo", default=None)
    p.add_argument("--runs", type=int, default=7)
    args = p.parse_args()
    tmp = tempfile.TemporaryDirectory()
    repo = Path(args.repo).resolve() if args.repo else small_repo(Path(tmp.name))
    cwd = ROOT
    print(f"repository: {repo}  (cpus: {os.cpu_count()}, load: {os.getloadavg()[0]:.1f})")
    print("cold `repomem ask` answered from the snapshot, CPU per process:")
    cold = [PY, "-m", "repomem", "ask", "which port", "--repo", str(repo)]
    alone = dict(os.environ, REPOMEM_ANSWERER="0")
    print(f"  ask 'which port'                     {figures(cold, cwd, args.runs, alone)}")
    print("  where it goes (a process that only imports, CPU):")
    for what in ("pass", "import numpy", "import repomem.cli",
                 "import repomem.cli; repomem.cli.build_parser('ask')",
                 "import repomem.service.query", "import repomem.service.viewcache",
                 "import repomem.service.rank"):
        print(f"    {what[:52]:52s} {figures([PY, '-c', what], cwd, args.runs, alone)}")
    one = dict(alone, OPENBLAS_NUM_THREADS="1")  # as `ask` starts numpy (repomem/cli)
    print(f"    {'import numpy (one OpenBLAS thread, as ask)':52s} "
          f"{figures([PY, '-c', 'import numpy'], cwd, args.runs, one)}")
    from bench.asklatency import _start_answerer
    from repomem.integrations.answerer import store_for

    store = store_for(str(repo))
    if store:
        warm = dict(os.environ, REPOMEM_ANSWERER="1")
        proc = _start_answerer(Path(store), repo, warm)
        try:
            print(f"  the same ask through the store's warm answerer {figures(cold, cwd, args.runs, warm)}")
        finally:
            proc.terminate()
            proc.wait(30)

    sys.path.insert(0, str(ROOT))
    from repomem.service.context import build_context
    from repomem.service.query import ask
    from repomem.service.repo import Repo

    r = Repo.open(repo)
    ask(r, "which port")  # warm: imports, the snapshot loaded
    print("question cost in a warm process (CPU of ask + context):")
    for n in (1_000, 100_000, 1_000_000):
        q = stack_trace(n)
        t0 = time.process_time()
        got = ask(r, q)
        t1 = time.process_time()
        build_context(r, q)
        t2 = time.process_time()
        print(f"  {n:>9,} characters   ask {t1 - t0:.3f} s   context {t2 - t1:.3f} s   "
              f"answer {got['answer']!r}{'  (note: ' + got['note'] + ')' if got.get('note') else ''}")


if __name__ == "__main__":
    main()
