"""Bad input gets one clear line (exit 1) or a logged skip -- never a traceback, never lost facts."""

from __future__ import annotations

import pytest

from repomem.service.ingest import ingest
from repomem.service.query import facts, history
from repomem.service.repo import Repo
from tests.conftest import cli, cli_proc, commit, git


def one_error(rc, out, err, text):
    assert rc == 1 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 2 and lines[0].startswith("repomem: error: ") and text in lines[0]
    assert lines[1].startswith("hint: ")
    assert "Traceback" not in err


def test_errors_are_one_line_with_a_hint(new_repo, tmp_path):
    # The real entry point: its exit code, and a stderr with no traceback from anywhere.
    one_error(*cli_proc("ask", "port?", "--repo", tmp_path, check=False), "not a git repository")
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"c.toml": "port = 1\n"})
    one_error(*cli_proc("ask", "port?", "--repo", repo, check=False), "no repomem store")
    cli("init", "--repo", repo, "--no-hooks")
    one_error(*cli_proc("ask", "port?", "--repo", repo, "--as-of", "next tuesday", check=False),
              "as a date or a revision")
    one_error(*cli_proc("history", "config:nope", "--repo", repo, check=False), "unknown key")
    one_error(*cli_proc("ingest", "no-such-rev", "--repo", repo, check=False), "unknown revision")


def test_odd_files_are_skipped_and_odd_paths_work(new_repo, tmp_path):
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "odd", {
        "we ird\nname.toml": "port = 1\n",
        "配置/设置.toml": "port = 2\n",
        "bin.json": b'{"a": 1, "b\x00": 2}',
        "huge.yaml": "x: " + "y" * 2_000_000 + "\n",
        "bad.py": b"def f():\n    return '\xff'\n",
        "broken.toml": "[a\nb=",
    })
    r = Repo.open(repo, store=tmp_path / "s")
    ingest(r, all_history=True)
    got = {f["path"]: f["value"] for f in facts(r)["facts"]}
    assert got == {"we ird\nname.toml": "1", "配置/设置.toml": "2"}
    rc, out, err = cli("-v", "ingest", "--all", "--repo", repo, "--store", tmp_path / "t")
    assert "skip bin.json" in err and "binary" in err
    assert "skip huge.yaml" in err and "skip bad.py" in err and "skip broken.toml" in err
    assert "Traceback" not in err


def test_damaged_repository_keeps_stored_facts(new_repo, tmp_path):
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"c.toml": "port = 1\n"})
    r = Repo.open(repo, store=tmp_path / "s")
    ingest(r, all_history=True)
    commit(repo, "2026-01-02T00:00:00Z", "b", {"c.toml": "port = 2\n"})
    commit(repo, "2026-01-03T00:00:00Z", "c", {"c.toml": "port = 3\n"})
    blob = git(repo, "rev-parse", "HEAD~1:c.toml")
    (repo / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    rc, out, err = cli("ingest", "--repo", repo, "--store", tmp_path / "s", check=False)
    one_error(rc, out, err, "missing from the repository")
    assert [f["value"] for f in facts(r)["facts"]] == ["1"]
    assert len(history(r, "config:c.toml:port")["versions"]) == 1


def test_empty_repository_and_empty_commits(new_repo, tmp_path):
    repo = new_repo()
    r = Repo.open(repo, store=tmp_path / "s")
    assert ingest(r, all_history=True)["commits"] == 0
    commit(repo, "2026-01-01T00:00:00Z", "empty", {})
    assert ingest(r, all_history=True)["new"] == 1
    assert facts(r)["facts"] == []


def test_damaged_repository_with_parallel_mining(new_repo, tmp_path, monkeypatch):
    from repomem.core.errors import RepomemError

    repo = new_repo()
    for i in range(4):
        commit(repo, f"2026-01-0{i + 1}T00:00:00Z", str(i), {"c.toml": f"port = {i}\n"})
    blob = git(repo, "rev-parse", "HEAD~1:c.toml")
    (repo / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    monkeypatch.setenv("REPOMEM_WORKERS", "2")
    monkeypatch.setattr("repomem.service.ingest.RECORD_BATCH", 1)
    r = Repo.open(repo, store=tmp_path / "s")
    with pytest.raises(RepomemError) as err:
        ingest(r, all_history=True)
    assert "missing from the repository" in str(err.value) and "git fsck" in err.value.hint
    assert [f["value"] for f in facts(r)["facts"]] == ["1"]  # the commits before it were kept
