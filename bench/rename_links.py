"""How many functions a history's commits link across renames and moves, and how many they
leave unlinked: every first-parent commit is mined as ingestion mines it (CommitMiner), and a
function (or method) that a commit removes while the same commit adds another is linked when
the commit's record carries the pair, unlinked when not.

  python -m bench rename-links REPO [--code DIR] [--links]

DIR: the repomem package to measure (an export of another branch), else the installed one.
Prints one line: linked, unlinked, and the commits that removed and added functions; with
--links, each link first ("<commit> <old anchor> -> <new anchor>"), to diff two sides.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

_COUNT = """
import sys
from repomem.adapters import git
from repomem.core.model import FUNCTION
from repomem.miners import wants
from repomem.miners.mining import CommitMiner
repo, show = sys.argv[1], len(sys.argv) > 2
chain = git.first_parent_chain(repo)
changes = git.changes(repo, chain)
linked = unlinked = commits = 0
with CommitMiner(repo) as m:
    for info in chain:
        chs = changes.get(info.sha, [])
        rec = m.mine(info, chs)
        old, new = set(), set()
        for ch in chs:
            if not wants(ch.path):
                continue
            new |= {f.anchor for f in rec.files.get(ch.path, []) if f.kind == FUNCTION}
            if ch.old_blob is not None:
                try:
                    old |= {f.anchor for f in m._facts(ch.path, ch.old_blob, False) if f.kind == FUNCTION}
                except Exception:
                    pass
        removed, added = old - new, new - old
        if removed and added:
            commits += 1
            got = {o for o, _ in rec.links} & removed
            for o, n in rec.links if show else ():
                if o in removed:
                    print(info.sha[:10], o, "->", n)
            linked += len(got)
            unlinked += len(removed - got)
print(f"{len(chain)} commits: {commits} removed and added functions; linked {linked}, unlinked {unlinked}")
"""


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("repo")
    p.add_argument("--code", default=None)
    p.add_argument("--links", action="store_true")
    a = p.parse_args()
    env = dict(os.environ, PYTHONPATH=a.code) if a.code else dict(os.environ)
    # `python -c` puts its working directory first on sys.path: run in DIR, or a checkout's own
    # repomem would shadow the one measured
    return subprocess.run([sys.executable, "-c", _COUNT, os.path.abspath(a.repo),
                           *(["links"] if a.links else [])], env=env, cwd=a.code).returncode


if __name__ == "__main__":
    sys.exit(main())
