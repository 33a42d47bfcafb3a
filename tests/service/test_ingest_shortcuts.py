"""The shortcuts of the ingestion speed work change nothing a reader sees: the fold state keeps
only open versions, the post-commit snapshot of a commit that changes no fact is restamped, a
first ingest folds as batches arrive, and finished facts are memoised."""

from __future__ import annotations

import numpy as np
import pytest

from repomem.miners import mine_file
from repomem.miners.mining import _may_move
from repomem.service import snapfile, summaries, viewcache
from repomem.service.ingest import ingest
from repomem.service.query import facts, history
from repomem.service.repo import Repo
from repomem.service.view import provisional_snapshot
from repomem.storage import foldstate
from tests.conftest import cli_proc, commit


def _versions(r):
    with r.store.reader():
        return sorted((row["key"], row["value"], row["valid_from"], row["valid_to"])
                      for row in r.store.rows())


def test_fold_state_keeps_open_versions_and_incremental_equals_full(new_repo, tmp_path):
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"app.py": "PORT = 1\nHOST = 'a'\n"})
    r = Repo.open(repo, store=tmp_path / "s")
    ingest(r, all_history=True)
    commit(repo, "2026-01-02T00:00:00Z", "b", {"app.py": "PORT = 2\nHOST = 'a'\n"})
    commit(repo, "2026-01-03T00:00:00Z", "c", {"app.py": "PORT = 3\nHOST = 'a'\n"})
    stats = ingest(r)  # incremental, on top of the saved fold state
    saved = r.store.records.load_fold(r.store.view_name("fold"))
    assert saved["format"] == foldstate.FORMAT and saved["closed"] == 2  # PORT 1 and 2
    value = foldstate._FIELDS.index("value")
    assert sorted(row[value] for row in saved["versions"]) == ["3", "a"]
    assert stats["versions"] == 4  # closed ones still counted
    incremental = _versions(r)
    full = Repo.open(repo, store=tmp_path / "full")
    assert ingest(full, all_history=True)["versions"] == 4
    assert _versions(full) == incremental
    assert [v["value"] for v in history(r, "constant:app.py:PORT")["versions"]] == ["1", "2", "3"]


def test_a_long_lived_writer_reuses_the_ledger_it_saved_until_another_writer_saves(
        new_repo, tmp_path, monkeypatch):
    """The daemon folds commit after commit in one process: the ledger it saved comes back
    without reading the stored state, while that state is still what it saved.  A save by
    another process (a hook's worker, `repomem ingest`) means a read.  Either way the versions
    are those of a full fold."""
    from repomem.storage.recordstore import SqliteRecords

    reads, load_fold = [], SqliteRecords.load_fold
    monkeypatch.setattr(SqliteRecords, "load_fold",
                        lambda self, view: reads.append(view) or load_fold(self, view))
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"app.py": "PORT = 1\nHOST = 'a'\n"})
    r = Repo.open(repo, store=tmp_path / "s")
    ingest(r, all_history=True)
    for i, day in enumerate(("02", "03", "04"), start=2):
        commit(repo, f"2026-01-{day}T00:00:00Z", day, {"app.py": f"PORT = {i}\nHOST = 'a'\n"})
        ingest(r)
    assert reads == []  # each commit's fold started from the ledger kept in memory
    sha = commit(repo, "2026-01-05T00:00:00Z", "05", {"app.py": "PORT = 5\nHOST = 'b'\n"})
    cli_proc("ingest", "-q", "--repo", repo, "--store", tmp_path / "s")  # another writer
    with r.store.reader():  # the kept ledger is not that writer's: the stored state is read
        assert foldstate.load(r.store, summaries.digest(r.store.path)).applied[-1] == sha
    assert reads
    commit(repo, "2026-01-06T00:00:00Z", "06", {"app.py": "PORT = 6\nHOST = 'b'\n"})
    ingest(r)
    full = Repo.open(repo, store=tmp_path / "full")
    ingest(full, all_history=True)
    assert _versions(full) == _versions(r)
    assert [v["value"] for v in history(r, "constant:app.py:PORT")["versions"]] == \
        ["1", "2", "3", "4", "5", "6"]


def test_the_post_commit_snapshot_answers_while_the_writer_brings_chroma_to_it(
        new_repo, tmp_path, monkeypatch):
    """The snapshot written for a new commit is the view the writer then stores in Chroma: it
    stays meanwhile, so a question asked then is answered at once from it (it used to be deleted
    when the Chroma write began, and a question waited for the writer's lock: ~1-2 s).  A view
    change that is not that snapshot's still deletes it first."""
    from repomem.service.query import _search_snapshot
    from repomem.storage.store import Store

    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"app.py": "PORT = 1\n"})
    r = Repo.open(repo, store=tmp_path / "s")
    ingest(r, all_history=True)
    head = commit(repo, "2026-01-02T00:00:00Z", "b", {"app.py": "PORT = 2\n"})
    seen, write = [], Store.sync_versions

    def meanwhile(self, *a, **k):  # what a reader finds while Chroma is written (a reader
        # without it would wait for this writer's lock: ask() here would wait for itself)
        hit = _search_snapshot(Repo.open(repo, store=tmp_path / "s"), "PORT", 1)
        seen.append((viewcache.state(r.store).get("head"), hit and hit[1][0]["value"]))
        return write(self, *a, **k)
    monkeypatch.setattr(Store, "sync_versions", meanwhile)
    ingest(r)
    assert seen == [(head, "2")]
    # a reset is no post-commit snapshot: the old one goes before the view changes
    from tests.conftest import git
    git(repo, "reset", "-q", "--hard", "HEAD~1")
    seen.clear()
    ingest(r)
    assert seen and seen[0][0] is None


def test_commit_without_facts_restamps_the_snapshot(new_repo, tmp_path):
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"app.py": "PORT = 1\n", "README": "x\n"})
    r = Repo.open(repo, store=tmp_path / "s")
    ingest(r, all_history=True)
    before = viewcache.load_any(r.store)
    head = commit(repo, "2026-01-02T00:00:00Z", "docs", {"README": "y\n"})
    with r.store.writer():
        early = provisional_snapshot(r)
    assert list(early) == [head]
    after = viewcache.load_any(r.store)
    assert after[0]["head"] == head and after[0]["provisional"]
    assert after[1] == before[1] and np.array_equal(after[2], before[2])
    with snapfile.load(r.store.snapshot_file) as z:
        assert "lex_vocab" in z.files  # the lexical index came along
    ingest(r)
    final = viewcache.load_any(r.store)
    assert final[0]["id"] == after[0]["id"] and final[1] == before[1]


def test_code_commit_patches_the_snapshot_with_numpy_rows(new_repo, tmp_path):
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"app.py": "PORT = 1\nHOST = 'h'\n"})
    r = Repo.open(repo, store=tmp_path / "s")
    ingest(r, all_history=True)
    commit(repo, "2026-01-02T00:00:00Z", "b", {"app.py": "PORT = 2\nHOST = 'h'\n"})
    with r.store.writer():
        provisional_snapshot(r)
    state, rows, matrix = viewcache.load_any(r.store)
    assert matrix.dtype == np.float32 and matrix.shape[0] == len(rows) == 2
    assert sorted(row["value"] for row in rows) == ["2", "h"]
    ingest(r)
    final = viewcache.load_any(r.store)
    def by_id(snap):
        return {row["id"]: vec for row, vec in zip(snap[1], snap[2])}
    p, f = by_id((state, rows, matrix)), by_id(final)
    assert p.keys() == f.keys() and all(np.allclose(p[k], f[k], atol=1e-6) for k in p)


def _epoch(iso: str) -> int:
    import datetime

    return int(datetime.datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp())


@pytest.mark.parametrize("old_snapshot", [False, True], ids=["head-time", "older-snapshot"])
def test_provisional_snapshot_dates_a_skewed_commit_from_its_parents_valid_time(
        new_repo, tmp_path, old_snapshot):
    """The post-commit snapshot reads only the new commits from git and dates them from the
    head's valid time kept in the snapshot; a snapshot written before that was kept reads the
    whole history.  Either way a commit dated before its parent takes the parent's time, as in
    a full fold."""
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"app.py": "PORT = 1\n"})
    commit(repo, "2026-01-05T00:00:00Z", "b", {"app.py": "PORT = 2\n"})
    r = Repo.open(repo, store=tmp_path / "s")
    ingest(r, all_history=True)
    state = viewcache.load_any(r.store)[0]
    assert state["head_time"] == _epoch("2026-01-05T00:00:00Z")
    if old_snapshot:
        del state["head_time"]
        assert viewcache.restamp(r.store, state)
    commit(repo, "2026-01-03T00:00:00Z", "skewed clock", {"app.py": "PORT = 3\n"})
    with r.store.writer():
        assert provisional_snapshot(r)
    state, rows, _ = viewcache.load_any(r.store)
    assert state["provisional"] and state["head_time"] == _epoch("2026-01-05T00:00:00Z")
    assert [(row["value"], row["valid_from"]) for row in rows] == \
        [("3", _epoch("2026-01-05T00:00:00Z"))]
    ingest(r)
    final = viewcache.load_any(r.store)
    # the same view and facts; only the transaction time may differ (the provisional rows are
    # recorded when the snapshot is written, the ingest's a moment later: a second boundary
    # between them made this comparison fail now and then)
    def facts(rs):
        return [{k: v for k, v in row.items() if k != "recorded_at"} for row in rs]

    assert final[0]["id"] == state["id"] and facts(final[1]) == facts(rows)
    assert all(a["recorded_at"] >= b["recorded_at"] for a, b in zip(final[1], rows))
    full = Repo.open(repo, store=tmp_path / "full")
    ingest(full, all_history=True)
    assert _versions(full) == _versions(r)


def test_first_ingest_folded_batch_by_batch_equals_a_refold(new_repo, tmp_path, monkeypatch):
    from repomem.service import pipeline, view

    monkeypatch.setattr(pipeline, "RECORD_BATCH", 2)  # several batches, folded as they arrive
    repo = new_repo()
    for i in range(7):
        commit(repo, f"2026-01-0{i + 1}T00:00:00Z", f"c{i}",
               {"app.py": f"PORT = {i % 3}\n\n\ndef f{i}(x):\n    return x * {i}\n"})
    r = Repo.open(repo, store=tmp_path / "s")
    ingest(r, all_history=True)
    streamed = _versions(r)
    r.store.drop_views()  # the next writer folds the stored records from nothing
    r2 = Repo.open(repo, store=tmp_path / "s")
    view.sync_view(r2)
    assert _versions(r2) == streamed
    assert [f["value"] for f in facts(r2)["facts"] if f["key"].endswith("PORT")] == ["0"]


def test_first_ingest_writes_closed_versions_between_batches_and_the_view_is_a_refold(
        new_repo, tmp_path, monkeypatch):
    from repomem.service import pipeline, view
    from repomem.storage.store import FOREVER, Store

    monkeypatch.setenv("REPOMEM_WORKERS", "2")  # alone, this process writes the view at the end
    monkeypatch.setattr(pipeline, "RECORD_BATCH", 2)
    monkeypatch.setattr(view.EarlyRows, "MIN_ROWS", 1)
    early: list = []
    real = Store.put_versions

    def spy(self, versions, embedder):
        assert all(v.valid_to is not None for v in versions)  # closed: final rows only
        early.extend(v.id for v in versions)
        return real(self, versions, embedder)

    monkeypatch.setattr(Store, "put_versions", spy)
    repo = new_repo()
    for i in range(7):
        commit(repo, f"2026-01-0{i + 1}T00:00:00Z", f"c{i}",
               {"app.py": f"PORT = {i}\n\n\ndef f(x):\n    return x * {i}\n"})
    r = Repo.open(repo, store=tmp_path / "s")
    stats = ingest(r, all_history=True)
    with r.store.reader():
        closed = {row["id"] for row in r.store.rows() if row["valid_to"] != FOREVER}
    assert len(early) == len(set(early)) and set(early) == closed  # PORT 0..5, batch by batch
    assert len(closed) == 6 and stats["added"] == stats["versions"] == 8  # + PORT 6 and f
    streamed = _versions(r)
    r.store.drop_views()
    r2 = Repo.open(repo, store=tmp_path / "s")
    view.sync_view(r2)
    assert _versions(r2) == streamed
    assert [v["value"] for v in history(r2, "constant:app.py:PORT")["versions"]] == \
        [str(i) for i in range(7)]


def test_finished_facts_are_memoised_but_stay_redacted_and_keep_their_fingerprint():
    src = 'API_TOKEN = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"\n\n\ndef f(x):\n    return x\n'
    first = mine_file("app.py", src.encode())
    again = mine_file("app.py", src.encode())
    assert first == again
    token = [f for f in again if f.key.endswith("API_TOKEN")][0]
    assert token.value.startswith("<redacted:") and "ghp_" not in token.text
    moved = mine_file("app.py", (src + "\n\ndef g(y):\n    return y + 1\n").encode())
    f_old = [f for f in first if f.value == "f"][0]
    f_new = [f for f in moved if f.value == "f"][0]
    assert str(f_new.fingerprint) == str(f_old.fingerprint) != ""


def test_memoised_facts_of_moved_lines_keep_their_new_line_and_stay_redacted():
    src = 'def f(x):\n    return x\n\n\nAPI_TOKEN = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"\n'
    mine_file("app.py", src.encode())
    moved = mine_file("app.py", ("# a header\n\n" + src).encode())
    token = [f for f in moved if f.key.endswith("API_TOKEN")][0]
    assert token.line == 7 and token.value.startswith("<redacted:") and "ghp_" not in token.text
    assert [f.line for f in moved if f.value == "f"] == [3]


def _clear_mining_caches():
    from repomem.core import identity
    from repomem.miners import _FINISHED
    from repomem.miners.lang import python as py_miner

    _FINISHED.clear()
    py_miner._FACTS.clear()
    identity._CACHE.clear()


def test_python_function_facts_from_the_cache_equal_freshly_mined_ones():
    """Each version is mined after the one before (most functions come from the cache) and
    again with every cache emptied: facts, lines and fingerprints must agree."""
    base = ('from fastapi import APIRouter\nrouter = APIRouter(prefix="/v1")\n\n\n'
            '@router.get("/items")\ndef items(limit: int = 10):\n    """List items."""\n'
            '    return []\n\n\nclass Store:\n    def get(self, key):\n        return key\n')
    versions = [
        base,
        "# moved down\n\n" + base,  # every function moves
        base.replace("def items(limit: int = 10):", "def items(limit: int = 10):  # paged"),
        base.replace('prefix="/v1"', 'prefix="/v2"'),  # the route's value changes elsewhere
        base.replace("class Store:", "class Cache:"),  # same method text, another class
        base.replace('@router.get("/items")\n', ""),  # the decorator (its route) goes
    ]
    _clear_mining_caches()
    cached = [mine_file("api.py", v.encode()) for v in versions]
    for v, got in zip(versions, cached):
        _clear_mining_caches()
        fresh = mine_file("api.py", v.encode())
        assert got == fresh
        assert [f.line for f in got] == [f.line for f in fresh]
        assert [str(f.fingerprint) for f in got] == [str(f.fingerprint) for f in fresh]
    assert [f.value for f in cached[3] if f.kind == "route"] == ["GET /v2/items"]
    assert [f.anchor for f in cached[4] if f.value == "get"] == ["api.py::Cache.get"]
    assert not [f for f in cached[5] if f.kind == "route"]


def test_only_files_with_functions_need_their_old_version():
    assert _may_move("src/app.py") and _may_move("lib/router/index.js") and _may_move("a/b.go")
    assert not _may_move("package.json") and not _may_move("config/settings.yml")
    assert not _may_move("requirements.txt") and not _may_move("Dockerfile")


def test_fact_cache_keeps_each_paths_latest_version_however_old():
    from repomem.miners.mining import _FactCache

    cache = _FactCache(size=2)
    cache.put(("a.py", "a1"), ["a1"])
    for i in range(10):  # many other files change meanwhile
        cache.put((f"f{i}.py", "x"), [i])
    assert cache.get(("a.py", "a1")) == ["a1"]  # its next change reads it as the old version
    cache.put(("a.py", "a2"), ["a2"])
    cache.put(("a.py", "a0"), ["a0"], latest=False)  # an old version read back
    assert cache.get(("a.py", "a2")) == ["a2"] and cache.get(("a.py", "a1")) == ["a1"]
    assert cache.get(("a.py", "a0")) == ["a0"]
    cache.put(("b.py", "b1"), ["b1"], latest=False)
    cache.put(("b.py", "b0"), ["b0"], latest=False)
    assert cache.get(("a.py", "a1")) is None  # the LRU holds 2 besides the latest versions
    assert cache.get(("a.py", "a2")) == ["a2"]


@pytest.mark.timeout(60)
def test_prefetch_hands_blobs_in_order_and_never_waits_on_skipped_ones(new_repo, monkeypatch):
    from repomem.miners.mining import _Prefetch
    from tests.conftest import git as run_git

    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {f"f{i}.py": f"X = {i}\n" for i in range(20)})
    shas = [run_git(repo, "rev-parse", f"HEAD:f{i}.py") for i in range(20)]
    monkeypatch.setattr(_Prefetch, "AHEAD", 2)  # the skipped ones alone would fill it
    ahead = _Prefetch(repo, shas[:12] + ["0" * 40] + shas[12:])
    try:
        assert ahead.take(shas[0]) == (True, b"X = 0\n")
        # shas[1..9] were cached, say: the miner asks for shas[10] next, which the thread
        # can only read once the skipped ones are dropped
        assert ahead.take(shas[10]) == (True, b"X = 10\n")
        # asked for out of order after it was dropped (the thread is now waiting, full of
        # later blobs): read directly, never waited for
        assert ahead.take(shas[3]) == (False, None)
        assert ahead.take("0" * 40) == (True, None)  # missing from the repository
        assert ahead.take(shas[19]) == (True, b"X = 19\n")
        assert ahead.take("f" * 40) == (False, None)  # never asked for
    finally:
        ahead.close()


def test_keywords_found_line_by_line_are_the_keywords_of_the_text():
    from repomem.core import secret_scan

    filler = "".join(f"const value{i} = compute({i});\n" for i in range(60))  # over _LINE_MIN
    for text in [filler, filler + "// aws key here\n", "const t = 'ghp_" + filler,
                 filler + "hooks.slack.com/services/x\n" + filler]:
        low = text.lower()
        assert sorted(secret_scan._present(low)) == sorted(k for k in secret_scan._KEYWORDS
                                                          if k in low)
    assert "aws" in secret_scan._present((filler + "AWS_KEY = 1\n").lower())


def test_token_runs_line_by_line_are_the_runs_of_the_text():
    from repomem.core import secret_scan

    key = "AKIAIOSFODNN7EXAMPLEwJalrXUtnFEMIK7MDENG"
    text = "".join(f"x{i} = 'short'\r\n" for i in range(80)) + f"k = '{key}'\n" + "y" * 40
    expected = [m.span() for m in secret_scan._RUN.finditer(text)]
    assert len(text) >= secret_scan._LINE_MIN and len(expected) == 2
    assert secret_scan.token_runs(text) == expected
    assert secret_scan.token_runs(text) == expected  # from the cache of lines
    assert [text[a:b] for a, b in expected][0] == key


def test_worker_batches_are_cut_by_bytes_to_mine(new_repo, tmp_path, monkeypatch):
    from repomem.adapters import git as gitmod
    from repomem.service import pipeline

    repo = new_repo()
    for i in range(12):
        files = {"app.py": f"PORT = {i}\n"}
        if i == 6:  # a heavy commit: a big module (and a big file nobody mines, which costs nothing)
            files.update({"big.py": "".join(f"def f{j}(x):\n    return x\n\n\n" for j in range(800)),
                          "data.bin": "x" * 100_000})
        commit(repo, f"2026-01-{i + 1:02d}T00:00:00Z", f"c{i}", files)
    r = Repo.open(repo, store=tmp_path / "s")
    todo = gitmod.first_parent_chain(repo)
    monkeypatch.setattr(pipeline, "BATCHES_PER_WORKER", 2)
    batches = pipeline.plan_batches(r.root, todo, gitmod.changes(repo, todo), workers=2)
    assert [c for b in batches for c in b] == todo
    assert [b for b in batches if todo[6] in b] == [[todo[6]]]  # alone: as costly as all others
    assert len(batches) >= 3 and all(len(b) >= 2 for b in batches if todo[6] not in b)
    monkeypatch.setattr(pipeline, "RECORD_BATCH", 2)  # a commit cap still holds
    assert max(len(b) for b in pipeline.plan_batches(r.root, todo, gitmod.changes(repo, todo), 2)) == 2
