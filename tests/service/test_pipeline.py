"""The write path's stages (repomem/service/pipeline.py), each run alone on a real git
repository: select commits -> read changes -> plan batches -> mine -> store records -> fold ->
the view, and the checked-out tree's stages (repomem/service/current.py).  Each stage gets plain
lists, dicts or the store of records; none needs the opened repository."""

from __future__ import annotations

import pytest

from repomem.adapters import git as gitlib
from repomem.core.ledger import Ledger, fold
from repomem.miners.mining import CommitMiner
from repomem.service import current, pipeline
from repomem.service.repo import Repo
from tests.conftest import commit, git

APP_V1 = 'PORT = 8000\n\n\ndef greet(name):\n    """Say hello."""\n    return "hi " + name\n'
APP_V2 = 'PORT = 9000\n\n\ndef greet(name):\n    """Say hello."""\n    return "hello " + name\n'


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    """Five commits: a file added, changed, a second file, a deletion, an unmined file."""
    repo = tmp_path_factory.mktemp("pipeline") / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "2024-01-01T00:00:00Z", "add app", {"app.py": APP_V1})
    commit(repo, "2024-01-02T00:00:00Z", "port", {"app.py": APP_V2})
    commit(repo, "2024-01-03T00:00:00Z", "pin", {"requirements.txt": "flask==3.0.0\n"})
    commit(repo, "2024-01-04T00:00:00Z", "unpin", {"requirements.txt": None,
                                                   "pyproject.toml": '[project]\nname = "x"\n'
                                                   'version = "1.0"\ndependencies = ["flask>=3"]\n'})
    commit(repo, "2024-01-05T00:00:00Z", "picture", {"logo.png": "not an image\n"})
    return repo, gitlib.first_parent_chain(repo)


def _facts(ledger: Ledger) -> set:
    return {(v.kind, v.subject, v.value, v.path) for v in ledger.open.values()}


def test_select_commits_keeps_the_chains_order_without_stored_or_claimed_ones(history):
    _, chain = history
    shas = [c.sha for c in chain]
    assert pipeline.select_commits(chain, set()) == chain
    got = pipeline.select_commits(chain, {shas[0], shas[3]}, claimed={shas[1]})
    assert [c.sha for c in got] == [shas[2], shas[4]]
    assert pipeline.select_commits(chain, set(shas)) == []


def test_read_changes_names_each_commits_files_and_blobs(history):
    repo, chain = history
    changes = pipeline.read_changes(repo, chain)
    paths = [[(ch.path, ch.old_blob is None, ch.new_blob is None) for ch in changes[c.sha]]
             for c in chain]
    assert paths[0] == [("app.py", True, False)]  # added
    assert paths[1] == [("app.py", False, False)]  # changed
    assert sorted(paths[3]) == [("pyproject.toml", True, False), ("requirements.txt", False, True)]
    blob = changes[chain[1].sha][0].new_blob
    assert git(repo, "cat-file", "-p", blob) == APP_V2.rstrip("\n")


def test_plan_batches_covers_every_commit_once_in_order(history, monkeypatch):
    repo, chain = history
    changes = pipeline.read_changes(repo, chain)
    for workers in (1, 2, 4):
        batches = pipeline.plan_batches(repo, chain, changes, workers)
        assert [c for b in batches for c in b] == chain and all(batches)
    monkeypatch.setattr(pipeline, "RECORD_BATCH", 2)
    assert max(len(b) for b in pipeline.plan_batches(repo, chain, changes, 1)) <= 2
    assert pipeline.batches_of(chain, 2) == [chain[0:2], chain[2:4], chain[4:5]]


def test_mine_batches_gives_one_record_a_commit_alike_in_one_process_or_two(history):
    repo, chain = history
    changes = pipeline.read_changes(repo, chain)
    batches = pipeline.batches_of(chain, 2)
    alone = [rec for b in pipeline.mine_batches(repo, batches, 1) for rec in b]
    two = [rec for b in pipeline.mine_batches(repo, batches, 2, changes) for rec in b]
    assert [rec.sha for rec in alone] == [c.sha for c in chain]
    assert [rec.to_json() for rec in alone] == [rec.to_json() for rec in two]
    with CommitMiner(repo) as miner:  # the miner itself, commit by commit
        assert alone[1].to_json() == miner.mine(chain[1], changes[chain[1].sha]).to_json()
    assert alone[3].files["requirements.txt"] == []  # a deleted file: no facts left
    assert "logo.png" not in alone[4].files  # no miner reads it


def test_store_records_then_the_store_has_them(history, tmp_path):
    repo, chain = history
    recs = [rec for b in pipeline.mine_batches(repo, [chain], 1) for rec in b]
    store = Repo.open(repo, tmp_path / "store").store
    with store.writer():  # the callers' lock (it makes the store's folder)
        at = pipeline.store_records(store, recs[:3])
    assert store.ingested() == {c.sha for c in chain[:3]}
    loaded = store.load_records([chain[1].sha])
    assert loaded[chain[1].sha][0].to_json() == recs[1].to_json() and loaded[chain[1].sha][1] == at


def test_fold_records_batch_by_batch_equals_one_fold(history):
    repo, chain = history
    eff = gitlib.effective_times(chain)
    recs = [rec for b in pipeline.mine_batches(repo, [chain], 1) for rec in b]
    ledger = Ledger()
    pipeline.fold_records(ledger, recs[:2], eff, 7)
    pipeline.fold_records(ledger, recs[2:], eff, 7)
    whole = fold([(rec, eff[rec.sha], 7) for rec in recs])
    assert _facts(ledger) == _facts(whole)
    values = {(v.subject, v.value) for v in ledger.open.values()}
    assert ("PORT in app.py", "9000") in values
    assert not any(v.path == "requirements.txt" for v in ledger.open.values())  # deleted


def test_the_view_stage_answers_from_stored_records(history, tmp_path):
    """Records stored by the stages above, folded and written by the view stage alone."""
    from repomem.service.query import facts
    from repomem.service.repo import _embedder
    from repomem.service.view import sync_view

    repo, chain = history
    r = Repo.open(repo, tmp_path / "store")
    recs = [rec for b in pipeline.mine_batches(repo, [chain], 1) for rec in b]
    with r.store.writer():
        emb = _embedder(r, True)  # a new store: bound to the default embedder
        pipeline.store_records(r.store, recs)
        sync_view(r, emb)
    got = {(f["subject"], f["value"]) for f in facts(r)["facts"]}
    assert ("PORT in app.py", "9000") in got


def test_the_tree_stages_give_the_historys_current_facts(history):
    """HEAD's tree: list its files, mine each once, date each version by its file's last commit."""
    repo, chain = history
    files = current.tree_files(repo, chain[-1].sha)
    assert sorted(p for p, _ in files) == ["app.py", "pyproject.toml"]  # logo.png: no miner
    tree = current.tree_ledger(repo, chain)
    recs = [rec for b in pipeline.mine_batches(repo, [chain], 1) for rec in b]
    eff = gitlib.effective_times(chain)
    assert current.same_facts(tree, fold([(rec, eff[rec.sha], 0) for rec in recs])) == (set(), set())
    port = next(v for v in tree.open.values() if v.subject == "PORT in app.py")
    assert port.commit == chain[1].sha  # the last commit that touched app.py
