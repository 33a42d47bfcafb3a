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

import json
import statistics
import subprocess
import sys
import tempfile

from bench import twosides

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
    return json.loads(twosides.run(code, MINE, repo, repo=repo))


def main() -> int:
    parsed = twosides.parse(__doc__ or "")
    if parsed is None:
        return 0
    args, sides = parsed
    for name in args.repos:
        with tempfile.TemporaryDirectory(prefix="mining-") as tmp:
            repo = f"{tmp}/{name}"
            subprocess.run(["git", "clone", "-q", str(twosides.BUNDLES / f"{name}.bundle"), repo], check=True)
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
