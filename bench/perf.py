"""Performance: full-history ingestion against ``git log -p --first-parent``, incremental
ingestion of one commit, ``ask`` latency (warm, in-process; cold, a fresh CLI process), store size.

The repository is generated with ``git fast-import`` in seconds: a service of Python modules
(functions with docstrings, constants, routes), TOML/YAML/JSON/INI/.env settings, requirements and
a pyproject, where every commit edits one to three files the way a team does (a setting, a pin,
a constant, a function renamed or added, a body edited).
"""

from __future__ import annotations

import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from repomem.service.samples import git_env

QUESTIONS = [
    "Which port does the inventory service listen on?",
    "What is the database pool size of the billing module?",
    "Which version of requests do we pin?",
    "How many times is a failed job retried?",
    "What is the function that computes the order total called?",
    "Which Python versions does the package support?",
    "What is the log level?",
    "Which route lists the catalog items?",
]

_PKGS = ["requests", "flask", "sqlalchemy", "celery", "redis", "boto3", "pydantic", "httpx",
         "orjson", "structlog", "tenacity", "attrs", "click", "rich", "jinja2", "urllib3"]
_VERBS = ["get", "load", "compute", "build", "find", "make", "read", "parse", "render", "check"]
_NOUNS = ["order", "total", "user", "invoice", "item", "price", "report", "token", "cart", "tax",
          "stock", "page", "event", "batch", "queue", "quote", "refund", "coupon"]
_MODULES = ["billing", "inventory", "catalog", "orders", "users", "auth", "search", "reports",
            "shipping", "payments", "notify", "media", "pricing", "geo", "audit", "loyalty"]


class _Gen:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.files: dict[str, str] = {}
        self.funcs: dict[str, list[tuple[str, str, int]]] = {}  # module -> (name, noun, limit)
        self.consts: dict[str, dict[str, int]] = {}
        self.cfg: dict[str, dict[str, int]] = {}
        self.pins = {p: f"=={self.rng.randint(1, 5)}.{self.rng.randint(0, 30)}.0" for p in _PKGS}
        self.pys = ["3.10", "3.11"]
        for m in _MODULES:
            self.funcs[m] = [self._func_spec() for _ in range(6)]
            self.consts[m] = {"MAX_RETRIES": 3, "TIMEOUT_SECONDS": 30, "PAGE_SIZE": 50}
            self.cfg[m] = {"port": 8000 + _MODULES.index(m), "workers": 4, "pool_size": 10}
            self._render_module(m)
            self._render_cfg(m)
        self._render_reqs()
        self.files[".env"] = "LOG_LEVEL=info\nWORKER_COUNT=4\n"

    def _func_spec(self):
        noun = self.rng.choice(_NOUNS)
        return (f"{self.rng.choice(_VERBS)}_{noun}_{self.rng.randint(0, 9999)}", noun,
                self.rng.randint(1, 500))

    def _render_module(self, m: str) -> None:
        parts = [f'"""The {m} module."""\n\nfrom app import app, db\n\n']
        for name, val in self.consts[m].items():
            parts.append(f"# {name.lower().replace('_', ' ')} for {m}\n{name} = {val}\n")
        for i, (name, noun, limit) in enumerate(self.funcs[m]):
            route = f'@app.get("/{m}/{noun}s/{i}")\n' if i % 3 == 0 else ""
            parts.append(f'\n\n{route}def {name}(key):\n    """Return the {noun} for {m} by key."""\n'
                         f'    rows = db.query("{m}_{noun}", limit={limit}, key=key)\n'
                         f'    if not rows:\n        return None\n    return rows[0]\n')
        self.files[f"src/{m}/core.py"] = "".join(parts)

    def _render_cfg(self, m: str) -> None:
        c = self.cfg[m]
        idx = _MODULES.index(m) % 4
        if idx == 0:
            self.files[f"config/{m}.toml"] = (f"[server]\nport = {c['port']}\nworkers = {c['workers']}"
                                              f"\n\n[database]\npool_size = {c['pool_size']}\n")
        elif idx == 1:
            self.files[f"deploy/{m}.yaml"] = (f"server:\n  port: {c['port']}\n  workers: {c['workers']}"
                                              f"\ndatabase:\n  pool_size: {c['pool_size']}\n")
        elif idx == 2:
            self.files[f"settings/{m}.json"] = ('{"server": {"port": %d, "workers": %d}, '
                                                '"database": {"pool_size": %d}}\n'
                                                % (c["port"], c["workers"], c["pool_size"]))
        else:
            self.files[f"setup/{m}.ini"] = (f"[server]\nport = {c['port']}\nworkers = {c['workers']}"
                                            f"\n\n[database]\npool_size = {c['pool_size']}\n")

    def _render_reqs(self) -> None:
        self.files["requirements.txt"] = "".join(f"{p}{v}\n" for p, v in sorted(self.pins.items()))
        cls = "".join(f'    "Programming Language :: Python :: {p}",\n' for p in self.pys)
        self.files["pyproject.toml"] = (f'[project]\nname = "shop"\nversion = "1.0.0"\n'
                                        f'requires-python = ">={self.pys[0]}"\n'
                                        f'classifiers = [\n{cls}]\n')

    def step(self) -> tuple[str, list[str]]:
        """Mutate 1-3 files; returns (message, paths touched)."""
        touched = []
        for _ in range(self.rng.choice([1, 1, 1, 2, 2, 3])):
            r = self.rng.random()
            m = self.rng.choice(_MODULES)
            if r < 0.25:
                name = self.rng.choice(list(self.consts[m]))
                self.consts[m][name] = self.rng.randint(1, 5000)
                self._render_module(m)
                touched.append(f"src/{m}/core.py")
            elif r < 0.45:
                fs = self.funcs[m]
                i = self.rng.randrange(len(fs))
                name, noun, limit = fs[i]
                if self.rng.random() < 0.5:  # rename
                    fs[i] = (f"{self.rng.choice(_VERBS)}_{noun}_{self.rng.randint(0, 9999)}", noun, limit)
                else:  # body edit
                    fs[i] = (name, noun, self.rng.randint(1, 500))
                if len(fs) < 12 and self.rng.random() < 0.1:
                    fs.append(self._func_spec())
                self._render_module(m)
                touched.append(f"src/{m}/core.py")
            elif r < 0.75:
                key = self.rng.choice(["port", "workers", "pool_size"])
                self.cfg[m][key] = self.rng.randint(2, 9000)
                self._render_cfg(m)
                touched.append(next(p for p in self.files if f"/{m}." in p))
            elif r < 0.93:
                p = self.rng.choice(_PKGS)
                self.pins[p] = f"=={self.rng.randint(1, 5)}.{self.rng.randint(0, 30)}.{self.rng.randint(0, 9)}"
                self._render_reqs()
                touched.append("requirements.txt")
            else:
                lo = self.rng.randint(8, 11)
                self.pys = [f"3.{v}" for v in range(lo, lo + self.rng.randint(2, 3))]
                self.files[".env"] = (f"LOG_LEVEL={self.rng.choice(['info', 'debug', 'warning'])}\n"
                                      f"WORKER_COUNT={self.rng.randint(1, 16)}\n")
                self._render_reqs()
                touched += ["pyproject.toml", ".env"]
        return f"shop: tune {', '.join(sorted(set(touched)))}", sorted(set(touched))


def generate(dest: Path, commits: int, seed: int = 7) -> float:
    """Create ``dest`` as a git repository of ``commits`` first-parent commits; returns seconds."""
    t0 = time.time()
    dest = Path(dest)
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    env = git_env()
    subprocess.run(["git", "init", "-q", "-b", "main", str(dest)], env=env, check=True)
    g = _Gen(seed)
    proc = subprocess.Popen(["git", "-C", str(dest), "fast-import", "--quiet"], stdin=subprocess.PIPE,
                            env=env)
    out = proc.stdin
    assert out is not None
    when = 1_700_000_000

    def blob(path: str) -> None:
        data = g.files[path].encode()
        out.write(f"M 100644 inline {path}\ndata {len(data)}\n".encode() + data + b"\n")

    for i in range(commits):
        if i == 0:
            msg, paths = "shop: initial layout", sorted(g.files)
        else:
            msg, paths = g.step()
        when += g.rng.randint(600, 20000)
        m = msg.encode()
        out.write(f"commit refs/heads/main\nmark :{i + 1}\n"
                  f"author Dev <dev@example.com> {when} +0000\n"
                  f"committer Dev <dev@example.com> {when} +0000\n"
                  f"data {len(m)}\n".encode() + m + b"\n")
        if i:
            out.write(f"from :{i}\n".encode())
        for p in paths:
            blob(p)
        out.write(b"\n")
    out.close()
    if proc.wait() != 0:
        raise RuntimeError("git fast-import failed")
    subprocess.run(["git", "-C", str(dest), "checkout", "-q", "main"], env=env, check=True)
    return time.time() - t0


def _timed_child(cmd: list[str], env: dict | None = None) -> tuple[float, int, int]:
    """(wall seconds, peak RSS in MB of the child and its waited descendants, exit code)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode:
        err = p.stderr.read().decode(errors="replace") if p.stderr else ""
        raise RuntimeError(f"{' '.join(cmd[:4])}... failed: {err[-800:]}")
    return wall, ru.ru_maxrss // 1024, p.returncode


def compiled_env(base: dict) -> dict:
    """BASE for a measured repomem process, whose modules run from bytecode as an installed
    package's do (pip compiles it on install; compiled here first).  A shell that sets
    PYTHONDONTWRITEBYTECODE (this project's sandboxes do) would otherwise have every process
    compile them from source again: ~0.1 s of each post-commit run and of each cold ask."""
    import compileall

    import repomem

    compileall.compile_dir(Path(repomem.__file__).parent, quiet=1)
    env = dict(base)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _du(path: Path) -> int:
    return sum(f.stat().st_size for f in Path(path).rglob("*") if f.is_file())


def measure(repo: Path, work: Path, label: str, asks: int = 30, cold: int = 5,
            incremental: int = 5, log=None, hook_commits: int = 20) -> dict:
    """Ingest ``repo``'s whole first-parent history into a fresh store under ``work``.
    ``hook_commits``: timed commits on each side of the hook overhead (the test suite's tiny run
    takes a few; each one with hooks waits for its worker process)."""
    from repomem.service.ingest import ingest
    from repomem.service.query import ask
    from repomem.service.repo import Repo

    log = log or (lambda s: None)
    repo = Path(repo).resolve()
    store = Path(work) / f"store-{label}"
    shutil.rmtree(store, ignore_errors=True)
    env = compiled_env(dict(os.environ, **{k: v for k, v in git_env().items()
                                            if k.startswith("GIT_CONFIG")}))
    n = int(subprocess.run(["git", "-C", str(repo), "rev-list", "--first-parent", "--count", "HEAD"],
                           capture_output=True, text=True, env=env, check=True).stdout)
    gl = []
    for _ in range(3):
        gl.append(_timed_child(["git", "-C", str(repo), "log", "-p", "--first-parent",
                                "--no-color", "HEAD"], env)[0])
    git_log = min(gl)
    log(f"{label}: {n} commits; git log -p --first-parent {git_log:.2f}s; ingesting...")
    wall, rss, _ = _timed_child([sys.executable, "-m", "repomem", "ingest", "--all", "-q",
                                 "--repo", str(repo), "--store", str(store)], env)
    log(f"{label}: ingested in {wall:.1f}s, peak RSS {rss} MB")
    r = Repo.open(repo, store)
    out = {"label": label, "commits": n, "git_log_s": round(git_log, 3),
           "ingest_s": round(wall, 2), "commits_per_s": round(n / wall, 1),
           "ratio_to_git_log": round(wall / max(git_log, 1e-6), 1), "peak_rss_mb": rss}
    try:
        with r.store.reader():
            versions = r.store.count_versions()
        size = _du(store)
        out.update(versions=versions, store_mb=round(size / 2**20, 1),
                   bytes_per_version=round(size / max(versions, 1)))
        lat = []
        qs = QUESTIONS
        ask(r, qs[0])  # warm up: opens the client, loads the embedder
        for i in range(asks):
            t0 = time.perf_counter()
            ask(r, qs[i % len(qs)])
            lat.append((time.perf_counter() - t0) * 1000)
        lat.sort()
        out.update(ask_warm_p50_ms=round(statistics.median(lat), 1),
                   ask_warm_p95_ms=round(lat[int(0.95 * (len(lat) - 1))], 1))
        r.store.close()
        cl = []
        for i in range(cold):
            cl.append(_timed_child([sys.executable, "-m", "repomem", "ask", qs[i % len(qs)],
                                    "--repo", str(repo), "--store", str(store)], env)[0])
        out.update(ask_cold_p50_s=round(statistics.median(cl), 2), ask_cold_max_s=round(max(cl), 2))
    finally:
        r.store.close()
    out["incremental_p50_s"] = None
    if incremental and label == "generated":
        inc = []
        genv = git_env()
        r = Repo.open(repo, store)
        try:
            for i in range(incremental):
                p = repo / ".env"
                p.write_text(f"LOG_LEVEL=info\nWORKER_COUNT={100 + i}\n")
                subprocess.run(["git", "-C", str(repo), "commit", "-q", "-am", f"workers {100 + i}"],
                               env=genv, check=True)
                t0 = time.perf_counter()
                ingest(r, revs=["HEAD"], progress=False)
                inc.append(time.perf_counter() - t0)
        finally:
            r.store.close()
        out["incremental_p50_s"] = round(statistics.median(inc), 3)
    out["hook_overhead"] = hook_overhead(repo, hook_commits)
    shutil.rmtree(store, ignore_errors=True)
    return out


def hook_overhead(repo: Path, n: int = 20):
    """Added wall time of `git commit` with repomem's hooks (bench.hooks builds its own
    repository; ``repo`` is unused).  A failure is reported in the table, not raised: the other
    figures of the run stay valid."""
    from bench import hooks as bench_hooks
    from repomem.core.errors import RepomemError

    try:
        return bench_hooks.measure(n)
    except (RepomemError, OSError, subprocess.SubprocessError, AssertionError) as e:
        return f"error: {type(e).__name__}: {e}"


def self_rusage_mb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
