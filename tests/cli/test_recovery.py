"""Exit 1 with a hint (never 3) for what the user or the machine got wrong, and derived files
(snapshot, fold state) that are checked and rebuilt when damaged."""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import sqlite3
import subprocess
import sys
import zlib

import pytest

from tests.conftest import ROOT, cli, commit, git


def _one_error(rc, err, text):
    assert rc == 1, err
    lines = err.strip().splitlines()
    assert lines[0].startswith("repomem: error: ") and text in lines[0], err
    assert len(lines) == 2 and lines[1].startswith("hint: ") and "Traceback" not in err
    return lines[1]


@pytest.fixture
def indexed(new_repo, tmp_path):
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"c.toml": "port = 1\n"})
    commit(repo, "2026-01-02T00:00:00Z", "b", {"c.toml": "port = 2\n", "README.md": "port 1\n"})
    cli("init", "--repo", repo, "--store", tmp_path / "s", "--no-hooks")
    return repo, tmp_path / "s"


def _values(repo, store, *extra):
    got = json.loads(cli("facts", "--repo", repo, "--store", store, "--json", *extra)[1])
    return {f["key"]: f["value"] for f in got["facts"]}


def test_dates_out_of_range_and_huge_k(indexed):
    repo, s = indexed
    rc, _, err = cli("ask", "port", "--repo", repo, "--store", s, "--as-of",
                     "0001-01-01T00:00:00+01:00", check=False)
    _one_error(rc, err, "before the year 1")
    # The last day there is means now: the current facts.
    assert _values(repo, s, "--as-of", "9999-12-31") == {"config:c.toml:port": "2"}
    got = json.loads(cli("ask", "port", "--repo", repo, "--store", s, "-k", "3000000000",
                         "--as-of", "HEAD", "--json")[1])
    assert got["answer"] == "2"
    # A basic-format date is the same whole day as the extended one.
    early = json.loads(cli("ask", "port", "--repo", repo, "--store", s, "--as-of", "20260101",
                           "--json")[1])
    assert early["answer"] == "1" and early["as_of"] == "2026-01-01T23:59:59+00:00"
    rc, _, err = cli("context", "port", "--repo", repo, "--store", s, "--budget", "-5",
                     check=False)
    _one_error(rc, err, "--budget must be a positive")


def test_ingest_counts_the_commits_it_ingested(indexed):
    repo, s = indexed
    commit(repo, "2026-01-03T00:00:00Z", "c", {"c.toml": "port = 3\n"})
    # The provisional snapshot mines this commit first; it is still this run's new commit.
    assert "ingested 1 new commit(s)" in cli("ingest", "--repo", repo, "--store", s)[1]
    assert "ingested 0 new commit(s)" in cli("ingest", "--repo", repo, "--store", s)[1]


def test_bare_repository_is_called_bare(tmp_path):
    git(tmp_path, "init", "-q", "--bare", "b.git")
    rc, _, err = cli("facts", "--repo", tmp_path / "b.git", check=False)
    _one_error(rc, err, "is a bare git repository")


def test_damaged_snapshot_and_fold_state_are_rebuilt(indexed):
    repo, s = indexed
    snap = s / "current-view.npz"
    os.truncate(snap, snap.stat().st_size // 2)
    out = cli("ask", "port", "--repo", repo, "--store", s)[1]
    assert "`port in c.toml`: `2`" in out
    cli("init", "--repo", repo, "--store", s, "--no-hooks")
    assert _values(repo, s) == {"config:c.toml:port": "2"}
    snap.write_bytes(b"not a zip")
    with contextlib.closing(sqlite3.connect(s / "records.sqlite3")) as con, con:
        con.execute("UPDATE folds SET data = ?", (zlib.compress(b'{"format": 3, "versions": [[1]]'),))
    commit(repo, "2026-01-03T00:00:00Z", "c", {"c.toml": "port = 3\n"})
    cli("ingest", "--repo", repo, "--store", s)
    assert _values(repo, s) == {"config:c.toml:port": "3"}
    hist = json.loads(cli("history", "config:c.toml:port", "--repo", repo, "--store", s,
                          "--json")[1])
    assert [v["value"] for v in hist["versions"]] == ["1", "2", "3"]
    with contextlib.closing(sqlite3.connect(s / "records.sqlite3")) as con:  # rewritten whole
        (data,) = con.execute("SELECT data FROM folds").fetchone()
    from repomem.storage import foldstate

    assert json.loads(zlib.decompress(data))["format"] == foldstate.FORMAT
    assert not list(s.glob("*.pickle")) and not list(s.glob("fold*"))


def test_corrupt_chroma_database_names_the_rebuild_command(indexed):
    repo, s = indexed
    db = s / "chroma.sqlite3"
    with open(db, "r+b") as fh:
        fh.seek(4096 * 2)
        fh.write(b"\x13" * 16384)
    rc, _, err = cli("facts", "--repo", repo, "--store", s, check=False)
    hint = _one_error(rc, err, "is damaged")
    assert "repomem init" in hint and f"mv {s}" in hint
    cmd = hint.split("rebuild it from git: ", 1)[1]
    subprocess.run(cmd.replace("repomem init", f"{sys.executable} -m repomem init --no-hooks"),
                   shell=True, check=True, cwd=ROOT, capture_output=True)
    assert _values(repo, s) == {"config:c.toml:port": "2"}


def _limited(limit):
    def pre():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return pre


def test_disk_full_is_exit_1_and_the_next_run_recovers(indexed):
    repo, s = indexed
    big = "".join(f"K{i} = {i}\n" for i in range(1500))  # under MAX_FACTS_PER_FILE
    commit(repo, "2026-01-03T00:00:00Z", "c", {"c.toml": "port = 3\n", "big.py": big})
    limit = max(p.stat().st_size for p in s.rglob("*") if p.is_file()) + 1024
    proc = subprocess.run([sys.executable, "-m", "repomem", "ingest", "--repo", str(repo),
                           "--store", str(s)], cwd=ROOT, capture_output=True, text=True,
                          preexec_fn=_limited(limit))
    _one_error(proc.returncode, proc.stderr, "no space left")
    cli("ingest", "--repo", repo, "--store", s)
    got = _values(repo, s)
    assert got["config:c.toml:port"] == "3" and got["constant:big.py:K1499"] == "1499"


def _read_only(path):
    """Make the store read-only for the commands run next: chmod for a normal user; root ignores
    modes, so a read-only bind mount there (skipped where mounting is not allowed)."""
    if os.geteuid() != 0:
        for p in [path, *path.rglob("*")]:
            p.chmod(p.stat().st_mode & ~0o222)
        return lambda: [p.chmod(p.stat().st_mode | 0o200) for p in [path, *path.rglob("*")]]
    ok = subprocess.run(["mount", "--bind", str(path), str(path)], capture_output=True)
    if ok.returncode != 0:
        pytest.skip("cannot make a read-only store as root here (no mount)")
    ro = subprocess.run(["mount", "-o", "remount,ro,bind", str(path)], capture_output=True)
    if ro.returncode != 0:
        subprocess.run(["umount", str(path)])
        pytest.skip("cannot remount read-only here")
    return lambda: subprocess.run(["umount", str(path)], check=True)


def test_read_only_store_still_reads_or_says_why(indexed):
    repo, s = indexed
    undo = _read_only(s)
    try:
        # Chroma cannot open a read-only SQLite database, so what reads Chroma says so (exit 1,
        # a hint); what the snapshot answers (ask about now) still works.
        for cmd in (["facts"], ["history", "config:c.toml:port"], ["changes", "--since", "2026-01-01"],
                    ["check"], ["ask", "port", "--as-of", "2026-01-01"]):
            rc, out, err = cli(*cmd, "--repo", repo, "--store", s, check=False)
            assert rc in (0, 1) and "Traceback" not in err and "internal error" not in err, err
            if rc == 1:
                assert "chmod -R u+w" in _one_error(rc, err, "read-only")
        assert "`port in c.toml`: `2`" in cli("ask", "port", "--repo", repo, "--store", s)[1]
        # A new commit needs a write: exit 1 with a hint, and nothing is lost.
        commit(repo, "2026-01-03T00:00:00Z", "c", {"c.toml": "port = 3\n"})
        rc, _, err = cli("ingest", "--repo", repo, "--store", s, check=False)
        _one_error(rc, err, "")
    finally:
        undo()
    cli("ingest", "--repo", repo, "--store", s)
    assert _values(repo, s) == {"config:c.toml:port": "3"}


def test_mcp_year_zero_is_a_clear_error_without_a_traceback(indexed, tmp_path):
    pytest.importorskip("mcp.server.mcpserver")
    import anyio
    from mcp import ClientSession, StdioServerParameters, stdio_client

    repo, s = indexed
    params = StdioServerParameters(command=sys.executable, cwd=str(ROOT),
                                   args=["-m", "repomem", "mcp", "--repo", str(repo),
                                         "--store", str(s)])
    log = tmp_path / "stderr.txt"

    async def main():
        with anyio.fail_after(60), open(log, "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    return await session.call_tool("ask", {"question": "port", "as_of":
                                                           "0001-01-01T00:00:00+01:00"})

    res = anyio.run(main)
    assert res.is_error and "before the year 1" in res.content[0].text
    assert "Traceback" not in log.read_text()
