"""One process of the concurrency stress test (tests/storage/test_concurrency.py).

  python stress_proc.py writer REPO STORE SHA...   ingest each commit, one writer lock each
  python stress_proc.py reader REPO STORE N        N rounds of ask + facts

Prints one JSON line: what it saw.  Any exception fails the process (and the test)."""

from __future__ import annotations

import json
import sys
from collections import Counter

from repomem.service.ingest import ingest
from repomem.service.query import ask, facts
from repomem.service.repo import Repo


def main(mode: str, repo: str, store: str, *rest: str) -> None:
    r = Repo.open(repo, store)
    seen = []
    if mode == "writer":
        for sha in rest:
            ingest(r, revs=[sha], create=False, progress=False)
            with r.store.reader():
                seen.append(len(r.store.ingested()))
    else:
        for _ in range(int(rest[0])):
            with r.store.reader():
                seen.append(len(r.store.ingested()))
            assert ask(r, "PORT in app.py", k=3)["facts"]
            keys = Counter(f["key"] for f in facts(r)["facts"])
            assert all(n == 1 for n in keys.values()), keys.most_common(3)
    # Reads never go back in time: once a write completed, every later read sees it.
    assert seen == sorted(seen), seen
    print(json.dumps({"mode": mode, "seen": seen}))


if __name__ == "__main__":
    main(*sys.argv[1:])
