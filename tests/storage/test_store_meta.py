"""A store is bound to its embedder and its format: a mismatch is one clear error, not mixed
vectors or misread rows.  The default embedder is offline and deterministic."""

from __future__ import annotations

from repomem.adapters.embed import HashEmbedder
from repomem.service.ingest import ingest
from repomem.service.repo import Repo
from tests.conftest import cli, commit


def test_embedder_mismatch_is_a_clear_error(new_repo):
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"c.toml": "port = 1\n"})
    cli("init", "--repo", repo, "--no-hooks")
    rc, out, err = cli("init", "--repo", repo, "--no-hooks", "--embedder", "ollama:nomic-embed-text",
                       check=False)
    assert rc == 1 and "built with embedder 'hash-v1-256'" in err and "hint:" in err
    assert "Traceback" not in err
    assert cli("ask", "port", "--repo", repo, "--json")[1].count('"value": "1"') >= 1


def test_older_store_format_is_refused(new_repo, tmp_path):
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"c.toml": "port = 1\n"})
    r = Repo.open(repo, store=tmp_path / "s")
    ingest(r, all_history=True)
    with r.store.writer():
        r.store.set_meta("schema", 1)
    rc, _, err = cli("ingest", "--repo", repo, "--store", tmp_path / "s", check=False)
    assert rc == 1 and "older format" in err and "repomem init" in err


def test_default_embedder_is_deterministic_and_normalised():
    a, b = HashEmbedder(), HashEmbedder()
    text = "What port does the payment service listen on in production?"
    va, vb = a.embed([text])[0], b.embed([text])[0]
    assert va == vb and abs(sum(x * x for x in va) - 1.0) < 1e-9
    assert a.embed([""])[0][0] == 1.0  # never an all-zero vector (Chroma's cosine rejects it)
