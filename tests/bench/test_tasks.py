"""The task benchmark: its data files, the judge (served, stale, routes, the grep baseline), the
resolution of a context block to stored facts, and the runner end to end on a small real
repository with a history (a port and a pin that changed)."""

from __future__ import annotations

import json
import re

import pytest

from bench import taskbench as tasks
from bench import taskjudge
from tests.conftest import ROOT, bench_cli, commit

HELD_OUT = {"httpie", "pydantic-settings", "django-locallibrary-tutorial", "koa", "echo",
            "spring-boot-realworld-example-app"}
KINDS = {"function", "class", "route", "constant", "config", "dependency", "python", "docker"}


def test_task_files_follow_the_schema_and_the_fixed_split():
    files = sorted((ROOT / "bench" / "tasks").glob("*.json"))
    assert len(files) == 17
    ids = set()
    for f in files:
        data = json.loads(f.read_text())
        assert data["repo"] == f.stem
        assert data["split"] == ("held-out" if f.stem in HELD_OUT else "training")
        assert re.fullmatch(r"[0-9a-f]{40}", data["head"])
        assert len(data["prompts"]) >= 5
        for p in data["prompts"]:
            assert p["id"] not in ids and p["id"].startswith(f.stem)
            ids.add(p["id"])
            assert p["prompt"].strip() and p["needs"]
            for n in p["needs"]:
                assert set(n["kinds"]) <= KINDS and n["path"] and n["subject"]
                assert isinstance(n["value"], str) and n["value"]
                assert isinstance(n["stale"], list) and n["value"] not in n["stale"]
    # the quick subset is one repository of each group
    quick = tasks.load(quick=True)
    assert {d["split"] for d in quick.values()} == {"training", "held-out"}


NEED_PORT = {"path": "config.py", "subject": "PORT", "kinds": ["config", "constant"],
             "value": "8080", "stale": ["8000"]}
NEED_ROUTE = {"path": "api/routers.go", "subject": "Login", "kinds": ["route"],
              "value": "POST /api/users/login", "stale": []}


def test_a_fact_serves_a_need_by_kind_path_subject_and_value():
    fact = {"key": "config:config.py:Config.PORT", "kind": "config", "path": "config.py",
            "subject": "Config.PORT in config.py", "value": "8080"}
    assert taskjudge.serves(fact, NEED_PORT)
    assert not taskjudge.serves(dict(fact, value="8000"), NEED_PORT)
    assert not taskjudge.serves(dict(fact, path="settings.py"), NEED_PORT)
    assert not taskjudge.serves(dict(fact, subject="Config.HOST in config.py",
                                     key="config:config.py:Config.HOST"), NEED_PORT)
    assert taskjudge.about(dict(fact, value="'8080'  # default"), NEED_PORT)
    # version specs compare as specs; aligned white space as one space
    dep = {"path": "pyproject.toml", "subject": "rich", "kinds": ["dependency"],
           "value": ">=10,<15", "stale": []}
    assert taskjudge.serves({"kind": "dependency", "path": "pyproject.toml",
                             "subject": "rich dependency (pypi, main)", "value": "<15, >=10"}, dep)
    assert taskjudge.same("String @unique", "String    @unique", ["config"])
    # a name with a colon: an npm script, a Maven coordinate
    script = {"path": "package.json", "subject": "test:coverage", "kinds": ["config"],
              "value": "c8 node --test", "stale": []}
    assert taskjudge.serves({"kind": "config", "path": "package.json", "key":
                             "config:package.json:scripts.test:coverage",
                             "subject": "scripts.test:coverage in package.json",
                             "value": "c8 node --test"}, script)
    assert not taskjudge.serves({"kind": "config", "path": "package.json",
                                 "key": "config:package.json:scripts.test",
                                 "subject": "scripts.test in package.json",
                                 "value": "c8 node --test"}, script)


def test_a_route_matches_without_its_router_prefix_but_not_another_method():
    fact = {"kind": "route", "path": "api/routers.go", "subject": "route of Login",
            "value": "POST /login"}
    assert taskjudge.serves(fact, NEED_ROUTE)
    assert not taskjudge.serves(dict(fact, value="GET /login"), NEED_ROUTE)
    assert not taskjudge.serves(dict(fact, value="POST /"), NEED_ROUTE)
    django = dict(NEED_ROUTE, value="/catalog/book/<uuid:pk>/renew/")
    assert taskjudge.serves(dict(fact, value="ANY /catalog/book/<uuid:pk>/renew/"), django)


def test_stale_is_an_earlier_value_under_the_needs_key_or_in_its_old_file():
    old = {"key": "config:config.py:Config.PORT", "kind": "config", "path": "config.py",
           "subject": "Config.PORT in config.py", "value": "8000"}
    keys = {"config:config.py:Config.PORT"}
    assert taskjudge.stale(old, NEED_PORT, keys)
    assert not taskjudge.stale(dict(old, value="8080"), NEED_PORT, keys)
    # a sibling of the same name in the same file (another scope) states its own value
    assert not taskjudge.stale(dict(old, key="config:config.py:Test.PORT"), NEED_PORT, keys)
    moved = dict(NEED_PORT, old_paths=[{"path": "setup.cfg", "pattern": "x"}])
    assert taskjudge.stale(dict(old, key="config:setup.cfg:PORT", path="setup.cfg"), moved, keys)
    j = taskjudge.judge([NEED_PORT], [old], [keys])
    assert j == {"served": [False], "shown": 1, "useful": 0, "stale": 1,
                 "about_other_value": [True]}


def test_a_context_block_resolves_to_the_facts_it_renders():
    a = {"key": "k1", "kind": "config", "path": "config.py", "line": 4, "subject": "PORT",
         "value": "8080"}
    b = {"key": "k2", "kind": "function", "path": "config.py", "line": 4, "subject": "f",
         "value": "f"}
    text = ("## Repository facts\n- `OLD` is now `NEW`, renamed in abc\n"
            "- PORT: `8080` (config.py:4, commit 0123456789, 2024-01-01)\n    PORT = 8080\n"
            "- gone: `x` (other.py:9, commit 0123456789, 2024-01-01)\n")
    shown, unresolved = tasks.resolve(text, {("config.py", 4): [b, a]})
    assert [f.get("key") for f in shown] == ["k1", None] and unresolved == 1
    # a "same in" line shows the same fact in the files it names
    c = dict(a, key="k3", path="app/config.py", line=2)
    d = dict(a, key="k4", path="old/config.py", line=2, value="8000")
    text = ("- PORT: `8080` (config.py:4, 2024-01-01 0123456)\n"
            "  same in `app/config.py`:2, `old/config.py`:2\n")
    shown, _ = tasks.resolve(text, {("config.py", 4): [a], ("app/config.py", 2): [c],
                                    ("old/config.py", 2): [d]})
    assert [f["key"] for f in shown] == ["k1", "k3"]  # not k4: another value


@pytest.fixture
def served_repo(new_repo, tmp_path):
    """A Flask app whose port moved 8000 -> 8080 and whose flask pin moved 2.0 -> 3.0, and a
    task file that needs both (and a function)."""
    repo = new_repo("shop")
    app = ("from flask import Flask\napp = Flask(__name__)\n\n\n@app.route('/orders')\n"
           "def list_orders():\n    return []\n")
    commit(repo, "2024-01-10T12:00:00+00:00", "start",
           {"config.py": "class Config:\n    PORT = 8000\n", "requirements.txt": "flask==2.0.0\n",
            "app.py": app})
    commit(repo, "2024-03-01T12:00:00+00:00", "port and flask",
           {"config.py": "class Config:\n    PORT = 8080\n", "requirements.txt": "flask==3.0.0\n"})
    head = (repo / ".git" / "refs" / "heads" / "main").read_text().strip()
    tdir = tmp_path / "tasks"
    tdir.mkdir()
    needs = [dict(NEED_PORT, subject="PORT"),
             {"path": "requirements.txt", "subject": "flask", "kinds": ["dependency"],
              "value": "==3.0.0", "stale": ["==2.0.0"]}]
    (tdir / "shop.json").write_text(json.dumps({"repo": "shop", "split": "held-out", "head": head,
        "prompts": [{"id": "shop-t1", "shape": "two-part",
                     "prompt": "Change the Config PORT and upgrade flask", "needs": needs},
                    {"id": "shop-t2", "shape": "bug", "prompt": "listing orders returns nothing",
                     "needs": [{"path": "app.py", "subject": "list_orders",
                                "kinds": ["function"], "value": "list_orders", "stale": []}]}]}))
    return repo, tdir


def test_the_runner_judges_what_context_shows_on_a_real_history(served_repo, tmp_path,
                                                                 monkeypatch):
    repo, tdir = served_repo
    monkeypatch.setenv("REPOMEM_BENCH_CACHE", str(tmp_path / "cache"))
    res = tasks.run([repo], tdir=tdir, log=lambda m: None)
    assert res["repos"]["shop"]["status"] == "ok"
    rows = res["rows"]
    assert [x["id"] for x in rows] == ["shop-t1", "shop-t2"]
    assert rows[0]["in_store"] == [True, True] and rows[1]["in_store"] == [True]
    for b in tasks.BUDGETS:
        got = rows[0][str(b)]
        assert got["unresolved"] == 0 and got["stale"] == 0  # only current values are shown
        # what was counted as shown is what the block rendered, resolved to stored facts
        assert got["shown"] == len(got["got"]) and all(f["kind"] for f in got["got"])
    assert any(f["value"] == "8080" for f in rows[0]["400"]["got"])  # a tiny store fits
    g = res["groups"]["held-out"]
    assert g["prompts"] == 2 and g["needs"] == 3 and g["in_store"] == 1.0
    assert g["recall@400"] == round(sum(sum(x["400"]["served"]) for x in rows) / 3, 3)
    assert res["groups"]["training"]["prompts"] == 0
    # the grep baseline read the work tree: the pin's line has both the name and the value
    lines = taskjudge.grep_lines(repo, "upgrade flask", 400)
    assert ("requirements.txt", 1, "flask==3.0.0") in lines
    pin = {"path": "requirements.txt", "subject": "flask", "kinds": ["dependency"],
           "value": "==3.0.0"}
    assert taskjudge.judge_grep([pin], lines) == {"served": [True], "shown": len(lines),
                                                   "useful": 1}


def test_bench_tasks_skips_without_histories(tmp_path):
    rc, out, _ = bench_cli("tasks", tmp_path / "nothing", "--out", tmp_path / "o")
    assert rc == 0 and "skipped" in out
