"""Ingestion speed on real histories: `python -m bench speed [PATH...]`.

For each repository (a git bundle, cloned into the work folder, or a clone), in one run: the time
of ``git log -p --first-parent`` (the floor of reading every diff, best of 3), a full ingest into
a fresh store with 1 and with 2 mining workers (wall time, peak RSS of the largest process),
their ratio, the store's size per fact version, the time from a new commit to its facts being
answerable (``repomem ingest``, what the hooks' worker runs, over a few commits; and the same
with the hooks installed and ``repomem daemon`` running) and a short profile of one
single-worker ingest (cProfile) saying where the remaining time goes.
"""

from __future__ import annotations

import os
import pstats
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.perf import _du, _timed_child, compiled_env
from repomem.service.samples import git_env

DEFAULT = ("click", "httpx", "express")
# Where the time goes: (label, function names whose cumulative time it is).  Nested entries
# (parse inside mining) are shown under their parent, as a share of the whole ingest.
_PROFILE = [
    ("mining (git blobs + miners)", ["mine"], "repomem/miners/mining.py"),
    ("  tree-sitter parse", ["parse"], "tree_sitter.Parser"),
    ("  tree-sitter query matches", ["matches"], "tree_sitter.QueryCursor"),
    ("  waiting for blobs (git cat-file reads ahead)", ["take"], "repomem/miners/mining.py"),
    ("  secret redaction", ["redact_blob"], "repomem/core/secrets.py"),
    ("  function fingerprints", ["_fingerprint"], "repomem/miners/"),
    ("  move matching", ["match_moves"], "repomem/core/identity.py"),
    ("commit records -> store", ["put_records"], "repomem/storage/store.py"),
    ("fold (ledger)", ["fold", "apply"], "repomem/core/ledger.py"),
    ("view -> Chroma (embed + write)", ["sync_versions", "put_versions"],
     "repomem/storage/store.py"),
    ("  hash embedder", ["embed"], "repomem/adapters/embed.py"),
    ("snapshot", ["_write_snapshot"], "repomem/service/view.py"),
]


def sources(paths: list[str]) -> list[Path]:
    """The given bundles or clones; by default click, httpx and express from the real-history
    benchmark's folder (``$REPOMEM_REALREPOS``, else ``../shared/realrepos`` beside the project)."""
    if paths:
        return [Path(p) for p in paths]
    from bench.real import default_sources

    bases = [p for p in default_sources()] + [Path("../shared/realrepos")]
    base = next((b for b in bases if b.is_dir()), None)
    if base is None:
        return []
    return [base / f"{n}.bundle" for n in DEFAULT if (base / f"{n}.bundle").exists()]


def _clone(src: Path, work: Path) -> Path:
    if src.is_dir():
        return src.resolve()
    dest = work / "clones" / src.name.removesuffix(".bundle")
    if not dest.exists():
        dest.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "clone", "-q", str(src), str(dest)], check=True)
    return dest


def _profile(repo: Path, store: Path, env: dict, out: Path) -> tuple[float, list[tuple[str, float]]]:
    shutil.rmtree(store, ignore_errors=True)
    prof = out / f"{repo.name}.prof"
    _timed_child([sys.executable, "-m", "cProfile", "-o", str(prof), "-m", "repomem", "ingest",
                  "--all", "-q", "--repo", str(repo), "--store", str(store)],
                 dict(env, REPOMEM_WORKERS="1"))
    st = pstats.Stats(str(prof))
    total = st.total_tt  # type: ignore[attr-defined]  # set by Stats(); typeshed omits it
    rows = []
    for label, names, where in _PROFILE:
        cum = 0.0
        for (fname, _, func), (_, _, _, ct, _) in st.stats.items():  # type: ignore[attr-defined]  # as above
            if func in names and where.split("/")[-1].split(".")[0] in fname + func:
                cum += ct
            elif func.startswith("<method") and f"'{names[0]}'" in func and where in func:
                cum += ct
        rows.append((label, cum))
    shutil.rmtree(store, ignore_errors=True)
    return total, rows


def _timed(cmd: list[str], env: dict) -> tuple[float, int, float]:
    """(wall seconds, peak RSS in MB of the largest process, CPU seconds (user + sys) of the
    child and its mining workers): on a shared machine the CPU time is the steadier figure."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status):
        err = p.stderr.read().decode(errors="replace") if p.stderr else ""
        raise RuntimeError(f"{' '.join(cmd[:4])}... failed: {err[-800:]}")
    return wall, ru.ru_maxrss // 1024, ru.ru_utime + ru.ru_stime


# A function appended to a source file, so the commit opens a new fact version.
_NEW_FUNCTION = {".py": "\n\ndef bench_helper_{i}(x):\n    return x + {i}\n",
                 ".js": "\nfunction benchHelper{i}(x) {{\n  return x + {i};\n}}\n"}


def _source_file(tracked: list[str]) -> str | None:
    """A source file of the project itself (not a test, an example or docs), for code commits."""
    skip = ("test", "example", "doc", "bench", "script")
    for p in tracked:
        if p.endswith(tuple(_NEW_FUNCTION)) and not any(w in p.lower() for w in skip):
            return p
    return None


def _hook_latency(repo: Path, store: Path, env: dict, n: int,
                  code: bool = False) -> tuple[list[float], list[float]]:
    """After each of n small commits (one edited file: the README, or with CODE a source file
    that gains a function), run ``repomem ingest`` (what the post-commit hook's worker runs)
    and time (a) until the commit is answerable: the current-view snapshot, which a fresh
    ``ask`` answers from, is written for the new HEAD; (b) until the ingest process has also
    written the store of record and exited.  A README commit changes no fact (the snapshot is
    restamped); a code commit opens a version (the snapshot is patched and re-indexed)."""
    from repomem.service import viewcache

    genv = dict(env, **git_env())
    tracked = subprocess.run(["git", "-C", str(repo), "ls-files"], capture_output=True, text=True,
                             check=True).stdout.splitlines()
    target = next((p for p in tracked if p.lower().startswith("readme")), tracked[0])
    source = _source_file(tracked) if code else None
    if code and source is None:
        return [], []
    answerable, full = [], []
    for i in range(n):
        with open(repo / (source or target), "a") as fh:
            fh.write(_NEW_FUNCTION[Path(source).suffix].format(i=i) if source
                     else f"\nbench line {i}\n")
        subprocess.run(["git", "-C", str(repo), "commit", "-q", "-a", "-m", f"bench {i}"],
                       env=genv, check=True, capture_output=True)
        sha = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True,
                             text=True, check=True).stdout.strip()
        t0 = time.perf_counter()
        # `ingest` with no revision is what the hooks' worker runs (index.ingest with the whole
        # first-parent chain): it patches the snapshot forward before importing chromadb.
        p = subprocess.Popen([sys.executable, "-m", "repomem", "ingest", "-q", "--repo",
                              str(repo), "--store", str(store)], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        seen = None
        while p.poll() is None and seen is None:
            if _answers(viewcache.state(store), sha):
                seen = time.perf_counter() - t0
            time.sleep(0.005)
        p.wait()
        full.append(time.perf_counter() - t0)
        answerable.append(seen if seen is not None else full[-1])
    subprocess.run(["git", "-C", str(repo), "reset", "-q", "--hard", f"HEAD~{n}"], env=genv,
                   check=True)
    # the view back on the repository's HEAD (untimed): else the next measured commit would
    # time a whole refold after this reset, not one commit
    subprocess.run([sys.executable, "-m", "repomem", "ingest", "-q", "--repo", str(repo),
                    "--store", str(store)], env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return answerable, full


def _answers(state: dict, sha: str) -> bool:
    """Whether a snapshot's state is the view of SHA with all its commits (one that landed while
    the previous commit was indexed is named, but not in the view yet)."""
    return state.get("head") == sha and not state.get("missing")


def _daemon_latency(repo: Path, store: Path, env: dict, n: int) -> list[float]:
    """The same code commits as ``_hook_latency``, with the hooks installed and ``repomem
    daemon`` running, as a user who keeps it running has them: each timed from ``git commit``
    (its post-commit hook included) until the snapshot is written for the new HEAD by the
    daemon's warm process.  The next commit waits for the daemon's full ingest to finish."""
    genv = dict(env, **git_env())
    tracked = subprocess.run(["git", "-C", str(repo), "ls-files"], capture_output=True, text=True,
                             check=True).stdout.splitlines()
    source = _source_file(tracked)
    if source is None:
        return []
    from repomem.service import viewcache

    rm = [sys.executable, "-m", "repomem"]
    where = ["--repo", str(repo), "--store", str(store)]
    subprocess.run(rm + ["hooks", "install", *where], env=env, check=True, capture_output=True)
    subprocess.run(rm + ["daemon", "start", *where], env=env, check=True, capture_output=True)
    out: list[float] = []
    try:
        for i in range(n):
            with open(repo / source, "a") as fh:
                fh.write(_NEW_FUNCTION[Path(source).suffix].format(i=1000 + i))
            t0 = time.perf_counter()
            subprocess.run(["git", "-C", str(repo), "commit", "-q", "-a", "-m", f"daemon {i}"],
                           env=genv, check=True, capture_output=True)
            sha = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"],
                                 capture_output=True, text=True, check=True).stdout.strip()
            deadline = t0 + 60
            while not _answers(viewcache.state(store), sha):
                if time.perf_counter() > deadline:
                    raise RuntimeError(f"the daemon did not index {sha[:10]} in 60 s: see "
                                       f"{store / 'daemon.log'}")
                time.sleep(0.005)
            out.append(time.perf_counter() - t0)
            # the daemon's full ingest of this commit, untimed: a user's next commit comes later.
            # (Not worker.idle: its probe takes the worker lock, and a daemon batch that finds
            # the lock taken leaves the request to the lock's holder.)
            while viewcache.state(store).get("provisional") and time.perf_counter() < deadline:
                time.sleep(0.05)
            time.sleep(0.5)
    finally:
        subprocess.run(rm + ["daemon", "stop", *where], env=env, capture_output=True)
        subprocess.run(rm + ["hooks", "uninstall", *where], env=env, capture_output=True)
    subprocess.run(["git", "-C", str(repo), "reset", "-q", "--hard", f"HEAD~{n}"], env=genv,
                   check=True)
    subprocess.run(rm + ["ingest", "-q", *where], env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return out


def _p95(xs: list[float]) -> float:
    xs = sorted(xs)
    return round(xs[min(len(xs) - 1, round(0.95 * (len(xs) - 1)))], 3)


def measure(src: Path, work: Path, workers=(1, 2), profile: bool = True, hook: int = 10,
            log=lambda s: None) -> dict:
    from repomem.service.repo import Repo

    repo = _clone(src, work)
    env = compiled_env(dict(os.environ, ANONYMIZED_TELEMETRY="False"))
    n = int(subprocess.run(["git", "-C", str(repo), "rev-list", "--first-parent", "--count", "HEAD"],
                           capture_output=True, text=True, check=True).stdout)
    git_log = min(_timed_child(["git", "-C", str(repo), "log", "-p", "--first-parent", "--no-color",
                                "HEAD"], env)[0] for _ in range(3))
    res: dict[str, Any] = {"repo": repo.name, "commits": n, "git_log_s": round(git_log, 3), "runs": []}
    log(f"{repo.name}: {n} commits, git log -p --first-parent {git_log:.2f}s")
    store = work / f"store-{repo.name}"
    for w in workers:
        shutil.rmtree(store, ignore_errors=True)
        wall, rss, cpu = _timed([sys.executable, "-m", "repomem", "ingest", "--all", "-q",
                                 "--repo", str(repo), "--store", str(store)],
                                dict(env, REPOMEM_WORKERS=str(w)))
        r = Repo.open(repo, store)
        with r.store.reader():
            versions = r.store.count_versions()
        r.store.close()
        run = {"workers": w, "ingest_s": round(wall, 2), "cpu_s": round(cpu, 2),
               "ratio": round(wall / max(git_log, 1e-6), 1),
               "peak_rss_mb": rss, "versions": versions,
               "bytes_per_version": round(_du(store) / max(versions, 1))}
        res["runs"].append(run)
        log(f"{repo.name}: {w} worker(s): {wall:.1f}s ({run['ratio']}x git log), CPU {cpu:.1f}s, "
            f"{rss} MB")
    if hook and res["runs"]:
        answerable, full = _hook_latency(repo, store, env, hook)
        res["hook_p50_s"], res["hook_p95_s"] = round(statistics.median(answerable), 3), _p95(answerable)
        res["hook_full_p50_s"], res["hook_full_p95_s"] = round(statistics.median(full), 3), _p95(full)
        answerable, full = _hook_latency(repo, store, env, hook, code=True)
        if answerable:
            res["code_p50_s"], res["code_p95_s"] = (round(statistics.median(answerable), 3),
                                                    _p95(answerable))
            res["code_full_p50_s"], res["code_full_p95_s"] = (round(statistics.median(full), 3),
                                                              _p95(full))
        warm = _daemon_latency(repo, store, env, hook)
        if warm:
            res["daemon_p50_s"], res["daemon_p95_s"] = round(statistics.median(warm), 3), _p95(warm)
    shutil.rmtree(store, ignore_errors=True)
    if profile:
        total, rows = _profile(repo, store, env, work)
        res["profile"] = {"total_s": round(total, 1),
                          "parts": [(label, round(s, 1), round(100 * s / total)) for label, s in rows]}
    return res


def markdown(results: list[dict]) -> str:
    lines = ["| repo | commits | git log -p | workers | ingest | CPU | ratio | peak RSS | "
             "bytes / version | new commit answerable p50 / p95 | its full ingest p50 / p95 |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        for run in r["runs"]:
            hook = (f"{r['hook_p50_s']} s / {r['hook_p95_s']} s | {r['hook_full_p50_s']} s / "
                    f"{r['hook_full_p95_s']} s" if "hook_p50_s" in r and run is r["runs"][0]
                    else " |")
            lines.append(f"| {r['repo']} | {r['commits']} | {r['git_log_s']} s | {run['workers']} | "
                         f"{run['ingest_s']} s | {run.get('cpu_s', '')} s | {run['ratio']}x | "
                         f"{run['peak_rss_mb']} MB | "
                         f"{run['bytes_per_version']} | {hook} |")
    if any("code_p50_s" in r for r in results):
        lines += ["", "A new commit that adds a function to a source file (it opens a fact version):",
                  "", "| repo | answerable p50 / p95 | its full ingest p50 / p95 |", "|---|---:|---:|"]
        lines += [f"| {r['repo']} | {r['code_p50_s']} s / {r['code_p95_s']} s | "
                  f"{r['code_full_p50_s']} s / {r['code_full_p95_s']} s |"
                  for r in results if "code_p50_s" in r]
    if any("daemon_p50_s" in r for r in results):
        lines += ["", "The same commits with the hooks installed and `repomem daemon` running (from "
                  "`git commit` until the daemon's warm process has written the snapshot):", "",
                  "| repo | answerable p50 / p95 |", "|---|---:|"]
        lines += [f"| {r['repo']} | {r['daemon_p50_s']} s / {r['daemon_p95_s']} s |"
                  for r in results if "daemon_p50_s" in r]
    for r in results:
        if "profile" in r:
            p = r["profile"]
            lines += ["", f"Profile of one single-worker ingest of {r['repo']} under cProfile "
                          f"({p['total_s']} s with the profiler's overhead):", ""]
            lines += [f"- {label.strip()}{' (within the above)' if label.startswith('  ') else ''}: "
                      f"{s} s ({pct}%)" for label, s, pct in p["parts"]]
    return "\n".join(lines) + "\n"


def run(paths: list[str], work: Path, profile: bool = True, log=lambda s: None) -> list[dict]:
    work.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    out = [measure(s, work.resolve(), profile=profile, log=log) for s in sources(paths)]
    log(f"speed bench done in {time.time() - t0:.0f}s")
    return out
