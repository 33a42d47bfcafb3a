"""The snapshot's file (repomem/service/snapfile.py): plain arrays that come back as written; a
file cut short, of another kind or whose header lies reads as damaged (ValueError), never as a
partial array; only plain numbers are written; an older repomem's .npz snapshot is still read
and answers, and the next ingest writes it in this format."""

from __future__ import annotations

import json

import numpy as np
import pytest

from repomem.adapters import git
from repomem.service import snapfile, viewcache
from repomem.service.ingest import ingest
from repomem.service.query import ask
from repomem.service.repo import Repo
from tests.conftest import commit

MEMBERS = {"embeddings": np.arange(12, dtype=np.float32).reshape(4, 3),
           "text": np.frombuffer("naïve ✓".encode(), dtype=np.uint8),
           "at": np.array([[1, 5], [7, 9]], dtype=np.int64), "flags": np.array([True, False]),
           "empty": np.zeros((0, 2), dtype=np.int64)}


def _write(path, members=MEMBERS) -> None:
    with open(path, "wb") as fh:
        snapfile.save(fh, members)


def test_members_come_back_as_written(tmp_path):
    _write(tmp_path / "s")
    with snapfile.load(tmp_path / "s") as z:
        assert z.files == list(MEMBERS) and "text" in z and "nope" not in z
        for name, a in MEMBERS.items():
            got = z[name]
            assert got.dtype == a.dtype and got.shape == a.shape and np.array_equal(got, a)
        assert z["text"].tobytes().decode() == "naïve ✓"
        z["embeddings"][0, 0] = 1.5  # writable, as numpy's own load gives them


def test_damaged_files_raise_value_error(tmp_path):
    _write(tmp_path / "s")
    whole = (tmp_path / "s").read_bytes()
    cut = tmp_path / "cut"
    cut.write_bytes(whole[:-100])  # into "at", the third member (each padded to 64 bytes)
    with snapfile.load(cut) as z:
        assert np.array_equal(z["embeddings"], MEMBERS["embeddings"])  # before the cut
        with pytest.raises(ValueError):
            z["at"]
    for name, data in (("other", b"not a snapshot at all"), ("head", whole[:10]),
                       ("zip", b"PK\x03\x04 and then nothing a zip has"),
                       ("lying", whole.replace(b'"size": 48', b'"size": 44', 1))):
        (tmp_path / name).write_bytes(data)
        with pytest.raises(ValueError):
            with snapfile.load(tmp_path / name) as z:
                [z[k] for k in z.files]
    with pytest.raises(ValueError):  # only plain numbers are written: nothing to unpickle
        _write(tmp_path / "obj", {"rows": np.array([{"a": 1}], dtype=object)})


def test_an_older_npz_snapshot_is_read_and_written_again(new_repo, tmp_path):
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"app.py": "PORT = 8080\n"})
    r = Repo.open(repo, store=tmp_path / "s")
    ingest(r, all_history=True)
    path = r.store.snapshot_file
    assert path.read_bytes().startswith(snapfile.MAGIC)
    with snapfile.load(path) as z:
        members = {k: z[k] for k in z.files}
    with open(path, "wb") as fh:  # as an older repomem wrote it
        np.savez(fh, **members)
    viewcache._LOADED.clear()
    assert not viewcache.exists(r.store, git.head(repo))
    got = viewcache.load_search(r.store)
    assert got is not None and json.loads(members["rows"].tobytes()) == got[1]
    assert ask(r, "which port?")["answer"] == "8080"
    ingest(r, all_history=True)
    assert path.read_bytes().startswith(snapfile.MAGIC)
    assert viewcache.exists(r.store, git.head(repo))
    assert ask(r, "which port?")["answer"] == "8080"


def test_json_members_read_as_the_standard_library_reads_them():
    """A JSON member (integers within 64 bits: times, lines, positions) is parsed by orjson, or
    by ``json`` where orjson refuses it (NaN): the same objects either way; no JSON is a
    ValueError."""
    for value in ([{"key": "a", "valid_to": 253402300799, "line": 2**63 - 1, "former": [],
                    "text": "naïve ✓ \u2028 \x00", "is_set": True, "end": None}],
                  {"n": float("nan"), "x": 0.1}, [-2**63], "x"):
        text = json.dumps(value, ensure_ascii=False)
        got = snapfile.json_member(np.frombuffer(text.encode(), dtype=np.uint8))
        assert json.dumps(got, ensure_ascii=False) == text
    with pytest.raises(ValueError):
        snapfile.json_member(np.frombuffer(b"{not json", dtype=np.uint8))
