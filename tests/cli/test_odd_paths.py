"""Odd file names and store paths: bytes-safe names, stores outside the work tree, stores that
belong to one history, and hooks that find their store when the repository is copied or moved."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

from repomem.integrations import worker
from repomem.service.ingest import ingest
from repomem.service.query import facts
from repomem.service.repo import Repo
from tests.conftest import ROOT, cli, commit, git


def _one_error(rc, err, text):
    assert rc == 1, err
    lines = err.strip().splitlines()
    assert lines[0].startswith("repomem: error: ") and text in lines[0], err
    assert len(lines) == 2 and lines[1].startswith("hint: ") and "Traceback" not in err


def test_non_utf8_file_name_is_stored_escaped_and_indexing_goes_on(new_repo, tmp_path):
    repo = new_repo()
    latin1 = os.fsdecode(b"lat\xe9.py")  # the bytes git stores: not UTF-8
    commit(repo, "2026-01-01T00:00:00Z", "a", {latin1: "PORT = 1\n", "ok.py": "LIMIT = 5\n"})
    commit(repo, "2026-01-02T00:00:00Z", "b", {latin1: "PORT = 2\n"})
    rc, out, err = cli("ingest", "--repo", repo, "--store", tmp_path / "s")
    assert "ingested 2 new commit(s)" in out and "error" not in err
    commit(repo, "2026-01-03T00:00:00Z", "c", {latin1: "PORT = 3\n"})  # later commits still index
    assert "ingested 1 new commit(s)" in cli("ingest", "--repo", repo, "--store", tmp_path / "s")[1]
    got = json.loads(cli("facts", "--repo", repo, "--store", tmp_path / "s", "--json")[1])
    by_path = {f["path"]: f["value"] for f in got["facts"]}
    assert by_path == {"lat\\xe9.py": "3", "ok.py": "5"}
    hist = json.loads(cli("history", "constant:lat\\xe9.py:PORT", "--repo", repo,
                          "--store", tmp_path / "s", "--json")[1])
    assert [v["value"] for v in hist["versions"]] == ["1", "2", "3"]
    out = cli("ask", "PORT", "--repo", repo, "--store", tmp_path / "s")[1]
    assert "`lat\\xe9.py`:1" in out


def test_lone_surrogate_escapes_in_values_are_stored_escaped(new_repo, tmp_path):
    # httpx's tests/models/whatwg.json holds "\uD800": json decodes it to a lone surrogate,
    # which no UTF-8 store accepts; the commit and every later one must still be recorded.
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"cases.json": '{"input": "a\\uD800b", "n": 1}\n'})
    commit(repo, "2026-01-02T00:00:00Z", "b", {"cases.json": '{"input": "a\\uD800b", "n": 2}\n'})
    rc, out, err = cli("ingest", "--repo", repo, "--store", tmp_path / "s")
    assert "ingested 2 new commit(s)" in out and "error" not in err
    got = json.loads(cli("facts", "--repo", repo, "--store", tmp_path / "s", "--json")[1])
    values = {f["key"]: f["value"] for f in got["facts"]}
    assert values["config:cases.json:input"] == "a\\ud800b"
    assert values["config:cases.json:n"] == "2"


def test_store_path_inside_the_work_tree_or_a_file_is_refused(new_repo, tmp_path):
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"c.toml": "port = 1\n"})
    env = dict(os.environ, REPOMEM_STORE="rel-store", PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "repomem", "init", "--no-hooks"], cwd=repo,
                          env=env, capture_output=True, text=True)
    _one_error(proc.returncode, proc.stderr, "inside the work tree")
    assert not (repo / "rel-store").exists()
    (tmp_path / "a-file").write_text("x")
    rc, _, err = cli("init", "--repo", repo, "--store", tmp_path / "a-file", check=False)
    _one_error(rc, err, "is a file")
    # A relative store outside the work tree is resolved to an absolute path once.
    env["REPOMEM_STORE"] = "../outside"
    proc = subprocess.run([sys.executable, "-m", "repomem", "init", "--no-hooks"], cwd=repo,
                          env=env, capture_output=True, text=True)
    assert proc.returncode == 0 and str(tmp_path / "outside") in proc.stdout
    assert Repo.open(repo, "../outside").store.path.is_absolute()


def test_another_repositorys_store_is_refused(new_repo, tmp_path):
    a, b = new_repo("a"), new_repo("b")
    commit(a, "2026-01-01T00:00:00Z", "a", {"c.toml": "port = 1\n"})
    commit(b, "2026-01-01T00:00:00Z", "b", {"c.toml": "port = 2\n"})
    cli("init", "--repo", a, "--store", tmp_path / "s", "--no-hooks")
    for cmd in (["facts"], ["ingest"], ["ask", "port"]):
        rc, out, err = cli(*cmd, "--repo", b, "--store", tmp_path / "s", check=False)
        _one_error(rc, err, "belongs to another repository")
    # A clone of the same history may share it (records are per commit).
    git(tmp_path, "clone", "-q", str(a), "clone")
    got = json.loads(cli("facts", "--repo", tmp_path / "clone", "--store", tmp_path / "s",
                         "--json")[1])
    assert [f["value"] for f in got["facts"]] == ["1"]


def _port(repo) -> str:
    return {f["key"]: f["value"] for f in facts(Repo.open(repo))["facts"]}["config:c.toml:port"]


def test_hooks_find_the_store_after_a_copy_and_a_move(new_repo, tmp_path):
    repo = new_repo("orig")
    commit(repo, "2026-01-01T00:00:00Z", "a", {"c.toml": "port = 1\n"})
    cli("init", "--repo", repo)
    assert str(repo) not in (repo / ".git" / "hooks" / "post-commit").read_text()  # no path baked

    copy = tmp_path / "copy"
    shutil.copytree(repo, copy, symlinks=True)
    commit(copy, "2026-01-02T00:00:00Z", "b", {"c.toml": "port = 2\n"})
    assert worker.wait_idle(copy / ".git" / "repomem", timeout=60)
    assert _port(copy) == "2"
    assert _port(repo) == "1"  # the original's store was not written by the copy's hooks

    moved = tmp_path / "moved"
    os.rename(copy, moved)
    commit(moved, "2026-01-03T00:00:00Z", "c", {"c.toml": "port = 3\n"})
    assert worker.wait_idle(moved / ".git" / "repomem", timeout=60)
    with Repo.open(moved).store.reader() as st:  # the hook's worker indexed it, not this read
        assert git(moved, "rev-parse", "HEAD") in st.ingested()
    assert _port(moved) == "3"


def test_hooks_feed_an_explicit_store_through_git_config(new_repo, tmp_path):
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"c.toml": "port = 1\n"})
    out = cli("init", "--repo", repo, "--store", tmp_path / "ext")[1]
    assert "repomem.store" in out
    assert git(repo, "config", "--get", "repomem.store") == str(tmp_path / "ext")
    commit(repo, "2026-01-02T00:00:00Z", "b", {"c.toml": "port = 2\n"})
    assert worker.wait_idle(tmp_path / "ext", timeout=60)
    with Repo.open(repo).store.reader() as st:  # the config is the default store now
        assert st.path == tmp_path / "ext"
        assert git(repo, "rev-parse", "HEAD") in st.ingested()
    assert not (repo / ".git" / "repomem").exists()


def test_paths_are_resolved_for_ingest(new_repo, tmp_path):
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"c.toml": "port = 1\n"})
    r = Repo.open(repo, tmp_path / "x" / ".." / "s")
    assert r.store.path == tmp_path / "s"
    ingest(r, all_history=True, progress=False)
    assert json.loads((tmp_path / "s" / "repository.json").read_text())["first_commit"] == \
        git(repo, "rev-parse", "HEAD")
