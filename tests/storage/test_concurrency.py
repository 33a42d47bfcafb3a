"""One safe writer: hook workers, daemons, CLI queries and servers may use one store at once.
Several writer processes (each ingesting different, partly overlapping commits of one repo) and
reader processes (ask, facts) run concurrently; then every commit is in the ledger exactly once,
every key has one current version, the facts equal a clean single-process ingest, and a reader
whose client was opened before the writes sees all of them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from repomem.service.ingest import ingest
from repomem.service.repo import Repo
from repomem.storage.store import FOREVER, Store
from tests.conftest import git
from tests.support.history import build_history, ledger_snapshot

SUPPORT = Path(__file__).resolve().parents[1] / "support"


def test_concurrent_writers_and_readers(new_repo, tmp_path):
    repo = new_repo()
    shas = build_history(repo, n=12)
    store = tmp_path / "store"
    ingest(Repo.open(repo, store), revs=[shas[0]], progress=False)
    early = Store(store)
    with early.reader():
        assert early.ingested() == {shas[0]}  # this client is open before the others write

    rest = shas[1:]
    jobs = [["writer", *rest[0::3], rest[4]], ["writer", *rest[1::3], rest[0]],
            ["writer", *rest[2::3], rest[1]], ["reader", "6"], ["reader", "6"]]
    procs = [subprocess.Popen([sys.executable, str(SUPPORT / "stress_proc.py"), job[0], str(repo),
                               str(store), *job[1:]], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for job in jobs]
    outs = []
    for p in procs:
        out, err = p.communicate(timeout=120)  # a hang (chroma opened twice) fails here
        assert p.returncode == 0, err[-3000:]
        outs.append(json.loads(out.strip().splitlines()[-1]))
    assert sum(len(o["seen"]) for o in outs) == len(rest) + 3 + 12

    # The early reader's next read is not stale.
    with early.reader():
        ids = early.record_shas()
        assert sorted(ids) == sorted(shas) and len(ids) == len(set(ids))
        current = early.rows({"valid_to": FOREVER})
    keys = [row["key"] for row in current]
    assert len(keys) == len(set(keys))

    ref = tmp_path / "ref"
    ingest(Repo.open(repo, ref), all_history=True, progress=False)
    assert ledger_snapshot(repo, store) == ledger_snapshot(repo, ref)
    assert git(repo, "status", "--porcelain") == ""


def test_writer_inside_reader_is_refused(tmp_path):
    import pytest

    s = Store(tmp_path / "store")
    with s.reader():
        with pytest.raises(RuntimeError, match="cannot be upgraded"):
            with s.writer():
                pass
    with s.writer():
        with s.reader():  # a read inside a write is fine
            pass
