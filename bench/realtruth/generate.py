"""Generate the real-history benchmark's questions from the git histories themselves.

    python -m bench truth-generate [--bundles DIR] [--out DIR] [--repo NAME ...]

DIR defaults to $REPOMEM_REALREPOS or ../shared/realrepos (the bundles; cloned into a temporary
folder) and
bench/realrepos (one JSON list per repository).  Deterministic: the same bundles give the same
files.  Truth comes from git (first-parent chain, ``git show REV:PATH``) read with ast, tomllib,
configparser, json, yaml and packaging; nothing here imports repomem."""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.realtruth import phrasing as P
from bench.realtruth.engine import build
from bench.realtruth.gitread import ENV, GitRepo
from bench.realtruth.repos import CONFIGS

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
# At most this many questions per (family, current/as-of/absent) in one repository, chosen by
# hash: a pip-compiled requirements file must not drown the other families.
CAPS = {"dependency": 16, "python": 6, "constant": 10, "settings": 14, "docker": 10, "route": 14,
        "function": 22, "renamed": 14}


def _rank(q: dict) -> tuple:
    # the project's own runtime facts first, then facts with a history (they are what the
    # benchmark is about), then by hash
    own = q.get("priority", 1)
    salted = hashlib.sha1(b"rank\0" + q["question"].encode()).hexdigest()
    return (own, 0 if q["stale_values"] else 1, salted)


def records(name: str, raw: list[dict]) -> list[dict]:
    groups: dict = {}
    for q in raw:
        mode = "absent" if q.get("absent") else ("as_of" if q["as_of"] else "current")
        groups.setdefault((q["family"], mode), []).append(q)
    out, seen = [], set()
    for (family, mode), qs in sorted(groups.items()):
        cap = CAPS.get(family, 10) // (2 if mode == "absent" else 1)
        for q in sorted(qs, key=_rank)[:cap]:
            if q["question"] in seen:
                continue
            bad = P.markers(q["question"])
            if bad:
                raise SystemExit(f"{name}: marker words {sorted(bad)} in {q['question']!r}")
            seen.add(q["question"])
            out.append({
                "id": f"{name}-{hashlib.sha1(q['question'].encode()).hexdigest()[:10]}",
                "repo": name, "family": family, "question": q["question"], "as_of": q["as_of"],
                "expect": {"value": q["value"], "subject": q.get("subject"), "path": q["path"],
                           "kinds": q["kinds"]},
                "absent": bool(q.get("absent")), "stale_values": q["stale_values"],
                "evidence": q["evidence"], "split": P.split_of(name)})
    out.sort(key=lambda r: (r["family"], r["as_of"] or "", r["id"]))
    return out


def generate(bundle: Path, name: str, work: Path) -> list[dict]:
    dest = work / name
    if not (dest / ".git").exists():
        subprocess.run(["git", "clone", "-q", str(bundle), str(dest)], check=True, env=ENV)
    g = GitRepo(dest)
    try:
        return records(name, build(g, CONFIGS[name]()))
    finally:
        g.close()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bundles", default=os.environ.get("REPOMEM_REALREPOS")
                    or str(ROOT.parent / "shared" / "realrepos"))
    ap.add_argument("--out", default=str(ROOT / "bench" / "realrepos"))
    ap.add_argument("--repo", action="append", default=[])
    ap.add_argument("--work", default=None, help="reuse clones in this folder")
    a = ap.parse_args(argv)
    bundles = Path(a.bundles)
    if not bundles.is_dir():
        print(f"no bundles at {bundles}: nothing generated", file=sys.stderr)
        return 1
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(a.work) if a.work else Path(tmp)
        for name in a.repo or list(CONFIGS):
            b = bundles / f"{name}.bundle"
            if not b.exists():
                print(f"{name}: no bundle at {b}, skipped", file=sys.stderr)
                continue
            recs = generate(b, name, work)
            (out / f"{name}.json").write_text(json.dumps(recs, indent=1, ensure_ascii=False) + "\n")
            fams: dict[str, int] = {}
            for r in recs:
                fams[r["family"]] = fams.get(r["family"], 0) + 1
            print(f"{name}: {len(recs)} questions {fams}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
