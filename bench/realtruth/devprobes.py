"""Further questions on the training repositories for tuning, never part of the benchmark.

    python -m bench truth-devprobes --out DIR [--bundles DIR] [--repo NAME ...] [--asof N]
    python -m bench real --questions DIR --split train --misses

Three sources, all read from git by the truth scripts (nothing here imports repomem):

* ``pool``: candidates the generator's caps left out of ``bench/realrepos``;
* ``asof``: more as-of days (``asof_per_fact`` raised to N, default 12);
* ``reword``: each training question of the benchmark asked with the other templates of its
  family.

Only training repositories are probed (the split is by repository, phrasing.TRAINING); a
held-out repository is refused.  A question is kept only when it is no benchmark question and
its fact (family, subject, value, path) is not in ``held`` (kept for callers that pass one)."""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.realtruth import generate as G
from bench.realtruth import phrasing as P
from bench.realtruth.engine import build
from bench.realtruth.gitread import ENV, GitRepo
from bench.realtruth.repos import CONFIGS

HERE = Path(__file__).resolve().parent

FAMILIES = {"function": [P.FUNC], "renamed": [P.RENAMED, P.RENAMED_CLASS],
            "route": [P.ROUTE, P.ROUTE_PURPOSE],
            "dependency": [P.DEP_MAIN, P.DEP_OTHER_GROUP, P.DEP_EXAMPLE, P.DEP_EXTRA,
                           *P.DEP_GROUP.values()],
            "constant": [P.DUNDER, P.CONST, P.VERSION],
            "settings": [P.SETTING, P.SETTING_DEFAULT, P.DJANGO],
            "python": [P.PYREQ, P.CLASSIFIERS], "docker": list(P.DOCKER.values())}


def _fact(q: dict) -> tuple:
    e = q.get("expect", q)
    return q["family"], e.get("subject"), e.get("value"), e.get("path")


def _template(t: str) -> re.Pattern:
    out, seen = "", set()
    for part in re.split(r"(\{\w+\})", t):
        m = re.fullmatch(r"\{(\w+)\}", part)
        if m is None:
            out += re.escape(part)
        else:
            out += f"(?P={m.group(1)})" if m.group(1) in seen else f"(?P<{m.group(1)}>.+?)"
            seen.add(m.group(1))
    return re.compile(f"^{out}$")


def reword(bench: list[dict], held: set, texts: set) -> list[dict]:
    out = []
    for q in bench:
        if q["split"] != "train" or _fact(q) in held:
            continue
        m = re.match(r"^On (\d{4}-\d\d-\d\d)(?:, |: )(.*)$", q["question"])
        day, body = (m.group(1), m.group(2)) if m else (None, q["question"])
        for options in FAMILIES.get(q["family"], []):
            for t in options:
                found = _template(t).match(body) or _template(t).match(body[:1].upper() + body[1:])
                for other in options if found is not None else ():
                    assert found is not None
                    try:
                        text = other.format(**found.groupdict())
                    except KeyError:
                        continue
                    text = P.asof_wording(text, day) if day else text
                    if text in texts or P.markers(text):
                        continue
                    texts.add(text)
                    out.append(dict(copy.deepcopy(q), question=text,
                                    id=f"{q['repo']}-rw-{hashlib.sha1(text.encode()).hexdigest()[:10]}"))
    return out


def generated(g: GitRepo, name: str, asof: int | None, held: set, texts: set) -> list[dict]:
    cfg = CONFIGS[name]()
    if asof:
        cfg.asof_per_fact = asof
    raw = [q for q in build(g, cfg) if not asof or q["as_of"]]
    pool = [q for q in raw if q["question"] not in texts
            and (q["family"], q.get("subject"), q["value"], q["path"]) not in held]
    G.CAPS = {k: 60 for k in G.CAPS}
    return G.records(name, pool)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bundles", default=str(HERE.parent.parent.parent / "shared" / "realrepos"))
    ap.add_argument("--out", required=True)
    ap.add_argument("--repo", action="append", default=[])
    ap.add_argument("--asof", type=int, default=12)
    a = ap.parse_args(argv)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for name in a.repo or [n for n in CONFIGS if n in P.TRAINING]:
            if name not in P.TRAINING:
                print(f"{name}: a held-out repository is never probed", file=sys.stderr)
                return 2
            bench = json.loads((HERE.parent / "realrepos" / f"{name}.json").read_text())
            held: set = set()
            texts = {q["question"] for q in bench}
            qs = reword(bench, held, texts)
            subprocess.run(["git", "clone", "-q", str(Path(a.bundles) / f"{name}.bundle"),
                            f"{tmp}/{name}"], check=True, env=ENV)
            g = GitRepo(Path(tmp) / name)
            try:
                qs += generated(g, name, None, held, texts)
                texts |= {q["question"] for q in qs}
                qs += generated(g, name, a.asof, held, texts)
            finally:
                g.close()
            (out / f"{name}.json").write_text(json.dumps(qs, indent=1, ensure_ascii=False) + "\n")
            print(f"{name}: {len(qs)} training questions", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
