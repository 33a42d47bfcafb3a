"""An optional embedder whose package is not installed: one line naming what to install, no
traceback, no store made with it."""

from __future__ import annotations

from repomem.adapters import wordllama
from repomem.adapters.embed import HYBRID
from tests.conftest import cli, commit, git


def test_the_hybrid_without_wordllama_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(wordllama, "_model_dir", lambda: None)  # as where it is not installed
    monkeypatch.setattr(wordllama, "_INSTANCE", None)
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "2026-01-01T10:00:00+00:00", "settings", {"app/config.py": "PORT = 8080\n"})
    for name in (HYBRID, wordllama.NAME):
        rc, out, err = cli("init", "--repo", repo, "--no-hooks", "--embedder", name, check=False)
        assert rc != 0 and "Traceback" not in err, err
        assert "wordllama" in err and "pip install" in err, err
    assert "no offline weights" in wordllama.why_not()
    # nothing was left behind that would hold the store to that embedder
    cli("init", "--repo", repo, "--no-hooks")
