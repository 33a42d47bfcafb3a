"""Cost of ingesting hostile files: time and peak memory per file, printed as a table.

Each case is one file committed on top of a small repository; two figures per case, each in a
fresh subprocess so that ru_maxrss is that run's peak:

* ``mine``: ``mine_file`` alone (parse, redaction, facts) -- the per-file work the hook and the
  watcher repeat on every commit;
* ``ingest``: ``repomem ingest`` of the repository (git, mining, Chroma, the view), whose peak
  includes Chroma itself (~150 MB before any file is read).

Targets (issue 9): peak RSS of ingesting any single file <= 200 MB; a 1 MB minified JSON
ingests in <= 5 s or is skipped.  Run: ``python -m bench hostile-files [--no-ingest]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _json_minified(n_keys: int) -> bytes:
    return json.dumps({f"k{i}": f"v{i}" for i in range(n_keys)}, separators=(",", ":")).encode()


def _json_long_values(n_keys: int, size: int) -> bytes:
    return json.dumps({f"k{i}": f"{i}-" + "v" * size for i in range(n_keys)},
                      separators=(",", ":")).encode()


def _alias_bomb(levels: int) -> bytes:
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, levels):
        refs = ",".join([f"*a{i - 1}"] * 10)
        lines.append(f"a{i}: &a{i} [{refs}]")
    return ("\n".join(lines) + "\n").encode()


def _deep_json(depth: int) -> bytes:
    return ("[" * depth + "]" * depth).encode()


def _yaml_flow(n_bytes: int) -> bytes:
    items: list[str] = []
    i = 0
    while sum(len(x) for x in items) < n_bytes:
        items.append(f"k{i}: v{i}, ")
        i += 1
    return ("{" + "".join(items) + "}\n").encode()


CASES = {
    "json-28KB-2000-keys.json": lambda: _json_minified(2_000),
    "json-1MB-minified.json": lambda: _json_minified(55_000),
    "json-4900-keys.json": lambda: _json_minified(4_900),
    "json-1MB-1990-long-values.json": lambda: _json_long_values(1990, 480),
    "yaml-alias-bomb-9.yaml": lambda: _alias_bomb(9),
    "yaml-1MB-flow.yaml": lambda: _yaml_flow(990_000),
    "json-deep-100k.json": lambda: _deep_json(100_000),
    "env-1MB.env": lambda: b"".join(f"K{i}=v{i}\n".encode() for i in range(70_000)),
    "toml-1MB.toml": lambda: b"".join(f'k{i} = "v{i}"\n'.encode() for i in range(55_000)),
    "py-1MB.py": lambda: b"".join(f"def f{i}(x):\n    return x + {i}\n\n".encode()
                                 for i in range(25_000)),
}

_MINE = """
import resource, sys, time
from repomem.miners import MineError, mine_file
data = open(sys.argv[1], "rb").read()
t = time.perf_counter()
try:
    out = f"{len(mine_file(sys.argv[2], data))} facts"
except (MineError, RecursionError) as e:
    out = f"skipped: {e}"
dt = time.perf_counter() - t
print(f"{dt:.2f}\\t{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024}\\t{out}")
"""

_BASE = """
import resource, sys
import repomem.miners, repomem.core.secret_scan, yaml, tree_sitter
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
"""


def _git(repo: Path, *args: str) -> None:
    env = dict(os.environ, GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@example.com",
               GIT_COMMITTER_NAME="b", GIT_COMMITTER_EMAIL="b@example.com",
               GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)
    subprocess.run(["git", "-C", str(repo), *args], check=True, env=env, capture_output=True)


def _ingest(tmp: Path, name: str, data: bytes) -> str:
    repo = tmp / f"repo-{name}"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    (repo / "app.toml").write_text('port = 8080\n')
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "base")
    (repo / name).write_bytes(data)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "hostile")
    code = ("import resource, subprocess, sys, time; t = time.perf_counter(); "
            "p = subprocess.run([sys.executable, '-m', 'repomem', 'ingest', '--all', '-q', "
            f"'--repo', {str(repo)!r}, '--store', {str(tmp / ('store-' + name))!r}]); "
            "print(f'{time.perf_counter() - t:.2f}\\t"
            "{resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024}\\t{p.returncode}')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    return out.stdout.strip() or out.stderr.strip().splitlines()[-1]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--no-ingest", action="store_true", help="only mine_file, no repomem ingest")
    args = ap.parse_args()
    base = subprocess.run([sys.executable, "-c", _BASE], capture_output=True, text=True,
                          cwd=ROOT).stdout.strip()
    print(f"python + miners imported: {base} MB peak RSS")
    print(f"{'case':28} {'bytes':>8}  {'mine s':>6} {'MB':>5}  result | ingest s, MB, rc")
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        for name, make in CASES.items():
            data = make()
            f = tmp / name
            f.write_bytes(data)
            out = subprocess.run([sys.executable, "-c", _MINE, str(f), name], capture_output=True,
                                 text=True, cwd=ROOT)
            line = out.stdout.strip() or ("CRASH " + (out.stderr.strip().splitlines() or ["?"])[-1])
            parts = line.split("\t")
            row = f"{name:28} {len(data):>8}  " + (
                f"{parts[0]:>6} {parts[1]:>5}  {parts[2][:60]}" if len(parts) == 3 else line)
            if not args.no_ingest:
                row += " | " + _ingest(tmp, name, data).replace("\t", ", ")
            print(row, flush=True)


if __name__ == "__main__":
    t0 = time.time()
    main()
    print(f"total {time.time() - t0:.0f} s")
