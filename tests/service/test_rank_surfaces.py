"""Each surface ranks with its own weights file (scorer.SURFACES): a question's answer with the
hand weights, the agent's context block with the fitted ones; REPOMEM_RANK_WEIGHTS chooses one
file for both."""

from __future__ import annotations

import json
from pathlib import Path

from repomem.service import scorer
from repomem.service.context import build_context
from repomem.service.query import ask
from tests.conftest import indexed

FILES = {
    "app/session.py": "def refresh_session(token):\n"
                      "    '''Refresh the session token before it expires.'''\n"
                      "    return token\n",
    "tests/test_session.py": "def test_refresh_session():\n"
                             "    '''Refresh the session token before it expires.'''\n"
                             "    assert True\n",
}
PROMPT = "Refresh the session token before it expires"


def _weights(tmp_path: Path, **changed: float) -> str:
    doc = json.loads(Path(scorer.__file__).with_name(scorer.DEFAULT).read_text())
    doc["weights"].update(changed)
    p = tmp_path / "weights.json"
    p.write_text(json.dumps(doc))
    return str(p)


def test_the_surfaces_read_their_files(monkeypatch):
    monkeypatch.delenv(scorer.ENV, raising=False)
    hand, fitted = scorer.read_weights(scorer.DEFAULT), scorer.read_weights(scorer.FITTED)
    assert hand != fitted
    assert scorer.weights() == hand
    with scorer.surface("context"):
        assert scorer.weights() == fitted
    assert scorer.weights() == hand  # restored
    monkeypatch.setenv(scorer.ENV, "hand")
    with scorer.surface("context"):
        assert scorer.weights() == hand  # the variable chooses for both
    monkeypatch.setenv(scorer.ENV, "fitted")
    assert scorer.weights() == fitted


def test_the_context_block_ranks_with_the_context_weights(new_repo, tmp_path, monkeypatch):
    monkeypatch.delenv(scorer.ENV, raising=False)
    r = indexed(new_repo(), ("2026-02-01T10:00:00Z", FILES))
    assert ask(r, PROMPT, k=1)["facts"][0]["subject"] == "function refresh_session"
    # a context file that puts a test's code first: the block follows it, the answer does not
    monkeypatch.setitem(scorer.SURFACES, "context", _weights(tmp_path, test_code=1.0))
    block = build_context(r, PROMPT)
    first = next(line for line in block.splitlines() if line.startswith("- "))
    assert "test_refresh_session" in first, block
    assert ask(r, PROMPT, k=1)["facts"][0]["subject"] == "function refresh_session"
