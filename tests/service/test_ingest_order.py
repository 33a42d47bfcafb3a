"""Order independence, idempotence and one-current-version on real git repositories.

A seeded random history (config values, constants, dependencies, function renames, deleted
files, unparseable commits, reverts) is ingested in order, reversed, shuffled and in shuffled
batches into separate stores; `facts --json` at every commit's time and `history --json` of every
key must be identical."""

from __future__ import annotations

import json
import random

import pytest

from repomem.service.ingest import ingest
from repomem.service.query import facts, history
from repomem.service.repo import Repo
from tests.conftest import cli, commit, git

BODIES = [
    "    rows = db.query(User).filter(User.id == user_id)\n    return rows.first()\n",
    "    total = sum(item.price * item.qty for item in cart.items)\n    return round(total, 2)\n",
    "    token = sign({'sub': user.id, 'exp': now() + TTL})\n    return token.decode('ascii')\n",
]
NAMES = [["get_user", "fetch_user", "load_user", "find_user"],
         ["cart_total", "compute_total", "sum_cart"],
         ["issue_token", "make_token", "sign_user"]]


def random_history(repo, seed: int, n: int = 14) -> list[str]:
    rnd = random.Random(seed)
    names = [0, 0, 0]
    state = {"port": 8000, "workers": 2, "timeout": 30, "requests": "2.31.0", "flask": "3.0.0",
             "has_flask": True, "broken": False}
    shas, snapshots = [], []

    def files():
        funcs = "".join(f"def {NAMES[i][names[i]]}(x):\n{BODIES[i]}\n\n" for i in range(3))
        reqs = f"requests=={state['requests']}\n" + (
            f"flask=={state['flask']}\n" if state["has_flask"] else "")
        toml = f"[server]\nport = {state['port']}\nworkers = {state['workers']}\n"
        if state["broken"]:
            toml = toml.replace("workers =", "workers = [")
        return {"app/service.py": f"TIMEOUT = {state['timeout']}\n\n\n{funcs}",
                "config/app.toml": toml, "requirements.txt": reqs,
                "config/staging.yaml": f"server:\n  port: {state['port'] + 1}\n"}

    for i in range(n):
        op = rnd.choice(["port", "workers", "timeout", "dep", "rename", "flask", "break", "revert"])
        state["broken"] = False
        if op == "port":
            state["port"] = rnd.choice([8000, 8080, 9000, 8443])
        elif op == "workers":
            state["workers"] = rnd.randint(1, 8)
        elif op == "timeout":
            state["timeout"] = rnd.choice([30, 60, 90])
        elif op == "dep":
            state["requests"] = rnd.choice(["2.31.0", "2.32.3", "2.28.2"])  # up and down
        elif op == "rename":
            j = rnd.randrange(3)
            names[j] = (names[j] + 1) % len(NAMES[j])
        elif op == "flask":
            state["has_flask"] = not state["has_flask"]
        elif op == "break":
            state["broken"] = True
        if op == "revert" and snapshots:
            files_now = snapshots[rnd.randrange(len(snapshots))]
        else:
            files_now = files()
        snapshots.append(files_now)
        date = f"2026-01-{1 + i:02d}T12:00:00+00:00"
        if i == 5:  # clock skew: a commit dated before its parent must not reorder history
            date = "2025-12-01T12:00:00+00:00"
        shas.append(commit(repo, date, f"change {i}: {op}", files_now))
    return shas


def snapshot(r: Repo, shas: list[str]) -> str:
    out = {"now": facts(r)["facts"]}
    for sha in shas:
        out[sha] = facts(r, as_of=sha)
    keys = sorted({f["key"] for sha in shas for f in out[sha]["facts"]})
    out["history"] = {k: history(r, k) for k in keys}
    return json.dumps(out, sort_keys=True)


@pytest.mark.parametrize("seed", [1, 2])
def test_ingestion_order_does_not_matter(new_repo, tmp_path, seed):
    repo = new_repo()
    shas = random_history(repo, seed)
    rnd = random.Random(seed)
    shuffled = shas[:]
    rnd.shuffle(shuffled)
    orders = {"in_order": [shas], "reversed": [[s] for s in reversed(shas)],
              "one_by_one": [[s] for s in shas],  # the incremental fold, as hooks drive it
              "shuffled": [[s] for s in shuffled],
              "batches": [shuffled[i:i + 4] for i in range(0, len(shuffled), 4)],
              "head_first_then_all": [[shas[-1]], shas]}
    results = {}
    for name, batches in orders.items():
        r = Repo.open(repo, store=tmp_path / f"store-{name}")
        for batch in batches:
            ingest(r, revs=batch)
        results[name] = snapshot(r, shas)
        # one current version per key, at every commit's time (the snapshot holds facts(r,
        # as_of=sha) of every commit: asked once, not twice)
        at = json.loads(results[name])
        for sha in shas:
            keys = [f["key"] for f in at[sha]["facts"]]
            assert len(keys) == len(set(keys))
    assert len(set(results.values())) == 1, [n for n in results if
                                              results[n] != results["in_order"]]
    assert json.loads(results["in_order"])["now"]


def test_reingest_is_a_no_op(new_repo, tmp_path):
    repo = new_repo()
    shas = random_history(repo, 3, n=8)
    r = Repo.open(repo, store=tmp_path / "s")
    ingest(r, all_history=True)
    before = snapshot(r, shas)
    with r.store.reader():
        n_recs, n_versions = len(r.store.ingested()), r.store.count_versions()
    stats = ingest(r, revs=shas[:4])
    stats2 = ingest(r, all_history=True)
    assert stats["new"] == stats2["new"] == 0
    assert snapshot(r, shas) == before
    with r.store.reader():
        assert (len(r.store.ingested()), r.store.count_versions()) == (n_recs, n_versions)


def test_cli_orders_give_identical_json(new_repo, tmp_path):
    repo = new_repo()
    shas = random_history(repo, 4, n=6)
    outs = []
    for name, batches in {"fwd": [shas], "rev": [list(reversed(shas))]}.items():
        store = tmp_path / name
        for b in batches:
            cli("ingest", "--repo", repo, "--store", store, "-q", *b)
        f = cli("facts", "--repo", repo, "--store", store, "--as-of", "HEAD", "--json")[1]
        keys = sorted(x["key"] for x in json.loads(f)["facts"])
        keys = [k for k in keys if k.startswith(("function:", "config:config/app.toml"))][:3]
        h = [cli("history", k, "--repo", repo, "--store", store, "--json")[1] for k in keys]
        outs.append((f, h))
    assert outs[0] == outs[1]


def test_incremental_fold_writes_only_what_changed(new_repo, tmp_path):
    repo = new_repo()
    shas = random_history(repo, 5, n=6)
    r = Repo.open(repo, store=tmp_path / "s")
    ingest(r, revs=shas[:-1])
    commit(repo, "2026-02-01T00:00:00+00:00", "port", {"config/app.toml": "[server]\nport = 1\n"})
    stats = ingest(r, all_history=True)
    # one new commit: the port's new version, its predecessor closed, workers removed
    assert stats["new"] == 2 and stats["dropped"] == 0
    assert 1 <= stats["added"] + stats["updated"] <= 8
    full = Repo.open(repo, store=tmp_path / "full")
    ingest(full, all_history=True)
    assert snapshot(r, shas) == snapshot(full, shas)


def test_parallel_mining_gives_the_same_ledger(new_repo, tmp_path, monkeypatch):
    repo = new_repo()
    shas = random_history(repo, 6, n=10)
    seq = Repo.open(repo, store=tmp_path / "seq")
    ingest(seq, all_history=True)
    monkeypatch.setenv("REPOMEM_WORKERS", "2")
    monkeypatch.setattr("repomem.service.pipeline.RECORD_BATCH", 3)  # several batches, out of two processes
    par = Repo.open(repo, store=tmp_path / "par")
    ingest(par, all_history=True)
    assert snapshot(par, shas) == snapshot(seq, shas)


def test_clock_skew_never_reorders_history(new_repo, tmp_path):
    repo = new_repo()
    commit(repo, "2026-01-02T00:00:00+00:00", "a", {"c.toml": "port = 1\n"})
    commit(repo, "2025-06-01T00:00:00+00:00", "b", {"c.toml": "port = 2\n"})  # skewed clock
    r = Repo.open(repo, store=tmp_path / "s")
    ingest(r, all_history=True)
    vs = history(r, "config:c.toml:port")["versions"]
    assert [v["value"] for v in vs] == ["1", "2"]
    assert vs[1]["valid_from"] == "2026-01-02T00:00:00+00:00"  # not earlier than its parent
    assert facts(r)["facts"][0]["value"] == "2"
    assert git(repo, "log", "-1", "--format=%ci").startswith("2025-06-01")
