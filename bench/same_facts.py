"""The speed work alone changes no fact: compare two stores of one repository's history.

For 20 dates spread evenly over the first-parent history, ``facts --json`` (as of the date)
must be identical in both stores, and ``history --json`` of every key either store ever had
must be too.  Transaction times (when a commit was ingested) differ between two runs by
design and are not compared (``tx`` is off).

A store is built when missing, by the repomem package found in CODE_DIR (for the "before"
side: an export of main, ``git archive main | tar -x -C DIR``):

  python -m bench same-facts REPO OLD_STORE NEW_STORE [--old-code DIR] [--new-code DIR]

Prints one line per check and a final "identical" or "DIFFERENT"; exit 1 when different.

``--mined SUFFIX`` compares the miners instead of two stores, closer to the cause and much
cheaper: every version of every file ending in SUFFIX in the history (each distinct path and
blob) is mined by both packages, and every field of every fact (line, text, purpose, attrs and
fingerprint included) must be equal.  The difference is printed by kind (facts only one side
has), with a few examples; the two store paths are then unused:

  python -m bench same-facts REPO - - --mined .py --old-code DIR [--new-code DIR] [--at REV]

(``--at HEAD``: only the files of one commit's tree; with it the fact counts by kind of both
sides are those of that version.)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

DATES = 20


def build(repo: Path, store: Path, code: str | None) -> None:
    if store.exists():
        return
    env = dict(os.environ, PYTHONPATH=code) if code else dict(os.environ)
    subprocess.run([sys.executable, "-m", "repomem", "ingest", "--all", "-q", "--repo", str(repo),
                    "--store", str(store)], env=env, check=True)


def dump(repo: Path, store: Path, code: str | None, dates: list[str]) -> dict:
    """Every compared answer of one store, computed by the code that built it (a child process,
    so the two sides never share a module)."""
    prog = f"""
import json, sys
from repomem.service.repo import Repo
from repomem.service.view import ensure_view
from repomem.service.query import facts, history
r = Repo.open({str(repo)!r}, {str(store)!r})
ensure_view(r)
out = {{"facts": {{}}, "history": {{}}}}
keys = set()
with r.store.reader():
    for row in r.store.rows():
        keys.add(row["key"])
for d in {dates!r}:
    out["facts"][d] = facts(r, as_of=d)
for k in sorted(keys):
    out["history"][k] = history(r, k)
out["code"] = __import__("repomem").__path__[0]
json.dump(out, sys.stdout, sort_keys=True, default=str)
"""
    env = dict(os.environ, PYTHONPATH=code) if code else dict(os.environ)
    res = subprocess.run([sys.executable, "-c", prog], env=env, capture_output=True, text=True,
                         check=True)
    return json.loads(res.stdout)


def spread_dates(repo: Path) -> list[str]:
    out = subprocess.run(["git", "-C", str(repo), "log", "--first-parent", "--reverse",
                          "--format=%cI"], capture_output=True, text=True, check=True).stdout.split()
    step = max(1, len(out) // DATES)
    return [out[min(i * step + step - 1, len(out) - 1)] for i in range(DATES)]


# Mines each listed (path, blob) and writes one JSON line per blob: [path, blob, facts or error].
_MINE = """
import json, subprocess, sys
from repomem.miners import MineError, mine_file
repo, listing, out = sys.argv[1:4]
pairs = [ln.split("\\t", 1) for ln in open(listing).read().splitlines()]
cat = subprocess.Popen(["git", "-C", repo, "cat-file", "--batch"], stdin=subprocess.PIPE,
                       stdout=subprocess.PIPE)
with open(out, "w") as w:
    for blob, path in pairs:
        cat.stdin.write(blob.encode() + b"\\n"); cat.stdin.flush()
        size = int(cat.stdout.readline().split()[2])
        data = cat.stdout.read(size); cat.stdout.read(1)
        try:
            facts = [[f.key, f.kind, f.subject, f.value, f.path, f.line, f.text, f.purpose,
                      f.attrs, f.anchor, f.is_set, str(f.fingerprint)] for f in mine_file(path, data)]
        except MineError as e:
            facts = "MineError: " + str(e)
        w.write(json.dumps([path, blob, facts]) + "\\n")
"""


def versions(repo: Path, suffix: str, at: str | None = None) -> list[tuple[str, str]]:
    """Every distinct (blob, path) of a file ending in SUFFIX that any commit of the history
    added or changed; with AT, only the files of that commit's tree."""
    if at is not None:
        tree = subprocess.run(["git", "-C", str(repo), "ls-tree", "-r", "-z", at], capture_output=True,
                              text=True, check=True).stdout
        return sorted((meta.split()[2], path) for meta, _, path in
                      (e.partition("\t") for e in tree.split("\0") if e)
                      if path.endswith(suffix) and meta.split()[1] == "blob")
    out = subprocess.run(["git", "-C", str(repo), "log", "--all", "--format=", "--raw", "--no-abbrev",
                          "--no-renames", "-m"], capture_output=True, text=True, check=True).stdout
    seen: set[tuple[str, str]] = set()
    for line in out.splitlines():
        meta, _, path = line.partition("\t")
        parts = meta.split()
        if len(parts) >= 5 and path.endswith(suffix) and parts[3] != "0" * 40:
            seen.add((parts[3], path))
    return sorted(seen)


def _shape(fact: list) -> str:
    """A fact's kind and the names of its attrs that say its shape: ``config(class,expression)``."""
    names = [k for k, _ in fact[8] if k not in ("location", "signature", "bases", "calls", "catches",
                                                 "class", "handler", "path", "router", "name", "env")]
    names += ["class"] if ["class", "true"] in fact[8] else []
    return f"{fact[1]}({','.join(sorted(names))})" if names else fact[1]


def compare_mined(repo: Path, suffix: str, old_code: str | None, new_code: str | None,
                  at: str | None = None) -> bool:
    pairs = versions(repo, suffix, at)
    with tempfile.TemporaryDirectory() as tmp:
        listing = Path(tmp, "pairs")
        listing.write_text("".join(f"{b}\t{p}\n" for b, p in pairs))
        outs = []
        for side, code in (("old", old_code), ("new", new_code)):
            env = dict(os.environ, PYTHONPATH=code) if code else dict(os.environ)
            out = Path(tmp, side)
            subprocess.run([sys.executable, "-c", _MINE, str(repo), str(listing), str(out)], env=env,
                           check=True)
            outs.append(out)
        only: dict[str, Counter] = {"before": Counter(), "after": Counter()}
        kinds: dict[str, Counter] = {"before": Counter(), "after": Counter()}
        examples: list[str] = []
        n_facts = differ = 0
        with open(outs[0]) as a, open(outs[1]) as b:
            for la, lb in zip(a, b):
                got, other = json.loads(la)[2], json.loads(lb)[2]
                n_facts += len(got) if isinstance(got, list) else 0
                for side, fs in (("before", got), ("after", other)):
                    kinds[side].update(f[1] for f in fs if isinstance(fs, list))
                if la == lb:
                    continue
                differ += 1
                path, blob, fa = json.loads(la)
                fb = json.loads(lb)[2]
                if isinstance(fa, str) or isinstance(fb, str):
                    examples.append(f"{path} {blob[:10]}: {str(fa)[:80]} / {str(fb)[:80]}")
                    continue
                sa, sb = {json.dumps(f) for f in fa}, {json.dumps(f) for f in fb}
                for side, mine, other in (("before", sa, sb), ("after", sb, sa)):
                    for f in mine - other:
                        only[side][_shape(json.loads(f))] += 1
                        if len(examples) < 12:
                            examples.append(f"{side} only, {path}: {f[:300]}")
    print(f"{len(pairs)} versions of *{suffix} files ({n_facts} facts before); {differ} mined differently")
    for side in ("before", "after"):
        print(f"  facts by kind {side}: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds[side].items())))
    for side in ("before", "after"):
        print(f"  facts only {side}: " + (", ".join(f"{k} {n}" for k, n in sorted(only[side].items()))
                                           or "none"))
    for e in examples:
        print("  " + e)
    print("identical" if not differ else "DIFFERENT")
    return not differ


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("repo")
    p.add_argument("old_store")
    p.add_argument("new_store")
    p.add_argument("--old-code", default=None)
    p.add_argument("--new-code", default=None)
    p.add_argument("--mined", metavar="SUFFIX", default=None,
                   help="compare the miners over every version of the files ending in SUFFIX")
    p.add_argument("--at", metavar="REV", default=None,
                   help="with --mined: only the files of REV's tree (fact counts of one version)")
    a = p.parse_args()
    if a.mined:
        return 0 if compare_mined(Path(a.repo).resolve(), a.mined, a.old_code, a.new_code, a.at) else 1
    repo, old, new = Path(a.repo).resolve(), Path(a.old_store).resolve(), Path(a.new_store).resolve()
    build(repo, old, a.old_code)
    build(repo, new, a.new_code)
    dates = spread_dates(repo)
    before, after = dump(repo, old, a.old_code, dates), dump(repo, new, a.new_code, dates)
    print(f"code: before {before.pop('code')}, after {after.pop('code')}")
    same = True
    n_facts = sum(len(v.get("facts", [])) for v in before["facts"].values())
    for d in dates:
        ok = before["facts"][d] == after["facts"][d]
        same &= ok
        print(f"facts --as-of {d}: {len(before['facts'][d].get('facts', []))} facts, "
              f"{'identical' if ok else 'DIFFERENT'}")
    keys = sorted(set(before["history"]) | set(after["history"]))
    differ = [k for k in keys if before["history"].get(k) != after["history"].get(k)]
    same &= not differ
    print(f"history of {len(keys)} keys: {len(keys) - len(differ)} identical, {len(differ)} different"
          + (f" (first: {differ[0]})" if differ else ""))
    print(f"{n_facts} facts over {len(dates)} dates and {len(keys)} histories: "
          + ("identical" if same else "DIFFERENT"))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
