"""How much wall time repomem's hooks add to ``git commit``.

``measure(n)`` makes a throwaway repository, times ``n`` commits with no hooks, installs the hooks
(with a store, so the detached worker really runs), times ``n`` more, and reports the median and
95th percentile of each in milliseconds.  Between timed commits it waits for the worker to go
idle (untimed), so each figure is the hook's own cost, not CPU contention with indexing.
"""

from __future__ import annotations

import statistics
import subprocess
import tempfile
import time
from pathlib import Path


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                   env=_env())


def _env() -> dict:
    from repomem.service.samples import git_env

    return git_env()


def _time_commits(repo: Path, n: int, start: int, wait=None) -> list[float]:
    out = []
    for i in range(start, start + n):
        (repo / "app.py").write_text(f"PORT = {8000 + i}\n")
        _git(repo, "add", "app.py")
        t0 = time.perf_counter()
        subprocess.run(["git", "-C", str(repo), "commit", "-q", "-m", f"c{i}"], check=True,
                       env=_env(), capture_output=True)
        out.append((time.perf_counter() - t0) * 1000)
        if wait:
            wait()
    return out


def _cpu_ticks(pid: int) -> int | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return int(fields[11]) + int(fields[12])  # utime + stime


def _quiet(pid: int | None, timeout: float = 10.0) -> None:
    """Wait until process PID used no CPU for 0.1 s (the daemon has handled its last batch:
    its overlay refresh runs after the snapshot is written), so that the next timed commit
    does not share the CPU with the work of the one before.  No-op where /proc is absent."""
    if pid is None:
        return
    deadline = time.monotonic() + timeout
    last = _cpu_ticks(pid)
    while last is not None and time.monotonic() < deadline:
        time.sleep(0.1)
        now = _cpu_ticks(pid)
        if now == last:
            return
        last = now


def _summary(ms: list[float]) -> dict:
    s = sorted(ms)
    return {"median_ms": round(statistics.median(s), 1),
            "p95_ms": round(s[min(len(s) - 1, int(round(0.95 * (len(s) - 1))))], 1)}


def measure(n: int = 20, wait_worker: bool = True, daemon: bool = False) -> dict:
    """daemon: with ``repomem daemon`` running, for the commits without hooks too (it indexes
    a commit from its ref event either way; with the hooks, the shim only writes the pending
    marker it watches, and no python starts on git's path).  Between timed commits it waits,
    untimed, until the commit is indexed."""
    from repomem.integrations import daemon as daemons
    from repomem.integrations import hooks, worker
    from repomem.service import viewcache
    from repomem.service.ingest import ingest
    from repomem.service.repo import Repo

    with tempfile.TemporaryDirectory(prefix="repomem-hookbench-") as tmp:
        repo = Path(tmp) / "repo"
        repo.mkdir()
        _git(repo, "init", "-q", "-b", "main")
        _git(repo, "commit", "-q", "--allow-empty", "-m", "root")
        r = Repo.open(repo)
        store = r.store.path

        def indexed() -> None:  # the daemon wrote the snapshot of HEAD, and is done
            head = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"],
                                  capture_output=True, text=True).stdout.strip()
            deadline = time.monotonic() + 30
            while viewcache.state(r.store).get("head") != head and time.monotonic() < deadline:
                time.sleep(0.02)
            worker.wait_idle(store, timeout=30)
            _quiet(daemons.running(store))

        if daemon:
            ingest(r, all_history=True, progress=False)
            daemons.start(repo, store)
        try:
            without = _time_commits(repo, n, 0, indexed if daemon else None)
            if not daemon:
                ingest(r, all_history=True, progress=False)
            hooks.install(repo)
            wait = indexed if daemon else \
                (lambda: worker.wait_idle(store, timeout=30)) if wait_worker else None
            with_hooks = _time_commits(repo, n, n, wait)
            worker.wait_idle(store, timeout=30)
            # the post-commit hook alone, run as git runs it: what git waits for, without the
            # noise of two whole commits' timings on a shared machine
            shim, floor = [], []
            for _ in range(n):
                # what any shim costs here: a shell and the two git calls that find the store
                t0 = time.perf_counter()
                subprocess.run(["sh", "-c", "git rev-parse --git-dir --git-common-dir; "
                                "git config --get repomem.store; true"], cwd=repo, env=_env(),
                               capture_output=True)
                floor.append((time.perf_counter() - t0) * 1000)
                t0 = time.perf_counter()
                subprocess.run(["sh", str(repo / ".git" / "hooks" / "post-commit")], cwd=repo,
                               env=_env(), check=True, capture_output=True)
                shim.append((time.perf_counter() - t0) * 1000)
                (wait or (lambda: worker.wait_idle(store, timeout=30)))()
        finally:
            if daemon:
                daemons.stop(store)
        a, b = _summary(without), _summary(with_hooks)
        return {"commits": n, "without_hooks": a, "with_hooks": b, "hook_alone": _summary(shim),
                "sh_and_two_git_calls": _summary(floor),
                "overhead_median_ms": round(b["median_ms"] - a["median_ms"], 1),
                "overhead_p95_ms": round(b["p95_ms"] - a["p95_ms"], 1)}


if __name__ == "__main__":
    import json

    print(json.dumps(measure(), indent=2))
