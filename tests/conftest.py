"""Shared fixtures: real git repositories with fixed dates, real Chroma stores in tmp dirs.

No test may touch the network or the user's home: HOME points at a tmp dir and git reads no
global or system config."""

from __future__ import annotations

import contextlib
import gc
import io
import json
import locale
import logging
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import repomem.integrations  # noqa: F401 (installs the read path's miners: service/ports.py)

ROOT = Path(__file__).resolve().parent.parent


def _isolate_env(mp: pytest.MonkeyPatch, home: Path) -> None:
    mp.setenv("HOME", str(home))
    mp.setenv("GIT_CONFIG_NOSYSTEM", "1")
    mp.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    mp.setenv("GIT_TEMPLATE_DIR", "")
    mp.setenv("ANONYMIZED_TELEMETRY", "False")
    # cold asks take turns through machine-wide slots (repomem/cli/slots.py): tests running in
    # parallel would wait for each other's and print the note; tests of the turns set their own
    mp.setenv("REPOMEM_ASK_SLOTS", "0")
    # a hook would start a warm answerer that outlives the test; tests of it turn it on
    mp.setenv("REPOMEM_ANSWERER", "0")
    for var in ("REPOMEM_STORE", "REPOMEM_DEBUG", "OLLAMA_HOST", "REPOMEM_CHROMA_URL",
                "REPOMEM_CHROMA_TOKEN", "REPOMEM_NAME"):
        mp.delenv(var, raising=False)


@pytest.fixture(scope="session", autouse=True)
def _isolate_session(tmp_path_factory):
    """The same isolation for the whole session, set up before any other fixture: session and
    module fixtures (``payments``, the samples of test_check, test_crash, test_stale) build and
    ingest repositories too, and the function-scoped ``_isolate`` comes too late for them."""
    with pytest.MonkeyPatch.context() as mp:
        _isolate_env(mp, tmp_path_factory.mktemp("session-home"))
        yield


@pytest.fixture(autouse=True)
def _isolate(_isolate_session, tmp_path_factory, monkeypatch):
    _isolate_env(monkeypatch, tmp_path_factory.mktemp("home"))  # a fresh HOME per test


def pytest_collection_finish(session):
    """The modules the tests imported (chromadb, tree-sitter, numpy: ~130k objects) live as long
    as the process: out of the collector's sight, so that the full collection ``cli`` runs after
    each call (and Python's own) walks only what the tests made since (0.1 s a call otherwise)."""
    gc.freeze()


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
    from repomem.service.samples import write_files

    write_files(Path(repo), files)
    git(repo, "commit", "-q", "--allow-empty", "-m", message, date=date)
    return git(repo, "rev-parse", "HEAD")


def indexed(repo, *commits):
    """The Repo of a git repository (made at REPO when there is none yet) with these commits,
    each (date, files), ingested whole."""
    from repomem.service.ingest import ingest
    from repomem.service.repo import Repo

    repo = Path(repo)
    if not (repo / ".git").exists():
        repo.mkdir(parents=True, exist_ok=True)
        git(repo, "init", "-q", "-b", "main")
    for date, files in commits:
        commit(repo, date, "facts", files)
    r = Repo.open(repo)
    ingest(r, all_history=True, progress=False)
    return r


@pytest.fixture
def new_repo(tmp_path):
    def make(name="repo"):
        repo = tmp_path / name
        repo.mkdir()
        git(repo, "init", "-q", "-b", "main")
        return repo
    return make


def cli(*args, check=True, stdin=""):
    """Run the command line in this process, as a fresh process would, with STDIN as its
    standard input; returns (rc, stdout, stderr).  A subprocess per call costs ~1.5 s of
    chromadb import; the tests whose subject is the process boundary (daemon, hooks' own
    processes, crash, exit codes and stderr of the real entry point) use ``cli_proc``."""
    argv = [str(a) for a in args]
    if os.environ.get("REPOMEM_CRASH_AT"):  # crash injection SIGKILLs the running process
        return cli_proc(*argv, check=check)
    rc, out, err = _in_process(argv, stdin=stdin)
    if check and rc != 0:
        raise AssertionError(f"repomem {args} -> {rc}\n{out}\n{err}")
    return rc, out, err


def bench_cli(*args, check=True):
    """``python -m bench ARGS`` (bench/cli.py) in this process, as :func:`cli` runs repomem's."""
    from bench.cli import main

    argv = [str(a) for a in args]
    rc, out, err = _in_process(argv, main)
    if check and rc != 0:
        raise AssertionError(f"python -m bench {args} -> {rc}\n{out}\n{err}")
    return rc, out, err


def cli_proc(*args, check=True):
    """Run the real console entry point in a subprocess; returns (rc, stdout, stderr)."""
    proc = subprocess.run([sys.executable, "-m", "repomem", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT)
    if check and proc.returncode != 0:
        raise AssertionError(f"repomem {args} -> {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
    return proc.returncode, proc.stdout, proc.stderr


@contextlib.contextmanager
def _fd_to_file(fd: int):
    """Point the file descriptor at a temporary file for the block: what native code (chroma's
    Rust core) and child processes write there is caught too, in order with Python's writes."""
    saved = os.dup(fd)
    tmp = tempfile.TemporaryFile()
    os.dup2(tmp.fileno(), fd)
    try:
        yield tmp
    finally:
        os.dup2(saved, fd)
        os.close(saved)


def _in_process(argv: list[str], main=None, stdin: str = "") -> tuple[int, str, str]:
    """``repomem.cli.main(argv)`` (or another entry point's ``main``) with the process state a
    real run starts from and leaves behind restored: cwd, environment, signal handlers, root
    logging, stdio (streams in the locale's encoding that fail where the real ones fail; STDIN
    as the standard input), warnings shown on stderr, and no chroma client or snapshot cache carried into or out
    of the call."""
    import traceback
    import warnings

    from repomem.service import viewcache

    if main is None:
        from repomem.cli import main

    enc = locale.getpreferredencoding(False)
    cwd, env = os.getcwd(), dict(os.environ)
    signals = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    before = _chroma_state()
    viewcache._LOADED.clear()
    stdio = sys.stdin, sys.stdout, sys.stderr
    with _fd_to_file(1) as out_f, _fd_to_file(2) as err_f, warnings.catch_warnings():
        sys.stdin = io.StringIO(stdin)
        sys.stdout = io.TextIOWrapper(open(1, "wb", closefd=False), encoding=enc)
        sys.stderr = io.TextIOWrapper(open(2, "wb", closefd=False), encoding=enc,
                                      errors="backslashreplace", line_buffering=True)
        warnings.resetwarnings()  # the interpreter's default filters, not pytest's recording
        for category in (DeprecationWarning, PendingDeprecationWarning, ImportWarning,
                         ResourceWarning):
            warnings.simplefilter("ignore", category)
        warnings.showwarning = lambda m, c, f, n, file=None, line=None: sys.stderr.write(
            warnings.formatwarning(m, c, f, n, line))
        root.handlers = []  # so that main's basicConfig installs its stderr handler
        os.chdir(ROOT)
        try:
            rc = main(argv)
        except SystemExit as e:  # argparse (usage errors, --help)
            rc = e.code
            if not isinstance(rc, (int, type(None))):
                print(rc, file=sys.stderr)
                rc = 1
        except BaseException:  # what the interpreter does with an uncaught exception
            traceback.print_exc()
            rc = 1
        finally:
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except ValueError:  # closed by the command
                    pass
            sys.stdin, sys.stdout, sys.stderr = stdio
            for h in root.handlers:
                if h not in handlers:
                    h.close()
            root.handlers[:] = handlers
            root.setLevel(level)  # setLevel, not assignment: it clears the loggers' caches
            os.chdir(cwd)
            for k in set(os.environ) - set(env):
                del os.environ[k]
            os.environ.update(env)
            for sig, handler in signals.items():
                signal.signal(sig, handler)
            viewcache._LOADED.clear()
            _drop_new_clients(before)
            gc.collect()  # the call's stores close their SQLite files, as its process exit would
    outs = []
    for f in (out_f, err_f):
        f.seek(0)
        outs.append(f.read().decode(enc))
        f.close()
    return int(rc or 0), outs[0], outs[1]


def _chroma_state() -> tuple[dict, dict]:
    """(store path -> repomem's cached client, path -> chroma's cached System)."""
    store = sys.modules.get("repomem.storage.store")
    clients = {p: hit[1] for p, hit in store._CLIENTS.items()} if store else {}
    shared = sys.modules.get("chromadb.api.shared_system_client")
    systems = dict(shared.SharedSystemClient._identifier_to_system) if shared else {}
    return clients, systems


def _drop_new_clients(before: tuple[dict, dict]) -> None:
    """Forget the chroma clients and Systems the call opened, as the end of its process would,
    a half-started one (a damaged database) included; those the test itself holds stay."""
    clients, systems = _chroma_state()
    new = {p for p, c in clients.items() if before[0].get(p) is not c}
    new |= {p for p, s in systems.items() if before[1].get(p) is not s}
    if not new:
        return
    from chromadb.api.shared_system_client import SharedSystemClient

    from repomem.storage import store
    for path in new:
        store._CLIENTS.pop(path, None)
        SharedSystemClient._identifier_to_refcount.pop(path, None)
        system = SharedSystemClient._identifier_to_system.pop(path, None)
        try:
            if system is not None:
                system.stop()
        except Exception:  # never started (the open failed): a process exit would not care
            pass


def cli_json(*args):
    return json.loads(cli(*args, "--json")[1])


@pytest.fixture(scope="session")
def payments(_isolate_session, tmp_path_factory):
    """The payments sample, built and fully ingested once per session (read-only for tests)."""
    from repomem.service import samples
    from repomem.service.ingest import ingest
    from repomem.service.repo import Repo

    dest = tmp_path_factory.mktemp("samples") / "payments"
    defn = samples.load("payments")
    shas = samples.build(defn, dest)
    ingest(Repo.open(dest), all_history=True, progress=False)
    return dest, defn, shas


@pytest.fixture(scope="session")
def _session_chroma(_isolate_session, tmp_path_factory):
    """One real `chroma run` (and its token gate) per test process, started at first use (a
    start costs ~2.5 s of CPU): see ``shared_chroma``."""
    from tests.support.chroma_server import TOKEN, Gate, Server

    server = Server(tmp_path_factory.mktemp("shared-chroma") / "chroma-db")
    server.start()
    gate = Gate(server, TOKEN)
    try:
        yield server, gate
    finally:
        gate.close()
        server.kill()


@pytest.fixture
def shared_chroma(_session_chroma, monkeypatch):
    """The session's server, for tests that neither stop it nor kill it through the gate: each
    publishes under its own repository's name (its tmp origin, or a name of its own) and counts
    only its own collections (``own_collections``), so none sees another's."""
    from tests.support.chroma_server import TOKEN

    server, gate = _session_chroma
    assert server.proc is not None and server.proc.poll() is None, "the shared server died"
    monkeypatch.setenv("REPOMEM_CHROMA_TOKEN", TOKEN)
    return server, gate
