"""A cold `repomem ask` or `context` ends its process without the interpreter's tear-down
(repomem.cli._exit_now): what it prints and its exit status are the command's own, a reader
that stops early is no error, and a process that opened the store of record ends the ordinary
way."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import ROOT, cli, commit

_ENV = dict(os.environ, REPOMEM_ANSWERER="0", REPOMEM_ASK_SLOTS="0")


def _run(*args: str, stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "repomem", *args], cwd=ROOT, env=_ENV,
                          stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=120)


def test_a_cold_ask_prints_what_the_command_prints(new_repo):
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"app.py": "PORT = 8080\nHOST = 'localhost'\n"})
    cli("init", "--repo", repo, "--no-hooks")
    for argv in (["ask", "which port does the app use?", "--repo", str(repo)],
                 ["context", "change the port", "--repo", str(repo)]):
        _, want, _ = cli(*argv)
        got = _run(*argv)
        assert (got.returncode, got.stdout, got.stderr) == (0, want, "")
        assert "8080" in got.stdout
    empty = _run("ask", "  ", "--repo", str(repo))  # an error keeps its status and message
    assert empty.returncode == 1 and "the question is empty" in empty.stderr


def test_a_reader_that_stops_early_is_no_error(new_repo):
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a",
           {"app.py": "".join(f"SETTING_{i} = {i}\n" for i in range(40))})
    cli("init", "--repo", repo, "--no-hooks")
    proc = subprocess.Popen([sys.executable, "-m", "repomem", "ask", "which setting?", "-k", "40",
                             "--repo", str(repo)], cwd=ROOT, env=_ENV, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()  # `repomem ask ... | head -1`
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 0 and "Traceback" not in err, err


def test_an_as_of_ask_reads_the_store_of_record_and_ends_the_ordinary_way(new_repo):
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"app.py": "PORT = 8080\n"})
    commit(repo, "2026-02-01T00:00:00Z", "b", {"app.py": "PORT = 9090\n"})
    cli("init", "--repo", repo, "--no-hooks")
    probe = ("import sys, atexit, runpy\n"
             "atexit.register(lambda: sys.stderr.write('TORN DOWN\\n'))\n"
             "sys.argv = ['repomem'] + sys.argv[1:]\n"
             "runpy.run_module('repomem', run_name='__main__')\n")
    for as_of, ends in (([], False), (["--as-of", "2026-01-15"], True)):
        got = subprocess.run([sys.executable, "-c", probe, "ask", "which port?", "--repo",
                              str(repo), *as_of], cwd=ROOT, env=_ENV, capture_output=True,
                             text=True, timeout=120)
        assert got.returncode == 0 and ("9090" if not as_of else "8080") in got.stdout
        assert ("TORN DOWN" in got.stderr) == ends  # chromadb imported: atexit handlers run
