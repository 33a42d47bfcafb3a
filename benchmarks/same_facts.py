"""The speed work alone changes no fact: compare two stores of one repository's history.

For 20 dates spread evenly over the first-parent history, ``facts --json`` (as of the date)
must be identical in both stores, and ``history --json`` of every key either store ever had
must be too.  Transaction times (when a commit was ingested) differ between two runs by
design and are not compared (``tx`` is off).

A store is built when missing, by the repomem package found in CODE_DIR (for the "before"
side: an export of main, ``git archive main | tar -x -C DIR``):

  python benchmarks/same_facts.py REPO OLD_STORE NEW_STORE [--old-code DIR] [--new-code DIR]

Prints one line per check and a final "identical" or "DIFFERENT"; exit 1 when different.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
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


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("repo")
    p.add_argument("old_store")
    p.add_argument("new_store")
    p.add_argument("--old-code", default=None)
    p.add_argument("--new-code", default=None)
    a = p.parse_args()
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
