"""repomem changes --since: supersessions and removals, oldest first; a date includes its day,
a revision excludes its own commit."""

from __future__ import annotations

from repomem.service.query import changes
from repomem.service.repo import Repo
from tests.conftest import cli, cli_json


def test_since_a_date_includes_that_day_oldest_first(payments):
    repo, _, shas = payments
    out = changes(Repo.open(repo), "2026-02-10")
    assert out["since"] == "2026-02-10T00:00:00+00:00"
    ch = out["changes"]
    assert [c["at"] for c in ch] == sorted(c["at"] for c in ch)
    first = ch[0]
    assert (first["key"], first["from_value"], first["to_value"]) == (
        "config:config/production.toml:server.port", "8000", "8080")
    assert first["change"] == "superseded" and first["commit"] == shas[1]
    assert first["at"] == "2026-02-10T09:30:00+00:00"
    assert first["path"] == "config/production.toml" and first["line"] == 3


def test_since_a_revision_excludes_that_commit(payments):
    repo, _, shas = payments
    ch = cli_json("changes", "--since", shas[1], "--repo", repo)["changes"]
    assert "config:config/production.toml:server.port" not in {c["key"] for c in ch}
    rename = ch[0]
    assert (rename["from_value"], rename["to_value"], rename["commit"]) == (
        "get_user_by_id", "fetch_user", shas[2])
    removed = {c["key"]: c for c in ch if c["change"] == "removed"}
    assert removed["dependency:pypi:.:main:simplejson"]["to_value"] is None
    assert removed["dependency:pypi:.:main:simplejson"]["at"] == "2026-03-15T16:45:00+00:00"
    assert any(c["from_value"] == "format_amount" for c in removed.values())
    # the handler rename kept the route's value: the change says what did change
    same = [c for c in ch if c["kind"] == "route" and c["from_value"] == c["to_value"]]
    assert same and same[0]["attrs_changed"] == {"handler": ["get_user_by_id", "fetch_user"]}
    # the revert is a change too (5 -> 3), after the change it reverts (3 -> 5)
    retries = [(c["from_value"], c["to_value"]) for c in ch if c["key"].endswith("MAX_RETRIES")]
    assert retries == [("3", "5"), ("5", "3")]


def test_nothing_since_head_and_text_output(payments):
    repo, _, shas = payments
    assert cli_json("changes", "--since", "HEAD", "--repo", repo)["changes"] == []
    text = cli("changes", "--since", "2026-04-15", "--repo", repo)[1]
    assert "PAYMENTS_API_TOKEN" in text and "tok_" not in text
    rc, out, err = cli("changes", "--since", "not-a-date", "--repo", repo, check=False)
    assert rc == 1 and "hint:" in err


def test_what_a_body_calls_is_no_change(tmp_path):
    """A function's attrs.calls describe it: a body that calls something new is no change, and
    a signature change lists the signature, not the calls that changed with it."""
    from tests.conftest import indexed

    v1 = "def save(user):\n    return db.add(user)\n"
    v2 = "def save(user):\n    return db.merge(user)\n"
    v3 = "def save(user, flush=False):\n    return db.session.add(user)\n"
    r = indexed(tmp_path / "repo", ("2026-01-01T10:00:00+00:00", {"app.py": v1}),
                ("2026-01-02T10:00:00+00:00", {"app.py": v2}),
                ("2026-01-03T10:00:00+00:00", {"app.py": v3}))
    got = changes(r, "2026-01-01")["changes"]
    assert [(c["change"], c["at"][:10]) for c in got] == [("superseded", "2026-01-03")]
    assert list(got[0]["attrs_changed"]) == ["signature"]
