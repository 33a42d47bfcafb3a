"""repomem summarize: Ollama purpose summaries for undocumented functions, cached by body hash."""

from __future__ import annotations

from repomem.core.ledger import Version
from repomem.service.ingest import ingest
from repomem.service.repo import Repo
from repomem.service.summaries import apply, load, undocumented
from repomem.service.summarizer import summarize
from tests.conftest import commit
from tests.support.ollama_fake import FakeOllama

CODE = '''\
def documented():
    """Already says what it does."""
    return 1


def settle(batch):
    return sum(p.amount for p in batch)
'''


def test_undocumented_detection():
    assert undocumented(CODE, 1) is None
    assert undocumented(CODE, 6).startswith("def settle(batch):")


def test_summaries_are_computed_once_and_used_as_purpose(new_repo, monkeypatch):
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00+00:00", "code", {"pay.py": CODE})
    r = Repo.open(repo)
    ingest(r, all_history=True, progress=False)
    with FakeOllama() as fake:
        monkeypatch.setenv("OLLAMA_HOST", fake.host)
        first = summarize(r, "llama3.2")
        second = summarize(r, "llama3.2")
        chats = fake.paths().count("/api/chat")
    assert (first["undocumented"], first["summarised"]) == (1, 1)
    assert (second["summarised"], second["cached"]) == (0, 1)
    assert chats == 1
    data = load(r.store.path)
    assert len(data["functions"]) == 1
    with r.store.reader():
        rows = r.store.rows({"kind": "function"})
    versions = [Version(id=x["id"], key=x["key"], kind=x["kind"], subject=x["subject"],
                        value=x["value"], attrs=(), is_set=False, valid_from=x["valid_from"],
                        commit=x["commit"], recorded_at=0, path=x["path"], line=x["line"],
                        text=x["text"], purpose=x["purpose"]) for x in rows]
    by_value = {v.value: v for v in apply(r.store.path, versions)}
    assert by_value["documented"].purpose == "Already says what it does."
    assert by_value["settle"].purpose == "The facts do not say."  # the fake model's reply
