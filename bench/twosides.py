"""What the scripts that compare two checkouts of repomem share (``mining-cpu``,
``kinds-before-after``): their command line (OLD_CODE NEW_CODE REPO... [--runs N]), the bundles they
clone, and a program run against one side's code.  Each side is imported from its own folder through
PYTHONPATH, from the clone's parent folder (the current directory comes before PYTHONPATH on
sys.path)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

BUNDLES = Path(__file__).resolve().parents[1] / ".." / "shared" / "realrepos"


def parse(doc: str) -> tuple[argparse.Namespace, dict[str, str]] | None:
    """The arguments and the two sides' code folders, or None (said why) when there are no bundles."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("old_code")
    ap.add_argument("new_code")
    ap.add_argument("repos", nargs="+")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    if not BUNDLES.is_dir():
        print(f"skipped: no bundles at {BUNDLES}")
        return None
    sides = {"old": str(Path(args.old_code).resolve()), "new": str(Path(args.new_code).resolve())}
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    return args, sides


def run(code: str, program: str, *argv: str, repo: str) -> str:
    """``python -c PROGRAM ARGV...`` importing repomem from CODE, beside the clone REPO; its stdout."""
    return subprocess.run([sys.executable, "-c", program, *argv], env=dict(os.environ, PYTHONPATH=code),
                          capture_output=True, text=True, check=True, cwd=str(Path(repo).parent)).stdout
