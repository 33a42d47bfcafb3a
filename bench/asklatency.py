"""Ask latency of the real-history benchmark: warm in-process ``ask`` on the largest training
histories, on a generated store of 100k current fact versions, and cold CLI ``repomem ask`` per
question family.

- **Warm**: ``repomem.service.query.ask`` in this process after one warm-up question, each
  current question of the history once, in a fixed shuffled order (the first time a process
  sees a question: no answer is cached per question).  Wall time, and the CPU time of the
  asking thread: on a shared machine the wall time is mostly waiting for a core.
- **Generated store of 100k fact versions**: a real history's snapshot (its current rows, their
  embeddings and the removed list) copied into services (``services/<name><i>/`` before each
  path and key, values and names kept: a monorepo whose services share their code's names),
  each copy's embedding moved by a little noise, and written by the snapshot writer
  (``viewcache.write``, which builds the lexical index).  Two shapes: *history-shaped*, as many
  copies as make 100k versions at the history's own share of current versions (httpx: 1,475
  current of 8.3k, so 12 copies, 17.7k current rows; the closed versions are what an as-of
  question reads from the store of record, not the snapshot), and *all current* (100k current
  rows: the worst case for the snapshot path, which ranks every current row).  The history's
  own questions are asked over it.
- **Cold**: a fresh ``python -m repomem ask`` process per question, from bytecode, for the
  first current questions of each family, with no warm answerer (``REPOMEM_ANSWERER=0``); the
  p50 and p95 of each family, wall and CPU.  Only the snapshot is read (the command would
  import chromadb otherwise: ``chromadb_imported`` says whether it did).
- **CLI through the warm answerer**: the same processes while the store's answerer runs
  (repomem/integrations/answerer.py, as the watcher or the agent hook keeps one): the command
  prints the answerer's answer; ``answered`` counts the asks it answered (the others it
  declined, and the command answered them itself).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_SERVICES = ("billing", "orders", "catalog", "accounts", "search", "shipping", "payments",
             "notify", "media", "pricing", "audit", "loyalty", "reports", "geo", "auth", "cart")


def _p(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def current_questions(qs: list[dict]) -> list[dict]:
    return [q for q in qs if not q["as_of"]]


def warm(r, qs: list[dict], k: int = 5, seed: int = 3) -> dict:
    """p50 / p95 milliseconds of warm asks, each current question once."""
    from repomem.service.query import ask

    cur = [q["question"] for q in current_questions(qs)]
    random.Random(seed).shuffle(cur)
    ask(r, "which port does the server listen on?", k=k)  # loads the snapshot, the embedder
    lat, cpu = [], []
    for question in cur:
        t, c = time.perf_counter(), time.thread_time()
        ask(r, question, k=k)
        lat.append((time.perf_counter() - t) * 1000)
        cpu.append((time.thread_time() - c) * 1000)
    return {"asks": len(lat), "p50_ms": round(statistics.median(lat), 2),
            "p95_ms": round(_p(lat, 0.95), 2), "max_ms": round(max(lat), 1),
            "cpu_p50_ms": round(statistics.median(cpu), 2), "cpu_p95_ms": round(_p(cpu, 0.95), 2)}


def generate(source_store: Path, dest: Path, versions: int = 100_000, seed: int = 11) -> dict:
    """DEST: a copy of SOURCE_STORE whose snapshot holds VERSIONS current rows, the source's
    and copies of them (see the module docstring).  Returns {"rows", "copies", "seconds"}."""
    import numpy as np

    from repomem.service import viewcache

    t0 = time.perf_counter()
    state, rows, emb, _ = viewcache.load_search(source_store)
    removed = viewcache.load_removed(source_store)
    shutil.rmtree(dest, ignore_errors=True)
    # (not a socket: the warm answerer of another bench run on the same store)
    shutil.copytree(source_store, dest, ignore=shutil.ignore_patterns("lock", "*.tmp", "*.sock"))
    rng = np.random.default_rng(seed)
    out_rows, out_emb = list(rows), [np.asarray(emb, dtype=np.float32)]
    copy = 0
    while len(out_rows) < versions:
        copy += 1
        name = f"{_SERVICES[copy % len(_SERVICES)]}{copy}"
        take = rows[:versions - len(out_rows)]
        for row in take:
            path = row.get("path") or ""
            new = f"services/{name}/{path}" if path else path
            key = row["key"].replace(path, new) if path and path in row["key"] else \
                f"{row['key']}@{name}"
            out_rows.append(dict(row, path=new, key=key, id=f"{row.get('id', '')}-{name}",
                                 subject=row.get("subject", "").replace(path, new) if path
                                 else row.get("subject", "")))
        noisy = np.asarray(emb[:len(take)], dtype=np.float32) + \
            rng.normal(0, 0.02, (len(take), emb.shape[1])).astype(np.float32)
        noisy /= np.maximum(np.linalg.norm(noisy, axis=1, keepdims=True), 1e-9)
        out_emb.append(noisy)
    viewcache.write(dest, state, out_rows, np.concatenate(out_emb), removed=removed)
    return {"rows": len(out_rows), "copies": copy + 1,
            "seconds": round(time.perf_counter() - t0, 1)}


def _families(qs: list[dict], per: int) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for q in current_questions(qs):
        fam = out.setdefault(q["family"], [])
        if len(fam) < per:
            fam.append(q["question"])
    return out


# The command as `repomem ask` runs it, and what it imported: said on stderr as the process
# ends, by either way out (a cold ask ends with os._exit: repomem.cli._exit_now).
_PROBE = ("import os, sys, runpy; sys.argv = ['repomem'] + sys.argv[1:]\n"
          "def said():\n"
          "    sys.stderr.write('\\nCHROMADB=%d\\n' % ('chromadb' in sys.modules))\n"
          "    sys.stderr.flush()\n"
          "def _exit(code, _real=os._exit):\n    said()\n    _real(code)\n"
          "os._exit = _exit\n"
          "try:\n    runpy.run_module('repomem', run_name='__main__')\n"
          "except SystemExit as e:\n    code = e.code\nelse:\n    code = 0\n"
          "said()\n"
          "sys.exit(code)\n")


def cold(work: Path, store: Path, qs: list[dict], per: int = 3, runs: int = 1,
         through_answerer: bool = False) -> dict:
    """{family: {"p50_s", "p95_s", "cpu_p50_s", "cpu_p95_s", "runs", "chromadb_imported"}}:
    fresh CLI asks, RUNS of each of the first PER current questions of each family, from
    bytecode (as an installed package runs).  THROUGH_ANSWERER: with the store's warm answerer
    running (each family then also says how many asks it ``answered``)."""
    from bench.perf import compiled_env

    env = compiled_env(dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull,
                            ANONYMIZED_TELEMETRY="False",
                            REPOMEM_ANSWERER="1" if through_answerer else "0"))
    proc = _start_answerer(store, work, env) if through_answerer else None
    out = {}
    try:
        for family, questions in sorted(_families(qs, per).items()):
            times, cpus, chroma = [], [], False
            before = _served(store) if proc else 0
            for question in questions:
                for _ in range(runs):
                    wall, cpu, err = _child([sys.executable, "-c", _PROBE, "ask", question,
                                             "--repo", str(work), "--store", str(store)], env)
                    times.append(wall)
                    cpus.append(cpu)
                    chroma |= "CHROMADB=1" in err
            out[family] = {"p50_s": round(statistics.median(times), 3),
                           "p95_s": round(_p(times, 0.95), 3),
                           "cpu_p50_s": round(statistics.median(cpus), 3),
                           "cpu_p95_s": round(_p(cpus, 0.95), 3), "runs": len(times),
                           "chromadb_imported": chroma}
            if proc:
                out[family]["answered"] = _served(store) - before
    finally:
        if proc:
            proc.terminate()
            proc.wait(30)
    return out


def _start_answerer(store: Path, work: Path, env: dict) -> subprocess.Popen:
    """The store's warm answerer, as a hook starts it; returns once it answers."""
    from repomem.integrations import answerer

    proc = subprocess.Popen([sys.executable, "-m", "repomem.integrations.answerer", str(store),
                             str(work)], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while answerer.request(os.path.realpath(store), "status") is None:
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError(f"the answerer for {store} did not start")
        time.sleep(0.1)
    return proc


def _served(store: Path) -> int:
    from repomem.integrations import answerer

    got = answerer.request(os.path.realpath(store), "status")
    return int(got["served"]) if got else 0


def _child(argv: list[str], env: dict | None = None) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds (user + system), stderr) of a child process."""
    t = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    assert p.stderr is not None
    err = p.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{argv[0]} failed: {err[-300:]}")
    return wall, usage.ru_utime + usage.ru_stime, err


def import_floor(runs: int = 5) -> dict:
    """Wall and CPU seconds (p50) of a fresh interpreter alone, and with numpy imported: what
    no cold ask avoids."""
    res = {}
    for label, code in (("python", "pass"), ("python + numpy", "import numpy")):
        got = [_child([sys.executable, "-c", code]) for _ in range(runs)]
        res[label] = round(statistics.median(g[0] for g in got), 3)
        res[label + " cpu"] = round(statistics.median(g[1] for g in got), 3)
    return res


def measure(histories: dict[str, tuple], questions: dict[str, list[dict]], work: Path,
            generated_from: str | None, versions: int = 100_000, cold_per: int = 3,
            log=print) -> dict:
    """HISTORIES: {name: (Repo, work tree, store)} of the histories to time."""
    from repomem.service.repo import Repo

    res: dict = {"warm": {}, "cold": {}, "answerer": {}, "generated": [],
                 "floor": import_floor(), "load": [round(x, 1) for x in os.getloadavg()]}
    for name, (r, tree, store) in histories.items():
        _snapshot_current(r, store, log)
        log(f"{name}: timing warm asks")
        res["warm"][name] = dict(warm(r, questions[name]), rows=_rows(store))
        log(f"{name}: timing cold CLI asks per family")
        res["cold"][name] = cold(tree, store, questions[name], per=cold_per)
        log(f"{name}: timing CLI asks per family through the warm answerer")
        res["answerer"][name] = cold(tree, store, questions[name], per=cold_per,
                                     through_answerer=True)
    if generated_from and generated_from in histories:
        r, tree, store = histories[generated_from]
        with r.store.reader():
            have = r.store.count_versions()
        current = _rows(store)
        shapes = (("history-shaped", current * -(-versions // max(have, 1))),
                  ("all current", versions))
        for shape, rows in shapes:
            # a folder of this run's own: benches of other code or embedders may run beside it
            dest = Path(tempfile.mkdtemp(prefix=f"generated-{store.name}-{rows}-", dir=work))
            log(f"generating a store of {versions} fact versions from {generated_from} "
                f"({shape}: {rows} current)")
            gen = generate(store, dest, rows)
            g = Repo.open(tree, store=dest)
            try:
                res["generated"].append(dict(gen, source=generated_from, shape=shape,
                                             versions=versions, source_versions=have,
                                             **warm(g, questions[generated_from])))
            finally:
                g.store.close()
                shutil.rmtree(dest, ignore_errors=True)
    res["load"] += [round(x, 1) for x in os.getloadavg()]  # (1, 5, 15 min) at start and end
    return res


def _snapshot_current(r, store: Path, log) -> None:
    """Write the snapshot again when its ranking columns were computed by other code (the
    cached store outlives a change to ranking, which does not re-ingest it): what the next
    ``repomem ingest`` does for a user, so cold asks are timed as they run after it."""
    from repomem.service import viewcache
    from repomem.service.view import sync_view

    if not viewcache.exists(store, viewcache.state(store).get("head")):
        log(f"{store.name}: writing the snapshot again (it was written by other code)")
        sync_view(r)


def _rows(store: Path) -> int:
    from repomem.service import viewcache

    snap = viewcache.load_search(store)
    return len(snap[1]) if snap else 0


def markdown(res: dict) -> list[str]:
    out = ["## Ask latency", "",
           "Warm in-process `ask` (wall time; CPU time of the asking thread, the steadier figure "
           "on a shared machine):", "",
           "| history | current rows | asks | p50 | p95 | CPU p50 | CPU p95 | target |",
           "|---|---:|---:|---:|---:|---:|---:|---|"]
    for name, w in res["warm"].items():
        out.append(f"| {name} | {w['rows']} | {w['asks']} | {w['p50_ms']} ms | {w['p95_ms']} ms | "
                   f"{w['cpu_p50_ms']} ms | {w['cpu_p95_ms']} ms | p50 <= 5 ms, p95 <= 20 ms |")
    for g in res.get("generated") or ():
        out.append(f"| generated, {g['versions']} versions, {g['shape']} (from {g['source']}, "
                   f"{g['copies']} copies) | {g['rows']} | {g['asks']} | {g['p50_ms']} ms | "
                   f"{g['p95_ms']} ms | {g['cpu_p50_ms']} ms | {g['cpu_p95_ms']} ms | "
                   "p50 <= 20 ms |")
    f = res["floor"]
    load = res.get("load") or []
    out += ["", "Cold CLI `repomem ask` (a fresh process, from bytecode, no warm answerer), per "
            "question family, wall and CPU (user + system) seconds; target p50 <= 0.3 s.  A "
            f"fresh interpreter alone: {f['python']} s ({f['python cpu']} s CPU); with numpy "
            f"imported: {f['python + numpy']} s ({f['python + numpy cpu']} s CPU)."
            + (f"  Load average (1 min) at the start and the end: {load[0]}, {load[3]}."
               if len(load) >= 4 else ""), "",
            "| history | family | runs | p50 | p95 | CPU p50 | CPU p95 | chromadb imported |",
            "|---|---|---:|---:|---:|---:|---:|---|"]
    for name, fams in res["cold"].items():
        for fam, c in fams.items():
            out.append(f"| {name} | {fam} | {c['runs']} | {c['p50_s']} s | {c.get('p95_s', '-')} s "
                       f"| {c['cpu_p50_s']} s | {c.get('cpu_p95_s', '-')} s | "
                       f"{'yes' if c['chromadb_imported'] else 'no'} |")
    if res.get("answerer"):
        out += ["", "The same CLI asks while the store's warm answerer runs (the watcher's, or "
                "one an agent hook started): the command prints its answer, byte for byte its "
                "own; answered: the asks it answered (it declines what needs the store of "
                "record).", "",
                "| history | family | runs | answered | p50 | p95 | CPU p50 | CPU p95 |",
                "|---|---|---:|---:|---:|---:|---:|---:|"]
        for name, fams in res["answerer"].items():
            for fam, c in fams.items():
                out.append(f"| {name} | {fam} | {c['runs']} | {c.get('answered', '-')} | "
                           f"{c['p50_s']} s | {c['p95_s']} s | {c['cpu_p50_s']} s | "
                           f"{c['cpu_p95_s']} s |")
    return out + [""]


def dumps(res: dict) -> str:
    return json.dumps(res, indent=1)
