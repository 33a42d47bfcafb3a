"""Hand-written questions: checked against git, then written as benchmark records.

    python -m bench truth-hand [--bundles DIR] [--repo NAME ...] [--work DIR]

A person writes ``bench/realtruth/hand/<repo>.json``: a list of entries

    {"q": question, "family": ..., "value": expected | null, "path": file, "subject": name | null,
     "kinds": [...], "match": regex, "as_of": "YYYY-MM-DD" | null, "absent": bool,
     "stale": [values it had before]}

``match`` is a regular expression whose first group is the value as the file at ``path`` states
it (or ``template``, filled with its groups, when the value is composed; ``also``: regexes the file
must match too).  Every entry is checked with git itself: at HEAD (the commit in effect at both edges of the
asked day for an as-of question: 00:00:00 and 23:59:59 UTC, by effective and by raw committer
time) the file must exist, ``match`` must match it and give ``value`` (an absent entry: the file
must not match at HEAD, and must have matched at some earlier first-parent commit that touched it).
The records go to ``bench/realrepos/hand/<repo>.json``; a failed check stops with the entry."""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.realtruth import phrasing as P
from bench.realtruth.gitread import ENV, GitRepo, day_edges

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def _found(g: GitRepo, sha: str, e: dict) -> str | None:
    """The value the file states at SHA: ``match``'s first group, or ``template`` filled with
    its groups (a route's method and path composed from two annotations); every regex of
    ``also`` (a class prefix, a group's mount) must match the file too."""
    text = g.show(sha, e["path"])
    if text is None:
        return None
    text = text.replace("\r\n", "\n")  # '$' ends a line either way
    m = re.search(e["match"], text, re.M)
    if not m or not all(re.search(a, text, re.M) for a in e.get("also", [])):
        return None
    return e["template"].format(*m.groups()) if e.get("template") else m.group(1)


def check(g: GitRepo, e: dict) -> dict:
    """The entry's evidence; raises ValueError when git disagrees with it."""
    if e.get("absent"):
        if _found(g, g.head.sha, e) is not None:
            raise ValueError("still stated at HEAD")
        seen = [c.sha for c in g.touching([e["path"]]) if _found(g, c.sha, e) is not None]
        if not seen:
            raise ValueError("never stated in the history")
        return {"commit": g.head.sha, "path": e["path"], "match": e["match"], "last_seen": seen[-1]}
    if e.get("as_of"):
        start, end = day_edges(e["as_of"])
        edges = [g.in_effect(t, raw=raw) for t in (start, end) for raw in (False, True)]
        commits = [c for c in edges if c is not None]
        if len(commits) < len(edges):
            raise ValueError("no commit in effect that day")
        both = {_found(g, c.sha, e) for c in commits}
        if both != {e["value"]}:
            raise ValueError(f"both edges give {sorted(map(str, both))}, not {e['value']!r}")
        return {"day_start_commit": commits[0].sha, "day_end_commit": commits[2].sha,
                "path": e["path"], "match": e["match"], "checked": "git show at both edges"}
    got = _found(g, g.head.sha, e)
    if got != e["value"]:
        raise ValueError(f"HEAD gives {got!r}, not {e['value']!r}")
    return {"commit": g.head.sha, "path": e["path"], "match": e["match"]}


def records(name: str, g: GitRepo, entries: list[dict]) -> list[dict]:
    out = []
    for e in entries:
        bad = P.markers(e["q"])
        if bad:
            raise SystemExit(f"{name}: marker words {sorted(bad)} in {e['q']!r}")
        try:
            ev = check(g, e)
        except ValueError as err:
            raise SystemExit(f"{name}: {e['q']!r}: {err}") from None
        out.append({
            "id": f"{name}-h{hashlib.sha1(e['q'].encode()).hexdigest()[:10]}", "repo": name,
            "family": e["family"], "question": e["q"], "as_of": e.get("as_of"),
            "expect": {"value": None if e.get("absent") else e["value"], "subject": e.get("subject"),
                       "path": e["path"], "kinds": e["kinds"]},
            "absent": bool(e.get("absent")), "stale_values": e.get("stale", []), "evidence": ev,
            "split": P.split_of(name), "source": "hand"})
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bundles", default=os.environ.get("REPOMEM_REALREPOS")
                    or str(ROOT.parent / "shared" / "realrepos"))
    ap.add_argument("--out", default=str(ROOT / "bench" / "realrepos" / "hand"))
    ap.add_argument("--repo", action="append", default=[])
    ap.add_argument("--work", default=None, help="reuse clones in this folder")
    a = ap.parse_args(argv)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    names = a.repo or sorted(p.stem for p in (HERE / "hand").glob("*.json"))
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(a.work) if a.work else Path(tmp)
        for name in names:
            dest = work / name
            if not (dest / ".git").exists():
                subprocess.run(["git", "clone", "-q", str(Path(a.bundles) / f"{name}.bundle"),
                                str(dest)], check=True, env=ENV)
            g = GitRepo(dest)
            try:
                recs = records(name, g, json.loads((HERE / "hand" / f"{name}.json").read_text()))
            finally:
                g.close()
            (out / f"{name}.json").write_text(json.dumps(recs, indent=1, ensure_ascii=False) + "\n")
            print(f"{name}: {len(recs)} hand-written questions checked with git", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
