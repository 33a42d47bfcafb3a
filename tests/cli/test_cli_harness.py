"""The in-process ``cli`` answers as the real entry point does (``cli_proc``), and leaves the test
process as it found it: environment, cwd, root logging, chroma clients."""

from __future__ import annotations

import logging
import os

from tests.conftest import cli, cli_proc, commit


def test_in_process_matches_the_entry_point(new_repo, tmp_path):
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"c.toml": "port = 1\n", "bin.json": b"\x00{"})
    for args in (["--no-such-flag"], ["ask", "port?", "--repo", tmp_path]):
        assert cli(*args, check=False) == cli_proc(*args, check=False)
    # Log lines (to stderr through main's own handler) and output both come back.
    rc, out, err = cli("-v", "init", "--no-hooks", "--repo", repo, "--store", tmp_path / "s")
    assert rc == 0 and "skip bin.json" in err and "indexed" in out.lower()


def test_in_process_leaves_no_state_behind(new_repo, tmp_path):
    from repomem.service import viewcache
    from repomem.storage import store

    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"c.toml": "port = 1\n"})
    root = logging.getLogger()
    handlers, level, env, cwd = root.handlers[:], root.level, dict(os.environ), os.getcwd()
    cli("-v", "init", "--no-hooks", "--repo", repo, "--store", tmp_path / "s")
    cli("ask", "port", "--repo", repo, "--store", tmp_path / "s")
    assert (root.handlers, root.level, dict(os.environ), os.getcwd()) == (handlers, level, env, cwd)
    assert str(tmp_path / "s") not in store._CLIENTS and not viewcache._LOADED
    # -v set the root to INFO for its call; the loggers' cached answers went with it.
    assert logging.getLogger("repomem").isEnabledFor(logging.INFO) == (level <= logging.INFO)
