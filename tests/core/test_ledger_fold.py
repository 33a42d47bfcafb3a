"""Property tests of the pure ledger fold against a simple reference model.

The reference replays file states commit by commit; the ledger must agree with it at every
commit's time, keep at most one current version per key, chain superseded versions to their
successors, and never lose a version.  Real-git order independence is in test_ingest_order.py.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from repomem.core.ledger import REMOVED, SUPERSEDED, fold
from repomem.core.model import CONFIG, Fact
from repomem.core.records import CommitRecord

PATHS = ["a.toml", "b.toml"]
KEYS = ["port", "host", "timeout"]


def fact(path, key, value, line=1):
    return Fact(key=f"config:{path}:{key}", kind=CONFIG, subject=f"{key} in {path}", value=value,
                path=path, line=line, text=f"{key} = {value}", purpose=key)


# A commit touches some files: each gets a full new state, is deleted ({}), or fails to parse
# (None: the file is left out of the record, so its facts stay as they were).
file_state = st.one_of(st.none(), st.dictionaries(st.sampled_from(KEYS),
                                                  st.sampled_from(["1", "2", "3"]), max_size=3))
commit_st = st.dictionaries(st.sampled_from(PATHS), file_state, min_size=1, max_size=2)


def records(commits):
    out = []
    for i, files in enumerate(commits):
        rec = CommitRecord(sha=f"c{i:03d}", parent=f"c{i - 1:03d}" if i else None, ct=1000 + i)
        for path, state in files.items():
            if state is not None:
                rec.files[path] = [fact(path, k, v, line=n + 1) for n, (k, v) in
                                   enumerate(sorted(state.items()))]
            else:
                rec.skipped.append((path, "syntax error"))
        out.append((rec, 1000 + 10 * i, 0))
    return out


def reference(commits):
    """value of each key after each commit, by replaying file states."""
    files: dict[str, dict] = {}
    timeline = []
    for c in commits:
        for path, state in c.items():
            if state is not None:
                files[path] = dict(state)
        timeline.append({f"config:{p}:{k}": v for p, s in files.items() for k, v in s.items()})
    return timeline


@settings(max_examples=300, deadline=None)
@given(st.lists(commit_st, min_size=1, max_size=12))
def test_fold_matches_reference(commits):
    recs = records(commits)
    ledger = fold(recs)
    expected = reference(commits)
    keys = {v.key for v in ledger.versions}
    for i, (_, t, _) in enumerate(recs):
        for key in keys | set(expected[i]):
            valid = [v for v in ledger.versions if v.key == key and v.valid_at(t)]
            assert len(valid) <= 1, "two current versions of one key"
            got = valid[0].value if valid else None
            assert got == expected[i].get(key), (i, key)


@settings(max_examples=200, deadline=None)
@given(st.lists(commit_st, min_size=1, max_size=12))
def test_versions_chain_and_nothing_is_lost(commits):
    ledger = fold(records(commits))
    by_id = {v.id: v for v in ledger.versions}
    assert len(by_id) == len(ledger.versions)
    for v in ledger.versions:
        if v.valid_to is None:
            assert v.end_reason is None and ledger.open[v.key] is v
        elif v.end_reason == SUPERSEDED:
            nxt = by_id[v.superseded_by]
            assert nxt.key == v.key and nxt.valid_from == v.valid_to and nxt.value != v.value
        else:
            assert v.end_reason == REMOVED and v.superseded_by is None
    # intervals of one key never overlap
    for key in {v.key for v in ledger.versions}:
        vs = sorted((v for v in ledger.versions if v.key == key), key=lambda v: v.valid_from)
        for a, b in zip(vs, vs[1:]):
            assert a.valid_to is not None and a.valid_to <= b.valid_from


@settings(max_examples=100, deadline=None)
@given(st.lists(commit_st, min_size=1, max_size=10))
def test_fold_is_deterministic(commits):
    a, b = fold(records(commits)), fold(records(commits))
    assert [vars(v) for v in a.versions] == [vars(v) for v in b.versions]


def test_same_value_with_moved_line_is_not_a_new_version():
    recs = records([{"a.toml": {"port": "1"}}, {"a.toml": {"host": "x", "port": "1"}}])
    ledger = fold(recs)
    port = [v for v in ledger.versions if v.key == "config:a.toml:port"]
    assert len(port) == 1 and port[0].line == 2  # provenance follows the file


def test_key_in_two_files_takes_one_deterministic_source():
    dep = "dependency:pypi:.:main:requests"

    def d(path, value):
        return Fact(key=dep, kind="dependency", subject="requests", value=value, path=path,
                    line=1, text=value, purpose="requests")

    r1 = CommitRecord("c1", None, 1, {"requirements.txt": [d("requirements.txt", "==1")],
                                      "pyproject.toml": [d("pyproject.toml", "==2")]})
    r2 = CommitRecord("c2", "c1", 2, {"pyproject.toml": []})
    ledger = fold([(r1, 1, 0), (r2, 2, 0)])
    assert [v.value for v in ledger.versions] == ["==2", "==1"]
    assert ledger.open[dep].path == "requirements.txt"
