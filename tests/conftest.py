"""Shared fixtures: real git repositories with fixed dates, real Chroma stores in tmp dirs.

No test may touch the network or the user's home: HOME points at a tmp dir and git reads no
global or system config."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _isolate_env(mp: pytest.MonkeyPatch, home: Path) -> None:
    mp.setenv("HOME", str(home))
    mp.setenv("GIT_CONFIG_NOSYSTEM", "1")
    mp.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    mp.setenv("GIT_TEMPLATE_DIR", "")
    mp.setenv("ANONYMIZED_TELEMETRY", "False")
    for var in ("REPOMEM_STORE", "REPOMEM_DEBUG", "OLLAMA_HOST"):
        mp.delenv(var, raising=False)


@pytest.fixture(scope="session", autouse=True)
def _isolate_session(tmp_path_factory):
    """The same isolation for the whole session, set up before any other fixture: session and
    module fixtures (``payments``, the samples of test_check, test_crash, test_bench) build and
    ingest repositories too, and the function-scoped ``_isolate`` comes too late for them."""
    with pytest.MonkeyPatch.context() as mp:
        _isolate_env(mp, tmp_path_factory.mktemp("session-home"))
        yield


@pytest.fixture(autouse=True)
def _isolate(_isolate_session, tmp_path_factory, monkeypatch):
    _isolate_env(monkeypatch, tmp_path_factory.mktemp("home"))  # a fresh HOME per test


def git(repo, *args, date=None, check=True):
    env = dict(os.environ, GIT_AUTHOR_NAME="T", GIT_AUTHOR_EMAIL="t@example.com",
               GIT_COMMITTER_NAME="T", GIT_COMMITTER_EMAIL="t@example.com")
    if date:
        env.update(GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    out = subprocess.run(["git", "-C", str(repo), "-c", "commit.gpgsign=false", *args],
                         env=env, capture_output=True, text=True)
    if check and out.returncode != 0:
        raise AssertionError(f"git {args} failed: {out.stderr}")
    return out.stdout.strip()


def commit(repo, date, message, files):
    """Write files (None deletes) and commit them with a fixed author and committer date."""
    from repomem.samples import write_files

    write_files(Path(repo), files)
    git(repo, "commit", "-q", "--allow-empty", "-m", message, date=date)
    return git(repo, "rev-parse", "HEAD")


@pytest.fixture
def new_repo(tmp_path):
    def make(name="repo"):
        repo = tmp_path / name
        repo.mkdir()
        git(repo, "init", "-q", "-b", "main")
        return repo
    return make


def cli(*args, check=True):
    """Run the real console entry point in a subprocess; returns (rc, stdout, stderr)."""
    proc = subprocess.run([sys.executable, "-m", "repomem", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT)
    if check and proc.returncode != 0:
        raise AssertionError(f"repomem {args} -> {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
    return proc.returncode, proc.stdout, proc.stderr


def cli_json(*args):
    return json.loads(cli(*args, "--json")[1])


@pytest.fixture(scope="session")
def payments(_isolate_session, tmp_path_factory):
    """The payments sample, built and fully ingested once per session (read-only for tests)."""
    from repomem import samples
    from repomem.index import Repo, ingest

    dest = tmp_path_factory.mktemp("samples") / "payments"
    defn = samples.load("payments")
    shas = samples.build(defn, dest)
    ingest(Repo.open(dest), all_history=True, progress=False)
    return dest, defn, shas
