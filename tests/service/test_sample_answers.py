"""The payments sample: current answers first with provenance, as-of answers, no stale values."""

from __future__ import annotations

import pytest

from repomem.service import samples
from repomem.service.query import ask, facts, history
from repomem.service.repo import Repo
from tests.conftest import cli, cli_json

EXPECTED = samples.load("payments").EXPECTED


@pytest.mark.parametrize("exp", EXPECTED, ids=lambda e: f"{e['question'][:40]}@{e.get('as_of')}")
def test_expected_answer(payments, exp):
    repo, _, _ = payments
    res = ask(Repo.open(repo), exp["question"], exp.get("as_of"), k=5)
    assert res["answer"] == exp["answer"], res["facts"][:3]
    top = res["facts"][0]
    stale = set(exp.get("never", []))
    assert not [f for f in res["facts"] if f["key"] == top["key"] and f["value"] in stale]
    if not exp.get("as_of"):
        assert all(f["valid_to"] is None for f in res["facts"])


def test_ask_json_contract_and_provenance(payments):
    repo, _, shas = payments
    out = cli_json("ask", "What port does the payment service listen on in production?",
                   "--repo", repo)
    assert set(out) >= {"question", "as_of", "answer", "facts"}
    assert out["answer"] == "8080"
    top = out["facts"][0]
    for field in ("key", "kind", "subject", "value", "valid_from", "valid_to", "commit", "path",
                  "line", "text"):
        assert field in top
    assert top["commit"] == shas[1]  # the commit that moved production to 8080
    assert top["valid_from"] == "2026-02-10T09:30:00+00:00"
    assert top["valid_to"] is None
    assert top["path"] == "config/production.toml"
    assert "8080" in top["text"]
    with open(repo / top["path"]) as fh:
        assert "port = 8080" in fh.read().splitlines()[top["line"] - 1]


def test_as_of_accepts_a_revision(payments):
    repo, _, shas = payments
    out = cli_json("ask", "How long is the session timeout?", "--repo", repo, "--as-of", shas[1])
    assert out["answer"] == "1800"
    assert out["as_of"] == "2026-02-10T09:30:00+00:00"


def test_present_output_never_contains_superseded_versions(payments):
    repo, _, _ = payments
    r = Repo.open(repo)
    current = facts(r)["facts"]
    assert current and all(f["valid_to"] is None for f in current)
    values = {(f["key"], f["value"]) for f in current}
    for f in current:
        for v in history(r, f["key"])["versions"][:-1]:
            if v["value"] != f["value"]:
                assert (v["key"], v["value"]) not in values
    names = {f["value"] for f in current if f["kind"] == "function"}
    assert "fetch_user" in names and "get_user_by_id" not in names
    ctx = cli("context", "what is the user lookup function called and its route?", "--repo",
              repo)[1]
    assert "fetch_user" in ctx and "get_user_by_id" not in ctx
    assert "/api/v2/users" in ctx and "/api/v1/users" not in ctx


def test_rename_is_a_new_version_of_the_same_key(payments):
    repo, _, shas = payments
    h = cli_json("history", "fetch_user", "--repo", repo)
    vs = h["versions"]
    assert [v["value"] for v in vs] == ["get_user_by_id", "fetch_user"]
    assert vs[0]["end_reason"] == "superseded" and vs[0]["superseded_by"]
    assert vs[0]["valid_to"] == vs[1]["valid_from"] == "2026-02-20T14:00:00+00:00"
    assert vs[1]["commit"] == shas[2] and vs[1]["valid_to"] is None


def test_scopes_never_supersede_each_other(payments):
    repo, _, _ = payments
    cur = {f["key"]: f["value"] for f in facts(Repo.open(repo), kind="config")["facts"]}
    assert cur["config:config/production.toml:server.port"] == "8080"
    assert cur["config:config/staging.toml:server.port"] == "8000"


def test_set_valued_fact(payments):
    repo, _, _ = payments
    h = history(Repo.open(repo), "python:classifiers:.")["versions"]
    assert [v["value"] for v in h] == ["3.10, 3.11", "3.11, 3.12"]
    assert h[0]["end_reason"] == "superseded"


def test_removed_dependency_and_deleted_function(payments):
    repo, _, shas = payments
    r = Repo.open(repo)
    h = history(r, "dependency:pypi:.:main:simplejson")["versions"]
    assert len(h) == 1 and h[0]["end_reason"] == "removed" and h[0]["superseded_by"] is None
    assert h[0]["valid_to"] == "2026-03-15T16:45:00+00:00"
    now = {f["key"] for f in facts(r)["facts"]}
    assert "dependency:pypi:.:main:simplejson" not in now
    assert "format_amount" not in {f["value"] for f in facts(r, kind="function")["facts"]}
    before = {f["value"] for f in facts(r, as_of="2026-03-10", kind="function")["facts"]}
    assert "format_amount" in before


def test_unparseable_commit_does_not_retire_facts(payments):
    repo, _, _ = payments
    r = Repo.open(repo)
    during = {f["key"]: f["value"] for f in facts(r, as_of="2026-04-01T12:00:00Z")["facts"]}
    assert during["config:config/production.toml:server.port"] == "8080"
    assert during["config:config/production.toml:database.pool_size"] == "10"
    h = history(r, "config:config/production.toml:database.pool_size")["versions"]
    assert [v["value"] for v in h] == ["10", "20"]
    assert h[1]["valid_from"] == "2026-04-02T08:30:00+00:00"


def test_revert_makes_the_earlier_value_current_from_the_revert(payments):
    repo, _, shas = payments
    h = history(Repo.open(repo), "constant:payments/settings.py:MAX_RETRIES")["versions"]
    assert [v["value"] for v in h] == ["3", "5", "3"]
    assert h[2]["valid_from"] == "2026-04-10T12:00:00+00:00" and h[2]["commit"] == shas[8]
    assert h[2]["valid_to"] is None


def test_secret_never_reaches_the_store(payments):
    repo, _, _ = payments
    store = repo / ".git" / "repomem"
    blob = b"".join(p.read_bytes() for p in store.rglob("*") if p.is_file())
    assert b"tok_9f8e7d6c5b4a39281706f5e4d3c2b1a0" not in blob
    assert b"tok_0a1b2c3d4e5f60718293a4b5c6d7e8f9" not in blob
    h = history(Repo.open(repo), "config:.env:PAYMENTS_API_TOKEN")["versions"]
    assert len(h) == 2 and all("redacted" in v["value"] for v in h)
    assert h[0]["value"] != h[1]["value"]  # a rotation is still a change
