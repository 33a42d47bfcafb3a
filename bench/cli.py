"""Benchmark repomem: stale facts against RAG baselines, and ingestion/query performance.

  repomem bench                      the full suite (all scenarios x conditions) and a
                                     5,000-commit generated repository
  repomem bench --quick              one scenario per family and a 400-commit repository (CI);
                                     exits 1 if repomem answers any question with a stale value
  repomem bench --repo PATH          also measure ingestion of a local repository
  repomem bench --json               machine-readable results
  repomem bench --real [PATH...]     the real-history benchmark (bench/realrepos questions over
                                     git bundles, a folder of them, or clones; default
                                     ../shared/realrepos): --quick, --split, --repo NAME,
                                     --misses, --fresh
  repomem bench --tasks [PATH...]    the task benchmark (bench/tasks prompts, repomem context
                                     at 250 and 400 tokens): --quick, --repo NAME, --misses

Run from a clone of repomem (the scenarios live in sample_repos/scenarios/).  Repositories,
stores and the chart are written under --out (default bench_out/).  Nothing is downloaded."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from repomem.core.termsafe import echo

HELP = "benchmark stale-fact errors against RAG baselines, and performance"


def argparse_suppress():
    import argparse

    return argparse.SUPPRESS


def add_arguments(p) -> None:
    p.add_argument("--quick", action="store_true",
                   help="the CI subset (under 2 minutes; no semantic embedder)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--out", default="bench_out", metavar="DIR", help="work folder (default bench_out)")
    p.add_argument("--repo", action="append", default=[], metavar="PATH",
                   help="also measure ingestion of this local repository (repeatable); with "
                        "--real: only the repository of this name (click, httpx, ...)")
    p.add_argument("--commits", type=int, default=None, metavar="N",
                   help="size of the generated repository (default 5000; 400 with --quick)")
    p.add_argument("--conditions", default=None, metavar="LIST",
                   help="comma-separated subset of the conditions")
    p.add_argument("--no-perf", action="store_true", help="skip the performance benchmark")
    p.add_argument("--no-stale", action="store_true", help="skip the stale-fact benchmark")
    p.add_argument("--no-semantic", action="store_true",
                   help="skip the semantic embedder even when its weights are installed")
    p.add_argument("--chart", default=None, metavar="PNG",
                   help="where to write the chart (default OUT/stale_error.png)")
    p.add_argument("--real", nargs="*", default=None, metavar="PATH",
                   help="the real-history benchmark over these bundles, bundle folders or clones "
                        "(default ../shared/realrepos); --repo then names repositories")
    p.add_argument("--tasks", nargs="*", default=None, metavar="PATH",
                   help="the task benchmark over these bundles, bundle folders or clones "
                        "(default ../shared/realrepos); --repo then names repositories")
    p.add_argument("--speed", nargs="*", default=None, metavar="PATH",
                   help="ingestion speed on real histories (bundles or clones; default click, "
                        "httpx and express from ../shared/realrepos): time against git log -p, "
                        "1 and 2 workers, peak RSS, bytes per version, a new commit, a profile")
    p.add_argument("--no-profile", action="store_true", help="with --speed: skip the profile")
    p.add_argument("real_paths", nargs="*", metavar="PATH", help=argparse_suppress())
    p.add_argument("--split", choices=["train", "held-out", "all"], default="all",
                   help="with --real: the training or the held-out repositories (default both)")
    p.add_argument("--questions", default=None, metavar="DIR",
                   help="with --real: the question files (default bench/realrepos)")
    p.add_argument("--misses", action="store_true",
                   help="with --real: list each miss (question, expected, top 3 returned)")
    p.add_argument("--embedder", default=None, metavar="SPEC",
                   help="with --real or --tasks: the embedder of the stores (default hash; "
                        "e.g. minilm-l6-v2-numpy, docs/embedders.md); each has its own cache")
    p.add_argument("--fresh", action="store_true",
                   help="with --real: ingest again even when a cached store matches")


def run_real(args) -> int:
    from repomem.bench import real, realreport

    sources = [Path(p) for p in args.real] or real.default_sources()
    qdir = Path(args.questions) if args.questions else real.QUESTIONS
    from repomem.bench import realstore

    present = [p for p in sources if p.exists()]
    if not present or not qdir.is_dir() or not realstore.discover(present):
        where = ", ".join(str(p) for p in sources) if qdir.is_dir() else str(qdir)
        print(f"repomem bench --real: skipped, no real histories (git bundles or clones) or "
              f"questions at {where}")
        return 0
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    res = real.run(present, qdir, split=args.split, repos=args.repo or None, quick=args.quick,
                   fresh=args.fresh, log=lambda m: print(m, file=sys.stderr, flush=True),
                   embedder=args.embedder)
    res["chart"] = realreport.chart(res, Path(args.chart) if args.chart else out / "real_bench.png")
    md = realreport.markdown(res, misses=args.misses)
    if args.json:
        json.dump(res, sys.stdout, indent=1, default=str)
        sys.stdout.write("\n")
    else:
        print(md, end="")
    (out / "real_report.md").write_text(md)
    (out / "real_report.json").write_text(json.dumps(res, indent=1, default=str))
    return 1 if res["stale_top1"] else 0


def run_speed(args) -> int:
    from repomem.bench import speed

    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    if not speed.sources(args.speed):
        print("repomem bench --speed: skipped, no real histories at ../shared/realrepos "
              "(pass bundles or clones, or set REPOMEM_REALREPOS)")
        return 0
    res = speed.run(args.speed, Path(args.out) / "speed", profile=not args.no_profile,
                    log=lambda m: print(m, file=sys.stderr, flush=True))
    if args.json:
        json.dump(res, sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        print(speed.markdown(res), end="")
    return 0


def run(args) -> int:
    from repomem.bench import perf, report, stale

    if args.real_paths and args.real is None:
        from repomem.core.errors import RepomemError

        raise RepomemError(f"unexpected argument {args.real_paths[0]!r}",
                           hint="paths belong to --real: repomem bench --real PATH...")
    if args.speed is not None:
        return run_speed(args)
    if args.tasks is not None:
        from repomem.bench import tasks

        os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
        return tasks.main(args)
    if args.real is not None:
        args.real = list(args.real) + list(args.real_paths)
        os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
        os.environ.setdefault("GIT_CONFIG_NOSYSTEM", "1")
        os.environ.setdefault("GIT_CONFIG_GLOBAL", os.devnull)
        return run_real(args)

    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    os.environ.setdefault("GIT_CONFIG_NOSYSTEM", "1")
    os.environ.setdefault("GIT_CONFIG_GLOBAL", os.devnull)
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)

    def log(msg: str) -> None:
        echo(msg, file=sys.stderr, flush=True)

    result: dict = {"quick": bool(args.quick)}
    md: list[str] = ["# repomem bench" + (" --quick" if args.quick else ""), ""]
    failed = False
    if not args.no_stale:
        conds = args.conditions.split(",") if args.conditions else None
        res = stale.run(out / "stale", quick=args.quick, conditions=conds, log=log)
        result["stale"] = res
        md += ["## Stale-fact benchmark", "", report.stale_tables(res), ""]
        runs = [res]
        if not (args.no_semantic or args.quick):
            from repomem.bench import minilm

            if minilm.available():
                log("semantic embedder found: running the in-order and many-versions "
                    "conditions with it")
                # resolved by name through the repomem.embedders entry point (pyproject.toml)
                sem = stale.run(out / "stale-minilm", quick=args.quick,
                                conditions=["in-order", "many-versions"],
                                embedder=minilm.NAME, log=log)
                result["stale_semantic"] = sem
                runs.append(sem)
                md += [f"### The same with `{sem['embedder']}`", "", report.stale_tables(sem), ""]
            else:
                md += [f"(semantic embedder: {minilm.why_not()})", ""]
        md += ["### Retrieval per embedder (in-order)", "", report.retrieval_table(runs), ""]
        chart = report.chart(res, Path(args.chart) if args.chart else out / "stale_error.png")
        result["chart"] = chart
        md.append(f"Chart: {chart}" if chart else
                  "Chart: not written (matplotlib missing: pip install 'repomem[bench]')")
        md.append("")
        bad = [r for r in res["rows"] if r["system"] == "repomem" and r["stale"]]
        if bad:
            failed = True
            md.append("**repomem served a superseded value:**")
            md += [f"- {r['condition']} / {r['scenario']}: {r['question']} -> {r['got']!r} "
                   f"(expected {r['expected']!r})" for r in bad]
            md.append("")
        wrong = [r for r in res["rows"] if r["system"] == "repomem" and not r["stale"]
                 and (not r["correct"] or not all(r["asof"]))]
        if wrong:
            md.append("repomem wrong (not stale) answers:")
            md += [f"- {r['condition']} / {r['scenario']}: {r['question']} -> {r['got']!r} "
                   f"(expected {r['expected']!r}; as-of {r['asof']})" for r in wrong]
            md.append("")
    if not args.no_perf:
        n = args.commits or (400 if args.quick else 5000)
        gen = out / "perf" / f"generated-{n}"
        log(f"generating a {n}-commit repository with git fast-import...")
        secs = perf.generate(gen, n)
        perfs = [perf.measure(gen, out / "perf", "generated", log=log,
                              asks=20 if args.quick else 40, cold=3 if args.quick else 5)]
        perfs[0]["generate_s"] = round(secs, 1)
        for i, path in enumerate(args.repo):
            perfs.append(perf.measure(Path(path), out / "perf", Path(path).resolve().name or
                                      f"repo{i}", log=log, incremental=0))
        result["perf"] = perfs
        md += ["## Performance", "", report.perf_table(perfs), ""]
        miss = report.misses(perfs)
        md += (["Targets missed:"] + [f"- {m}" for m in miss] if miss else ["All targets met."])
        md.append("")
    if args.json:
        json.dump(result, sys.stdout, indent=1, default=str)
        sys.stdout.write("\n")
    else:
        echo("\n".join(md), keep="\n")
    (out / "report.md").write_text("\n".join(md))
    (out / "report.json").write_text(json.dumps(result, indent=1, default=str))
    return 1 if failed else 0
