"""Fill in (or check) the values of the task benchmark's needed facts from git itself.

    .venv/bin/python -m bench tasks-derive CLONE_DIR bench/tasks/REPO.json [--check]

A needed fact with a ``pattern`` (a regular expression, multi-line, whose first group is the
value) is read from ``git show HEAD:path``: that is its ``value``.  Its ``stale`` values are the
other values the same pattern read from every earlier first-parent revision of the path (and of
``old_paths``, files the setting lived in before), newest first.  A fact without a pattern (a
function's or a class's name, a route) keeps the value written by hand after reading the file;
the script then only checks that the value occurs in the file at HEAD.  ``--check`` changes
nothing and exits 1 on any difference: the truth is git's, never repomem's.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from bench.realjudge import same_value


def git(repo: Path, *args: str) -> str | None:
    p = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True,
                       errors="replace")
    return p.stdout if p.returncode == 0 else None


def clean(v: str) -> str:
    return v.strip().strip("'\"`").strip()


def read(repo: Path, rev: str, path: str, pattern: str) -> str | None:
    text = git(repo, "show", f"{rev}:{path}")
    if text is None:
        return None
    m = re.search(pattern, text, re.M)
    return clean(m.group(1)) if m else None


def history(repo: Path, need: dict) -> tuple[str | None, list[str]]:
    value = read(repo, "HEAD", need["path"], need["pattern"])
    seen: list[str] = []
    # old_paths: where the fact lived before ({"path", "pattern"}, or a path read with the
    # fact's own pattern)
    places = [(need["path"], need["pattern"])] + [
        (o, need["pattern"]) if isinstance(o, str) else (o["path"], o["pattern"])
        for o in need.get("old_paths", [])]
    for path, pattern in places:
        revs = (git(repo, "log", "--first-parent", "--format=%H", "HEAD", "--", path) or "").split()
        for rev in revs:
            # the revision that deleted or moved the file has no blob: its parent's is read
            for r in (rev, rev + "^"):
                v = read(repo, r, path, pattern)
                if v is not None:
                    break
            kinds = need["kinds"]
            if v is not None and not same_value(v, value, kinds) \
                    and not any(same_value(v, s, kinds) for s in seen):
                seen.append(v)
    return value, seen


def main(argv: list[str]) -> int:
    repo, spec = Path(argv[0]), Path(argv[1])
    check = "--check" in argv
    data = json.loads(spec.read_text())
    head = (git(repo, "rev-parse", "HEAD") or "").strip()
    bad = 0
    if data.get("head") != head:
        print(f"{spec.name}: head {data.get('head')} != the clone's {head}")
        bad += 1
        data["head"] = head
    for p in data["prompts"]:
        for n in p["needs"]:
            where = f"{p['id']} {n['path']} {n['subject']}"
            if "pattern" in n:
                value, stale = history(repo, n)
                if value is None:
                    print(f"{where}: pattern reads nothing at HEAD")
                    bad += 1
                    continue
                if (n.get("value"), n.get("stale")) != (value, stale):
                    if check or n.get("value") not in (None, value):
                        print(f"{where}: {n.get('value')!r} {n.get('stale')} -> {value!r} {stale}")
                        bad += int(check)
                    n["value"], n["stale"] = value, stale
            else:
                text = git(repo, "show", f"HEAD:{n['path']}")
                if text is None or n["value"].split()[-1].split("/")[-1].strip("{}:<>") not in text:
                    print(f"{where}: {n['value']!r} not found in the file at HEAD")
                    bad += 1
                n.setdefault("stale", [])
    if not check:
        spec.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    return 1 if bad and check else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
