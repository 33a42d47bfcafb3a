"""A small repository with a real history (constants, config keys, functions, a rename), and a
snapshot of a store's whole ledger for comparing two stores."""

from __future__ import annotations

from tests.conftest import commit


def build_history(repo, n: int = 24) -> list[str]:
    shas = []
    for i in range(n):
        files = {
            "app.py": (f"PORT = {8000 + i}\nTIMEOUT = {30 + i // 3}\n\n\n"
                       f"def {'handle' if i < n // 2 else 'serve'}(request):\n"
                       f"    \"\"\"Handle a request.\"\"\"\n    return request  # {i // 4}\n"),
            "config.toml": f"[server]\nhost = \"h{i // 2}\"\nworkers = {1 + i % 5}\n",
        }
        if i % 6 == 5:
            files[f"mod{i}.py"] = f"LIMIT_{i} = {i}\n"
        if i == n - 2:
            files["mod5.py"] = None
        day = 1 + i // 2
        shas.append(commit(repo, f"2026-03-{day:02d}T{10 + i % 2}:00:00+00:00", f"c{i}", files))
    return shas


def ledger_snapshot(repo, store) -> dict:
    """facts --json and history --json of every key, as an uninterrupted run would print them."""
    from repomem.service.query import facts, history
    from repomem.service.repo import Repo

    r = Repo.open(repo, store)
    cur = facts(r)["facts"]
    with r.store.reader():
        keys = sorted({row["key"] for row in r.store.rows()})
    return {"facts": cur, "history": {k: history(r, k)["versions"] for k in keys}}
