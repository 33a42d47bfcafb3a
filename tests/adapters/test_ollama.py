"""Ollama paths with the real ``ollama`` client against a loopback fake of its HTTP API
(tests/support/ollama_fake.py): embedder, ask --llm, and the unreachable / missing-model errors.
No real Ollama runs in these tests."""

from __future__ import annotations

import pytest

from repomem.adapters.ollama_client import OllamaEmbedder, chat, parse_llm
from repomem.core.errors import RepomemError
from repomem.service.ingest import ingest
from repomem.service.query import ask
from repomem.service.repo import Repo
from tests.conftest import cli, cli_json, commit
from tests.support.ollama_fake import FakeOllama, closed_port_host


@pytest.fixture
def fake(monkeypatch):
    with FakeOllama() as f:
        monkeypatch.setenv("OLLAMA_HOST", f.host)
        yield f


def test_embedder_uses_api_embed_and_is_named_for_the_store(fake):
    emb = OllamaEmbedder("nomic-embed-text")
    assert emb.name == "ollama:nomic-embed-text"
    vecs = emb.embed(["server port", "database pool size"])
    assert len(vecs) == 2 and len(vecs[0]) > 10 and vecs[0] != vecs[1]
    assert fake.paths() == ["/api/embed"]
    assert fake.requests[0][2]["input"] == ["server port", "database pool size"]


def test_store_built_with_ollama_records_it_and_answers(fake, new_repo):
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00+00:00", "cfg", {"app.toml": "[server]\nport = 8000\n"})
    commit(repo, "2026-02-01T00:00:00+00:00", "move", {"app.toml": "[server]\nport = 8080\n"})
    ingest(Repo.open(repo, embedder="ollama:nomic-embed-text"), all_history=True, progress=False)
    r = Repo.open(repo)
    with r.store.reader():
        assert r.store.get_meta("embedder") == "ollama:nomic-embed-text"
    assert ask(r, "which port does the server use?")["answer"] == "8080"
    assert fake.paths().count("/api/embed") >= 2  # the view at init, the question at ask


def test_ask_llm_answers_from_current_facts_only_and_cites(fake, payments):
    repo, _, shas = payments
    out = cli_json("ask", "What is the function that looks up a user by primary key called now?",
                   "--repo", repo, "--llm", "ollama:llama3.2")
    assert out["answer"] == "fetch_user" and out["llm"] == "ollama:llama3.2"
    assert "fetch_user" in out["llm_answer"] and "payments/app.py" in out["llm_answer"]
    assert shas[2][:10] in out["llm_answer"]
    sent = [b for _, p, b in fake.requests if p == "/api/chat"][0]
    prompt = " ".join(m["content"] for m in sent["messages"])
    assert "fetch_user" in prompt and "get_user_by_id" not in prompt
    assert "ONLY the facts" in prompt


def test_unreachable_server_is_one_line_and_exit_1(monkeypatch, payments):
    repo, _, _ = payments
    monkeypatch.setenv("OLLAMA_HOST", closed_port_host())
    rc, out, err = cli("ask", "session timeout", "--repo", repo, "--llm", "ollama:llama3.2",
                       check=False)
    assert rc == 1 and out == ""
    lines = err.strip().splitlines()
    assert lines[0].startswith("repomem: error: cannot reach Ollama at http://127.0.0.1:")
    assert lines[1].startswith("hint: start it with 'ollama serve'") and len(lines) == 2
    with pytest.raises(RepomemError, match="cannot reach Ollama"):
        OllamaEmbedder("nomic-embed-text").embed(["x"])


def test_missing_model_says_ollama_pull(fake, new_repo):
    with pytest.raises(RepomemError) as e:
        chat("qwen-missing", "s", "u")
    assert e.value.hint == "ollama pull qwen-missing"
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00+00:00", "cfg", {"app.toml": "port = 1\n"})
    with pytest.raises(RepomemError, match="no model 'nope-embed'") as e:
        ingest(Repo.open(repo, embedder="ollama:nope-embed"), all_history=True, progress=False)
    assert e.value.hint == "ollama pull nope-embed"


def test_llm_spec_must_be_explicit_ollama():
    assert parse_llm("ollama:llama3.2") == "llama3.2"
    for bad in ("llama3.2", "openai:gpt", "ollama:"):
        with pytest.raises(RepomemError):
            parse_llm(bad)
