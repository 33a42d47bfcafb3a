"""Build a bundled sample repository, index it, and answer its questions with provenance.

Example: repomem demo              (the payments sample, in a fresh temporary folder)"""

from __future__ import annotations

import tempfile
from pathlib import Path

from repomem.core.termsafe import echo

HELP = "run repomem on a bundled sample repository"


def add_arguments(p) -> None:
    p.add_argument("--sample", default="payments",
                   help="a bundled sample's name (repomem/data/samples/), or a definition file")
    p.add_argument("--dest", default=None, metavar="DIR",
                   help="where to build it (default: a new temporary folder)")


def check(result: dict, exp: dict) -> bool:
    """The expected value comes first, and no superseded value of the same key is shown."""
    facts = result["facts"]
    if not facts or facts[0]["value"] != exp["answer"]:
        return False
    key = facts[0]["key"]
    stale = set(exp.get("never", []))
    return not any(f["key"] == key and f["value"] in stale for f in facts)


def run(args) -> int:
    from repomem.service import samples
    from repomem.service.ingest import ingest
    from repomem.service.query import ask
    from repomem.service.repo import Repo

    defn = samples.load(args.sample)
    dest = Path(args.dest or tempfile.mkdtemp(prefix=f"repomem-{args.sample}-"))
    if dest.exists() and any(dest.iterdir()):
        dest = dest / args.sample
    shas = samples.build(defn, dest)
    r = Repo.open(dest)
    stats = ingest(r, all_history=True, progress=False)
    echo(f"built {dest} ({len(shas)} commits); indexed {stats['versions']} fact versions")
    echo()
    failures = 0
    for exp in defn.EXPECTED:
        res = ask(r, exp["question"], exp.get("as_of"), k=5)
        ok = check(res, exp)
        failures += not ok
        f = res["facts"][0] if res["facts"] else None
        when = f" (as of {exp['as_of']})" if exp.get("as_of") else ""
        echo(f"[{'ok' if ok else 'MISMATCH'}] {exp['question']}{when}")
        if f:
            echo(f"    -> {f['value']}   {f['path']}:{f['line']}  commit {f['commit'][:10]}  "
                 f"valid from {f['valid_from'][:10]}")
        else:
            echo("    -> (no answer)")
        if not ok:
            echo(f"    expected {exp['answer']!r}")
    echo()
    echo(f"{len(defn.EXPECTED) - failures}/{len(defn.EXPECTED)} answers as expected; "
         f"try: repomem ask \"what port does production use?\" --repo {dest} --json")
    return 1 if failures else 0
