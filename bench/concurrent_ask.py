"""Print the wall time of N cold `repomem ask` processes started at once (agents asking through
the command line), with the turns of repomem/cli/slots.py and without them
(REPOMEM_ASK_SLOTS=0): each ask's latency (median, max) and the time until the last answered.

Usage: python -m bench concurrent-ask [N] [--repo DIR]
Without --repo it uses the small repository of bench/ask_cost.py."""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from bench.ask_cost import PY, ROOT, small_repo


def burst(repo: Path, n: int, slots: str | None) -> tuple[list[float], float]:
    env = dict(os.environ)
    if slots is not None:
        env["REPOMEM_ASK_SLOTS"] = slots
    start = time.monotonic()
    procs = [subprocess.Popen([PY, "-m", "repomem", "ask", "which port", "--repo", str(repo)],
                              cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL) for _ in range(n)]
    done: dict[int, float] = {}
    while len(done) < n:
        for i, p in enumerate(procs):
            if i not in done and p.poll() is not None:
                done[i] = time.monotonic() - start
        time.sleep(0.01)
    return sorted(done.values()), max(done.values())


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("n", nargs="?", type=int, default=20)
    p.add_argument("--repo", default=None)
    args = p.parse_args()
    tmp = tempfile.TemporaryDirectory()
    repo = Path(args.repo).resolve() if args.repo else small_repo(Path(tmp.name))
    print(f"{args.n} cold asks at once  (cpus: {os.cpu_count()}, load: {os.getloadavg()[0]:.1f})")
    for label, slots in (("all at once (REPOMEM_ASK_SLOTS=0)", "0"),
                         ("taking turns, one per core", None)):
        lat, last = burst(repo, args.n, slots)
        print(f"  {label:36s} latency median {statistics.median(lat):5.1f} s  "
              f"max {max(lat):5.1f} s  last answer at {last:5.1f} s")


if __name__ == "__main__":
    main()
