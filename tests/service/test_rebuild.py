"""`repomem rebuild` re-mines stored history with the current miners and redactor (issue 9: a
better detector must reach records already stored), and ingest says when records are older."""

from __future__ import annotations

from repomem.core import secrets
from repomem.miners import MINERS_VERSION
from repomem.service.ingest import ingest
from repomem.service.repo import Repo
from tests.conftest import cli, cli_proc, commit

HOOK = "https://hooks.slack.com/services/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"
GLPAT = "glpat-Ab3dEf6hIj9kLm2nOp5q"


def _grep(store, needle: str) -> list[str]:
    return [f.name for f in store.rglob("*") if f.is_file() and needle.encode() in f.read_bytes()]


def _old_store(new_repo, tmp_path, monkeypatch):
    """A store as older miners left it: secrets in clear in records, view and fold state."""
    repo, store = new_repo(), tmp_path / "store"
    commit(repo, "2026-01-01T00:00:00+00:00", "one",
           {".env": f"SLACK_WEBHOOK_URL={HOOK}\nPORT=8000\n",
            "app.py": f'def notify(msg):\n    return post("{GLPAT}", msg)\n'})
    commit(repo, "2026-01-02T00:00:00+00:00", "two", {".env": f"SLACK_WEBHOOK_URL={HOOK}\nPORT=8080\n"})
    with monkeypatch.context() as m:
        m.setattr(secrets, "redact_blob", lambda text, code=False: text)
        m.setattr(secrets, "redact_fact", lambda f: f)
        r = Repo.open(repo, store)
        ingest(r, all_history=True, progress=False)
        r.store.set_meta("miners_version", 1)
    return repo, store


def test_rebuild_removes_secrets_from_stored_history(new_repo, tmp_path, monkeypatch):
    repo, store = _old_store(new_repo, tmp_path, monkeypatch)
    common = ["--repo", repo, "--store", store]
    # The commands in processes of their own, as a user runs them: the subject is the bytes on
    # disk, and chroma's HNSW files hold whole allocations whose unused slots carry what the
    # writing process's heap held -- this test's process has held the secrets in clear (above).
    assert HOOK in cli_proc("facts", *common)[1] and _grep(store, "Zx9QmT4vLp8KwR2sYb7NcH5d")

    rc, out, err = cli_proc("ingest", *common)
    assert "repomem rebuild" in err and len(err.strip().splitlines()) == 1

    rc, out, err = cli_proc("rebuild", *common)
    assert "re-mined 2 commit(s)" in out
    facts = cli_proc("facts", *common)[1]
    assert "Zx9QmT4vLp8KwR2sYb7NcH5d" not in facts and "<redacted:" in facts
    assert "8080" in facts  # the ordinary history is intact
    hist = cli_proc("history", "config:.env:PORT", *common)[1]
    assert "8000" in hist and "8080" in hist
    assert _grep(store, "Zx9QmT4vLp8KwR2sYb7NcH5d") == []  # chroma.sqlite3 and fold state too
    assert _grep(store, "Ab3dEf6hIj9kLm2nOp5q") == []
    # (the store's bytes are searched above: this last check may run in this process)
    assert cli("ingest", *common)[2].strip() == ""  # records are current now: no hint


def test_new_store_is_stamped_with_the_miners_version(new_repo, tmp_path):
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00+00:00", "one", {"a.toml": "x = 1\n"})
    rc, out, err = cli("init", "--no-hooks", "--repo", repo, "--store", tmp_path / "s")
    assert "rebuild" not in err
    assert Repo.open(repo, tmp_path / "s").store.get_meta("miners_version") == MINERS_VERSION
