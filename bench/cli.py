"""``python -m bench COMMAND [ARGS]``: repomem's benchmarks, run from a checkout.

The benchmarks with a report (this module parses their arguments):

  stale [--quick]            the stale-fact suite against RAG baselines, and the performance run on a
                             generated repository (--quick: the CI subset; exits 1 when repomem
                             answers any question with a superseded value)
  real [PATH...] [--quick]   the real-history benchmark (bench/realrepos questions over git bundles,
                             a folder of them, or clones; default ../shared/realrepos); exits 1 on
                             any stale top-1 answer
  tasks [PATH...] [--quick]  the task benchmark (bench/tasks prompts, repomem context at the hook's
                             and the CLI's budgets)
  speed [PATH...]            ingestion speed on real histories against git log -p

Every other command runs a module as its own program, with its own arguments (``python -m bench
COMMAND --help``, or the module's docstring): a measurement script of this folder (``-`` for
``_``: ``python -m bench hook-latency`` runs bench/hook_latency.py; SCRIPTS), or a generator of
the truth data or the fitted weights (GENERATORS: ``truth-generate`` is
bench/realtruth/generate.py).

Run from the top of a checkout: ``bench`` is found there, not in the installed package, and the
scenarios (sample_repos/scenarios/) and the truth data (bench/realrepos, bench/tasks) are read by
path.  Repositories, stores and charts are written under --out (default bench_out/).  Nothing is
downloaded."""

from __future__ import annotations

import argparse
import ast
import json
import os
import runpy
import sys
from pathlib import Path

from repomem.core.errors import RepomemError
from repomem.core.termsafe import echo

HERE = Path(__file__).resolve().parent
PROG = "python -m bench"
# The scripts that measure one thing each: command -> module under bench/ (its docstring's first
# line is the summary --help prints).  The truth generators write the committed data.
SCRIPTS = {name.replace("_", "-"): f"bench.{name}" for name in (
    "first_answer", "tree_vs_history", "hook_latency", "hook_overhead", "freshness",
    "daemon_idle_cpu", "ask_cost", "concurrent_ask", "ingest_floor", "mining_cpu",
    "kinds_before_after", "same_facts", "rename_links", "hostile_files")}
GENERATORS = {"truth-generate": "bench.realtruth.generate", "truth-hand": "bench.realtruth.hand",
              "truth-devprobes": "bench.realtruth.devprobes", "tasks-derive": "bench.tasks.derive",
              "fit-ranker": "bench.fit_ranker"}
REPORTS = {
    "stale": "the stale-fact suite against RAG baselines, and the generated-repository performance run",
    "real": "the real-history benchmark: questions with a known answer over real git histories",
    "tasks": "the task benchmark: developer prompts and the context repomem gives for them",
    "speed": "ingestion speed on real histories against git log -p",
}


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--quick", action="store_true", help="the CI subset")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--out", default="bench_out", metavar="DIR", help="work folder (default bench_out)")


def _histories(p: argparse.ArgumentParser, dest: str, what: str) -> None:
    p.add_argument(dest, nargs="*", metavar="PATH",
                   help=f"{what} over these git bundles, bundle folders or clones (default "
                        "$REPOMEM_REALREPOS, else ../shared/realrepos beside the checkout)")


def _embedder(p: argparse.ArgumentParser) -> None:
    p.add_argument("--embedder", default=None, metavar="SPEC",
                   help="the embedder of the stores (default hash; e.g. minilm-l6-v2-numpy, "
                        "docs/embedders.md); each has its own cache")
    p.add_argument("--fresh", action="store_true", help="ingest again even when a cached store matches")


def parser(command: str) -> argparse.ArgumentParser:
    """The arguments of one report benchmark."""
    p = argparse.ArgumentParser(prog=f"{PROG} {command}", description=REPORTS[command])
    if command == "stale":
        _common(p)
        p.add_argument("--repo", action="append", default=[], metavar="PATH",
                       help="also measure ingestion of this local repository (repeatable)")
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
    elif command == "real":
        _histories(p, "real", "the real-history benchmark")
        _common(p)
        p.add_argument("--repo", action="append", default=[], metavar="NAME",
                       help="only the repository of this name (click, httpx, ...; repeatable)")
        p.add_argument("--split", choices=["train", "held-out", "all"], default="all",
                       help="the training or the held-out repositories (default both)")
        p.add_argument("--questions", default=None, metavar="DIR",
                       help="the question files (default bench/realrepos)")
        p.add_argument("--misses", action="store_true",
                       help="list each miss (question, expected, top 3 returned)")
        p.add_argument("--chart", default=None, metavar="PNG",
                       help="where to write the chart (default OUT/real_bench.png)")
        _embedder(p)
    elif command == "tasks":
        _histories(p, "tasks", "the task benchmark")
        _common(p)
        p.add_argument("--repo", action="append", default=[], metavar="NAME",
                       help="only the repository of this name (repeatable)")
        p.add_argument("--misses", action="store_true", help="list each needed fact not shown")
        _embedder(p)
    else:
        _histories(p, "speed", "ingestion speed (default: click, httpx and express)")
        p.add_argument("--json", action="store_true", help="machine-readable output")
        p.add_argument("--out", default="bench_out", metavar="DIR", help="work folder (default bench_out)")
        p.add_argument("--no-profile", action="store_true", help="skip the profile")
    return p


def summary(module: str) -> str:
    """The first line of a script's docstring, read without importing it (--help stays fast)."""
    path = HERE.parent.joinpath(*module.split(".")).with_suffix(".py")
    doc = ast.get_docstring(ast.parse(path.read_text())) or ""
    first = " ".join(doc.strip().split("\n\n")[0].split())  # the first paragraph, one line
    first = first.split(". ")[0].rstrip(".")
    return first if len(first) <= 90 else first[:first.rfind(" ", 0, 87)] + " ..."


def usage() -> str:
    lines = [f"usage: {PROG} COMMAND [ARGS]", "",
             "repomem's benchmarks, run from the top of a checkout (docs/benchmarks.md).", "",
             "benchmarks with a report:"]
    lines += [f"  {name:18s} {text}" for name, text in REPORTS.items()]
    lines += ["", "measurements:"]
    lines += [f"  {name:18s} {summary(mod)}" for name, mod in SCRIPTS.items()]
    lines += ["", "truth data and fitted weights:"]
    lines += [f"  {name:18s} {summary(mod)}" for name, mod in GENERATORS.items()]
    lines += ["", f"'{PROG} COMMAND --help' shows a command's arguments."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        sys.stdout.write(usage())
        return 0 if argv else 2
    command, rest = argv[0], argv[1:]
    try:
        if command in REPORTS:
            args = parser(command).parse_intermixed_args(rest)
            os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
            return {"stale": run_stale, "real": run_real, "tasks": run_tasks,
                    "speed": run_speed}[command](args)
        module = SCRIPTS.get(command) or GENERATORS.get(command)
        if module is None:
            raise RepomemError(f"no benchmark command {command!r}", hint=f"see '{PROG} --help'")
        return run_script(command, module, rest)
    except RepomemError as e:
        echo(f"bench: error: {e}", file=sys.stderr)
        if e.hint:
            echo(f"hint: {e.hint}", file=sys.stderr)
        return 1


def run_script(command: str, module: str, rest: list[str]) -> int:
    """The script as its own program would run: ``__main__``, its arguments in sys.argv (whose
    first item names the command, so that its usage line reads ``python -m bench COMMAND``)."""
    saved = sys.argv
    sys.argv = [f"{PROG} {command}", *rest]
    try:
        runpy.run_module(module, run_name="__main__")
    except SystemExit as e:
        if e.code is None or isinstance(e.code, int):
            return e.code or 0
        print(e.code, file=sys.stderr)
        return 1
    finally:
        sys.argv = saved
    return 0


def run_tasks(args) -> int:
    from bench import taskbench

    return taskbench.main(args)


def run_real(args) -> int:
    from bench import real, realreport

    os.environ.setdefault("GIT_CONFIG_NOSYSTEM", "1")
    os.environ.setdefault("GIT_CONFIG_GLOBAL", os.devnull)

    sources = [Path(p) for p in args.real] or real.default_sources()
    qdir = Path(args.questions) if args.questions else real.QUESTIONS
    from bench import realstore

    present = [p for p in sources if p.exists()]
    if not present or not qdir.is_dir() or not realstore.discover(present):
        where = ", ".join(str(p) for p in sources) if qdir.is_dir() else str(qdir)
        print(f"python -m bench real: skipped, no real histories (git bundles or clones) or "
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
    from bench import speed

    if not speed.sources(args.speed):
        print("python -m bench speed: skipped, no real histories at ../shared/realrepos "
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


def run_stale(args) -> int:
    from bench import perf, report, stale

    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    os.environ.setdefault("GIT_CONFIG_NOSYSTEM", "1")
    os.environ.setdefault("GIT_CONFIG_GLOBAL", os.devnull)
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)

    def log(msg: str) -> None:
        echo(msg, file=sys.stderr, flush=True)

    result: dict = {"quick": bool(args.quick)}
    md: list[str] = ["# python -m bench stale" + (" --quick" if args.quick else ""), ""]
    failed = False
    if not args.no_stale:
        conds = args.conditions.split(",") if args.conditions else None
        res = stale.run(out / "stale", quick=args.quick, conditions=conds, log=log)
        result["stale"] = res
        md += ["## Stale-fact benchmark", "", report.stale_tables(res), ""]
        runs = [res]
        if not (args.no_semantic or args.quick):
            from repomem.adapters import minilm

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
                  "Chart: not written (matplotlib missing: pip install -e '.[bench]')")
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
