"""The benchmark's core in CI: repomem serves no superseded value in any condition while the
baselines do, the scorer labels what it should, and the perf harness runs on a tiny repository."""

from __future__ import annotations

import json

import pytest

from repomem.bench import perf, report, stale
from tests.conftest import cli

# One scenario each from the families where time handling matters most.
SUBSET = ["rename-users", "toml-billing-port", "dep-urllib3", "dep-gone-simplejson",
          "scoped-checkout", "set-ci-matrix", "revert-port", "move-shipping"]
# The noise condition builds ~350 unrelated facts with their own history into every scenario
# (~4x the cost of the others): here on three of the families (a renamed function, a setting,
# a deleted dependency); `repomem bench --quick` in CI runs it on the quick set.
NOISE_SUBSET = ["rename-users", "toml-billing-port", "dep-gone-simplejson"]


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    work = tmp_path_factory.mktemp("bench")
    main = stale.run(work / "main", only=SUBSET,
                     conditions=[c for c in stale.CONDITIONS if c != "noise"])
    noise = stale.run(work / "noise", only=NOISE_SUBSET, conditions=["noise"])
    rows = main["rows"] + noise["rows"]
    return dict(main, rows=rows, summary=stale.summarize(rows))


# The tests reading ``result`` run on one pytest-xdist worker (the README's test command uses
# --dist loadgroup): the ~20 s fixture is built once, not once per worker.
shares_result = pytest.mark.xdist_group("test_bench-result")


@shares_result
def test_repomem_serves_no_stale_value_in_any_condition(result):
    summ = result["summary"]
    assert set(summ) == set(stale.CONDITIONS)
    for cond, systems in summ.items():
        rm = systems["repomem"]
        assert rm["stale"] == 0 and rm["exposed"] == 0, (cond, rm)
        assert rm["accuracy"] >= 0.97 and rm["asof_accuracy"] >= 0.97, (cond, rm)


@shares_result
def test_scenarios_are_not_too_easy_for_the_baselines(result):
    summ = result["summary"]
    assert summ["many-versions"]["rag"]["stale"] > 0
    assert summ["newest-first"]["rag+arrival"]["stale"] > 0
    assert summ["in-order"]["rag+dates"]["stale"] > 0  # the deleted dependency
    assert all(summ[c]["rag+dates"]["exposed"] > 0 for c in summ)


@shares_result
def test_report_renders(result, tmp_path):
    md = report.stale_tables(result)
    assert "| repomem |" in md and "many-versions" in md
    png = report.chart(result, tmp_path / "c.png")
    if png:
        assert (tmp_path / "c.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_score_labels():
    q = {"about": {"kind": "config", "keys": ["config:p.toml:server.port"]}, "field": "value",
         "answer": "8080", "stale": ["8000"]}
    prod = {"kind": "config", "key": "config:p.toml:server.port", "path": "p.toml",
            "subject": "server.port in p.toml", "value": "8000"}
    staging = dict(prod, key="config:s.toml:server.port", path="s.toml")
    s = stale.score(q, [staging])  # staging's 8000 is not production's superseded value
    assert not s["stale"] and not s["exposed"] and not s["correct"]
    s = stale.score(q, [dict(prod, value="8080"), prod])
    assert s["correct"] and s["exposed"] and not s["stale"] and s["hit1"]
    gone = dict(q, answer=None, stale=["8000"])
    assert stale.score(gone, [prod])["stale"] and stale.score(gone, [staging])["correct"]


def test_generator_and_perf_harness(tmp_path):
    repo = tmp_path / "gen"
    perf.generate(repo, 60)
    # two timed commits each side of the hook overhead (its default, 20, waits out 20 workers)
    out = perf.measure(repo, tmp_path, "generated", asks=3, cold=1, incremental=1, hook_commits=2)
    assert out["commits"] == 60 and out["versions"] > 100
    assert out["ask_warm_p50_ms"] > 0 and out["incremental_p50_s"] is not None
    assert out["peak_rss_mb"] > 0 and out["ratio_to_git_log"] > 0
    hooks = out["hook_overhead"]  # a failure would be an "error: ..." string in the table
    assert isinstance(hooks, dict) and hooks["commits"] == 2, hooks
    assert hooks["with_hooks"]["median_ms"] > 0 and hooks["without_hooks"]["median_ms"] > 0
    assert "| commits/s |" in report.perf_table([out])


def test_cli_quick_json(tmp_path):
    rc, out, _ = cli("bench", "--quick", "--json", "--out", tmp_path, "--no-perf",
                     "--no-semantic", "--conditions", "in-order")
    data = json.loads(out)
    assert rc == 0
    assert data["stale"]["summary"]["in-order"]["repomem"]["stale"] == 0
