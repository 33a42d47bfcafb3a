"""Every argument path: bad input is one line and a hint, exit 1 -- never exit 2 with a usage
block, never exit 3 with an internal error (dates, keys, numbers, bytes)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT, cli, commit


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    from tests.conftest import git

    repo = tmp_path_factory.mktemp("args") / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "2026-01-01T00:00:00Z", "a", {"c.toml": "port = 1\n"})
    cli("init", "--repo", repo, "--no-hooks")
    return repo


def run_bytes(*args: bytes | str) -> tuple[int, str, str]:
    """The real entry point with raw argv bytes (as a shell passes $'\\xff\\xfe')."""
    argv = [a if isinstance(a, bytes) else a.encode() for a in args]
    proc = subprocess.run([os.fsencode(sys.executable), b"-m", b"repomem", *argv],
                          capture_output=True, cwd=ROOT)
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode(errors="replace")


def one_line(rc: int, out: str, err: str, text: str) -> None:
    lines = err.strip().splitlines()
    assert rc == 1 and out == "", (rc, out, err)
    assert len(lines) == 2 and lines[0].startswith("repomem: error: ") and text in lines[0], err
    assert lines[1].startswith("hint: ")


BAD = [
    (["ask", "port?", "--as-of=--"], "--as-of needs a value"),
    (["changes", "--since=--"], "--since needs a value"),
    (["facts", "--as-of=--"], "--as-of needs a value"),
    (["ask", "port?", "-k", "abc"], "invalid int value"),
    (["context", "port?", "--budget", "1e9"], "invalid int value"),
    (["facts", "--kind", "nope"], "invalid choice"),
    (["changes", "--since", "2026-01-01", "--until=--"], "unrecognized arguments"),
    (["history"], "the following arguments are required"),
    (["no-such-command"], "invalid choice"),
]


@pytest.mark.parametrize("args,text", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_arguments_are_one_line(repo, args, text):
    one_line(*cli(*args, "--repo", repo, check=False) if args[0] != "no-such-command"
             else cli(*args, check=False), text)


def test_undecodable_bytes_in_a_key_or_question(repo):
    one_line(*run_bytes("history", b"\xff\xfe", "--repo", str(repo)), "unknown key: `\\xff\\xfe`")
    rc, out, err = run_bytes("ask", b"port \xff?", "--repo", str(repo), "--json")
    assert rc == 0 and "Traceback" not in err and '"answer": "1"' in out


def test_a_delay_that_is_not_a_number(repo):
    for bad in ("nan", "-1", "inf"):
        one_line(*cli("watch", "--repo", repo, "--delay", bad, check=False), "--delay must be")
