"""Mining CPU of whole real histories by two code trees, and whether they mine the same records.

For each bundle of ../shared/realrepos named, a clone in a temporary folder is mined commit by
commit as one ingest worker mines it (``CommitMiner`` over the first-parent chain, oldest first:
the blob cache and the miners' own caches work as they do in an ingest), in a child process per
code tree, alternating, RUNS times each.  Prints the median CPU seconds (user + sys) of the
mining alone (no store, no embedding), the fact versions mined, and whether the two trees'
commit records (every fact's every field, fingerprints, links, moves, skips) are identical:

  python -m bench mining-cpu OLD_CODE NEW_CODE REPO... [--runs 3]

OLD_CODE / NEW_CODE: a repomem code tree (an export of a commit, ``git archive REV | tar -x -C
DIR``).  Two trees that mine different facts (an added shape) print "records differ" and their
counts; the CPU figures still compare.  Timings on a shared machine are noisy: say the load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

BUNDLES = Path(__file__).resolve().parents[1] / ".." / "shared" / "realrepos"
MINE = """
import dataclasses, hashlib, json, resource, sys
from repomem.adapters import git
from repomem.miners.mining import CommitMiner
repo = sys.argv[1]
chain = git.first_parent_chain(repo)
changes = git.changes(repo, chain)
digest, n = hashlib.blake2b(), 0
r0 = resource.getrusage(resource.RUSAGE_SELF)
with CommitMiner(repo) as m:
    for i in range(0, len(chain), 200):
        batch = chain[i:i + 200]
        m.prefetch(batch, changes)
        for c in batch:
            rec = m.mine(c, changes.get(c.sha, []))
            for path, facts in sorted(rec.files.items()):
                n += len(facts)
                rows = [[str(getattr(f, x.name)) if x.name == "fingerprint" else getattr(f, x.name)
                         for x in dataclasses.fields(f)] for f in facts]
                digest.update(json.dumps([rec.sha, path, rows], default=str).encode())
            digest.update(json.dumps([rec.sha, rec.links, rec.moves, rec.skipped]).encode())
r1 = resource.getrusage(resource.RUSAGE_SELF)
cpu = r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime
print(json.dumps({"commits": len(chain), "facts": n, "cpu": cpu, "digest": digest.hexdigest()}))
"""


def mine(code: str, repo: str) -> dict:
    import json

    # run from the clone's parent: the current directory comes before PYTHONPATH on sys.path
    out = subprocess.run([sys.executable, "-c", MINE, repo], env=dict(os.environ, PYTHONPATH=code),
                         capture_output=True, text=True, check=True, cwd=str(Path(repo).parent)).stdout
    return json.loads(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old_code")
    ap.add_argument("new_code")
    ap.add_argument("repos", nargs="+")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    if not BUNDLES.is_dir():
        print(f"skipped: no bundles at {BUNDLES}")
        return 0
    sides = {"old": str(Path(args.old_code).resolve()), "new": str(Path(args.new_code).resolve())}
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    for name in args.repos:
        with tempfile.TemporaryDirectory(prefix="mining-") as tmp:
            repo = f"{tmp}/{name}"
            subprocess.run(["git", "clone", "-q", str(BUNDLES / f"{name}.bundle"), repo], check=True)
            got: dict[str, list[dict]] = {s: [] for s in sides}
            for _ in range(args.runs):
                for side, code in sides.items():
                    got[side].append(mine(code, repo))
            old, new = (statistics.median(r["cpu"] for r in got[s]) for s in sides)
            same = got["old"][0]["digest"] == got["new"][0]["digest"]
            print(f"{name}: {got['old'][0]['commits']} commits; mining CPU old {old:.1f} s, new {new:.1f} s "
                  f"({(new - old) / old * 100:+.0f}%, median of {args.runs}); fact versions old "
                  f"{got['old'][0]['facts']}, new {got['new'][0]['facts']}; records "
                  f"{'identical' if same else 'differ'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
