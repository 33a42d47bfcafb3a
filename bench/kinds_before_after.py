"""Facts by kind and full-history ingest time of real histories, mined by two code trees.

For each bundle of ../shared/realrepos named, a clone in a temporary folder is ingested whole
(``repomem ingest --all`` into a fresh store) by the repomem package in OLD_CODE and in NEW_CODE
(an export of another commit, ``git archive main | tar -x -C DIR``), alternating, RUNS times
each; prints the current facts and all versions by kind of each side, the keys only one side
has (the first few), the median wall and CPU seconds of the ingests (CPU: the ingest process, its
workers and its git children) and NEW's change against OLD in percent:

  python -m bench kinds-before-after OLD_CODE NEW_CODE REPO... [--runs 3]

Timings on a shared machine are noisy: the CPU seconds (the ingest and its workers) less so.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import twosides

COUNT = """
import json, sys
from collections import Counter
from repomem.service.repo import Repo
from repomem.storage.store import FOREVER
r = Repo.open(sys.argv[1], sys.argv[2])
versions, current, values = Counter(), Counter(), {}
with r.store.reader():
    for row in r.store.rows():
        versions[row["kind"]] += 1
        if row["valid_to"] == FOREVER:
            current[row["kind"]] += 1
            values[row["key"]] = row["value"]
json.dump({"versions": versions, "current": current, "values": values}, sys.stdout)
"""


def ingest(code: str, repo: str, store: str) -> tuple[float, float]:
    env = dict(os.environ, PYTHONPATH=code)
    # run from the clone's parent: the current directory comes before PYTHONPATH on sys.path, and
    # a work tree's own repomem there would shadow the code tree asked for
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "repomem", "ingest", "--all", "-q", "--repo", repo, "--store", store],
                   env=env, check=True, cwd=str(Path(repo).parent))
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def change(before: float, after: float) -> str:
    """AFTER against BEFORE in percent, signed (``+9%``)."""
    return f"{(after - before) / before * 100:+.0f}%" if before else "n/a"


def counts(code: str, repo: str, store: str) -> dict:
    return json.loads(twosides.run(code, COUNT, repo, store, repo=repo))


def main() -> int:
    parsed = twosides.parse(__doc__ or "")
    if parsed is None:
        return 0
    args, sides = parsed
    for side, code in sides.items():  # the tree each side really imports
        where = subprocess.run([sys.executable, "-c", "import repomem; print(repomem.__file__)"],
                               cwd=tempfile.gettempdir(), env=dict(os.environ, PYTHONPATH=code),
                               capture_output=True, text=True).stdout.strip()
        print(f"{side}: {where}")
    for name in args.repos:
        with tempfile.TemporaryDirectory(prefix="kinds-") as tmp:
            repo = f"{tmp}/{name}"
            subprocess.run(["git", "clone", "-q", str(twosides.BUNDLES / f"{name}.bundle"), repo], check=True)
            times: dict[str, list[tuple[float, float]]] = {s: [] for s in sides}
            got = {}
            for i in range(args.runs):
                for side, code in sides.items():
                    store = f"{tmp}/store-{side}-{i}"
                    times[side].append(ingest(code, repo, store))
                    if i == 0:
                        got[side] = counts(code, repo, store)
            print(f"\n== {name}")
            med = {}
            for side in sides:
                wall = statistics.median(t[0] for t in times[side])
                cpu = statistics.median(t[1] for t in times[side])
                med[side] = (wall, cpu)
                print(f"{side}: ingest median {wall:.2f} s wall, {cpu:.2f} s CPU ({args.runs} runs: CPU "
                      f"{', '.join(f'{t[1]:.2f}' for t in times[side])}); "
                      f"current {dict(sorted(got[side]['current'].items()))}; "
                      f"versions {dict(sorted(got[side]['versions'].items()))}")
            print(f"new against old: CPU {change(med['old'][1], med['new'][1])}, wall "
                  f"{change(med['old'][0], med['new'][0])} (load average {os.getloadavg()[0]:.1f} "
                  f"on {os.cpu_count()} CPUs after the runs)")
            old, new = got["old"]["values"], got["new"]["values"]
            for sign, keys, values in (("+", sorted(set(new) - set(old)), new),
                                       ("-", sorted(set(old) - set(new)), old)):
                print(f"{sign} {len(keys)} current keys")
                for k in keys[:12]:
                    print(f"  {sign} {k} = {values[k]!r}"[:160])
    return 0


if __name__ == "__main__":
    sys.exit(main())
