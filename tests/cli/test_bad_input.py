"""Bad input gets one clear line (exit 1) or a logged skip -- never a traceback, never lost facts."""

from __future__ import annotations

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


def test_a_missing_object_skips_that_file_version_only(new_repo, tmp_path):
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"c.toml": "port = 1\n"})
    r = Repo.open(repo, store=tmp_path / "s")
    ingest(r, all_history=True)
    commit(repo, "2026-01-02T00:00:00Z", "b", {"c.toml": "port = 2\n", "d.toml": "host = 'x'\n"})
    commit(repo, "2026-01-03T00:00:00Z", "c", {"e.toml": "debug = 1\n"})
    blob = git(repo, "rev-parse", "HEAD~1:c.toml")
    (repo / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    rc, out, err = cli("ingest", "--repo", repo, "--store", tmp_path / "s")
    assert rc == 0 and "skip c.toml at " in err and blob in err and "Traceback" not in err
    got = {f["key"]: f["value"] for f in facts(r)["facts"]}
    # c.toml keeps the value before the missing version; the rest of both commits is indexed
    assert got == {"config:c.toml:port": "1", "config:d.toml:host": "x",
                   "config:e.toml:debug": "1"}


def test_empty_repository_and_empty_commits(new_repo, tmp_path):
    repo = new_repo()
    r = Repo.open(repo, store=tmp_path / "s")
    assert ingest(r, all_history=True)["commits"] == 0
    commit(repo, "2026-01-01T00:00:00Z", "empty", {})
    assert ingest(r, all_history=True)["new"] == 1
    assert facts(r)["facts"] == []


def test_a_missing_object_with_parallel_mining(new_repo, tmp_path, monkeypatch):
    repo = new_repo()
    for i in range(4):
        commit(repo, f"2026-01-0{i + 1}T00:00:00Z", str(i),
               {"c.toml": f"port = {i}\n", "d.toml": f"n = {i}\n"})
    blob = git(repo, "rev-parse", "HEAD~1:c.toml")
    (repo / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    monkeypatch.setenv("REPOMEM_WORKERS", "2")
    monkeypatch.setattr("repomem.service.pipeline.RECORD_BATCH", 1)
    r = Repo.open(repo, store=tmp_path / "s")
    assert ingest(r, all_history=True)["new"] == 4  # the whole history, past the missing blob
    got = {f["key"]: f["value"] for f in facts(r)["facts"]}
    assert got == {"config:c.toml:port": "3", "config:d.toml:n": "3"}
    assert [v["value"] for v in history(r, "config:c.toml:port")["versions"]] == ["0", "1", "3"]


def test_init_of_a_clone_missing_blobs(new_repo, tmp_path):
    """A partial mirror: a binary no miner reads (moved, so git's rename detection wants it) and
    a settings file are missing; init indexes everything else and says what it skipped."""
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"app.toml": "port = 8080\n", "logo.gif": b"GIF89a\x01",
                                               "db.toml": "host = 'a'\n"})
    commit(repo, "2026-01-02T00:00:00Z", "b", {"app.toml": "port = 9090\n", "logo.gif": b"GIF89a\x02",
                                               "db.toml": "host = 'b'\n"})
    commit(repo, "2026-01-03T00:00:00Z", "c", {"logo.gif": None, "img/logo.gif": b"GIF89a\x03"})
    gone = {git(repo, "rev-parse", "HEAD~1:logo.gif"): "logo.gif",
            git(repo, "rev-parse", "HEAD~1:db.toml"): "db.toml"}
    for blob in gone:
        (repo / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    rc, out, err = cli_proc("init", "--no-hooks", "--repo", repo, check=False)
    assert rc == 0 and "indexed 3 new of 3 commits" in out and "Traceback" not in err
    for blob, path in gone.items():
        assert any(blob in line and path in line for line in err.splitlines()), err
    rc, out, err = cli_proc("ask", "which port", "--repo", repo, "--json", check=False)
    import json
    assert rc == 0 and json.loads(out)["answer"] == "9090"  # changed with the missing db.toml
