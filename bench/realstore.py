"""Histories and cached stores for the real-history benchmark.

A history is a git bundle (cloned into the cache, never written next to the bundle) or a clone.
Ingesting click's 1,400 commits takes about a minute and express's 3,900 several, so each store is
kept in the cache under a key made of the history (the bundle's content digest, or a clone's HEAD)
and a digest of the repomem sources that decide what a store holds (mining, miners, ledger, index,
store, model, embed): a change to any of them re-ingests, anything else (ranking, query, this
benchmark) reuses the store.  ``fresh=True`` forces a new ingest.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import repomem
from repomem.core.errors import RepomemError

PKG = Path(repomem.__file__).resolve().parent
# What a stored fact (or the snapshot's lexical index) depends on; ranking and query code is
# deliberately left out.
STORE_SOURCES = ["miners", "core", "service/ingest.py", "service/view.py", "service/repo.py",
                 "storage/store.py", "adapters/embed.py", "adapters/wordllama.py",
                 "adapters/packaged.py", "data", "storage/recordstore.py", "storage/foldstate.py",
                 "service/viewcache.py", "service/lexical.py", "service/snapfile.py"]


def cache_root() -> Path:
    base = os.environ.get("REPOMEM_BENCH_CACHE")
    if base:
        return Path(base)
    xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(xdg) / "repomem" / "realbench"


def source_digest() -> str:
    h = hashlib.sha256()
    for name in STORE_SOURCES:
        p = PKG / name
        files = sorted(f for f in p.rglob("*") if f.is_file() and "__pycache__" not in f.parts) \
            if p.is_dir() else [p] if p.exists() else []
        for f in files:
            h.update(str(f.relative_to(PKG)).encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:12]


def _file_digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()[:12]


def _slug(spec: str) -> str:
    return "".join(c if c.isalnum() or c in "-." else "_" for c in spec)


def _git(*args: str) -> str:
    env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)
    out = subprocess.run(["git", *args], capture_output=True, text=True, env=env)
    if out.returncode != 0:
        raise RepomemError(f"git {' '.join(args[:3])} failed: {out.stderr.strip()[:200]}",
                           hint="is it a git bundle or a clone?")
    return out.stdout.strip()


@dataclass
class History:
    name: str       # the repository's name: click, httpx, ...
    source: Path    # the bundle or the clone as given
    kind: str       # "bundle" | "clone"


def discover(paths: list[Path]) -> list[History]:
    """Bundles in a folder, bundle files, or clones (a folder with a .git)."""
    out: list[History] = []
    for p in paths:
        p = Path(p)
        if p.is_file() and p.suffix == ".bundle":
            out.append(History(p.stem, p, "bundle"))
        elif (p / ".git").exists():
            out.append(History(p.resolve().name, p, "clone"))
        elif p.is_dir():
            out += [History(b.stem, b, "bundle") for b in sorted(p.glob("*.bundle"))]
    seen, uniq = set(), []
    for h in out:
        if h.name not in seen:
            seen.add(h.name)
            uniq.append(h)
    return uniq


def checkout(h: History) -> Path:
    """A work tree of the history: the clone itself, or a clone of the bundle in the cache."""
    if h.kind == "clone":
        return h.source
    dest = cache_root() / "clones" / f"{h.name}-{_file_digest(h.source)}"
    if not (dest / ".git").exists():
        tmp = dest.with_name(dest.name + ".part")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.parent.mkdir(parents=True, exist_ok=True)
        _git("clone", "-q", str(h.source), str(tmp))
        tmp.rename(dest)
    return dest


def store_for(h: History, work: Path, fresh: bool = False, log=print,
              embedder: str | None = None) -> tuple[Path, dict]:
    """The ingested store of this history, from the cache or ingested now; returns its path
    and how it was obtained (ingest seconds, or cached).  EMBEDDER: a spec of the embedder
    registry (None: the default); another embedder is another store."""
    head = _git("-C", str(work), "rev-parse", "HEAD")
    key = f"{h.name}-{head[:12]}-{source_digest()}" + (f"-{_slug(embedder)}" if embedder else "")
    path = cache_root() / "stores" / key
    path.parent.mkdir(parents=True, exist_ok=True)
    # two benchmarks started at once on new mining code (bench real and fit-ranker) must not
    # ingest into one folder together: the second waits, then finds the first one's store
    with open(path.with_name(key + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _store_locked(h.name, head, work, path, fresh, log, embedder)


def _store_locked(name: str, head: str, work: Path, path: Path, fresh: bool, log,
                  embedder: str | None) -> tuple[Path, dict]:
    from repomem.service.ingest import ingest
    from repomem.service.repo import Repo

    done = path / "bench-ingested.json"
    failed = path.with_name(path.name + ".failed")  # an ingest that crashed is not retried either
    if fresh:
        shutil.rmtree(path, ignore_errors=True)
        failed.unlink(missing_ok=True)
    if done.exists():
        return path, dict(json.loads(done.read_text()), cached=True)
    if failed.exists():
        raise RepomemError(failed.read_text().strip() + " (cached failure; --fresh retries)")
    shutil.rmtree(path, ignore_errors=True)
    log(f"{name}: ingesting the full first-parent history into {path} ...")
    t = time.time()
    try:
        stats = ingest(Repo.open(work, store=path, embedder=embedder), all_history=True,
                       progress=False)
    except Exception as e:
        failed.parent.mkdir(parents=True, exist_ok=True)
        failed.write_text(f"{type(e).__name__}: {str(e)[:300]}\n")
        raise
    info = {"ingest_s": round(time.time() - t, 1), "commits": stats.get("commits"), "head": head,
            "embedder": embedder or "hash"}
    done.write_text(json.dumps(info))
    log(f"{name}: {info['commits']} commits ingested in {info['ingest_s']} s")
    return path, dict(info, cached=False)
