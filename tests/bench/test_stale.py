"""The benchmark's core in CI: repomem serves no superseded value in any condition while the
baselines do, the scorer labels what it should, and the perf harness runs on a tiny repository."""

from __future__ import annotations

import json

import pytest

from bench import perf, report, stale
from tests.conftest import bench_cli

# One scenario each from the families where time handling matters most.
SUBSET = ["rename-users", "toml-billing-port", "dep-urllib3", "dep-gone-simplejson",
          "scoped-checkout", "set-ci-matrix", "revert-port", "move-shipping"]
# The noise condition builds ~350 unrelated facts with their own history into every scenario
# (~4x the cost of the others): here on three of the families (a renamed function, a setting,
# a deleted dependency); `python -m bench stale --quick` in CI runs it on the quick set.
NOISE_SUBSET = ["rename-users", "toml-billing-port", "dep-gone-simplejson"]


# Where a baseline must serve superseded values (the scenarios are not too easy for it).
BASELINE_STALE = {"many-versions": "rag", "newest-first": "rag+arrival",
                  "in-order": "rag+dates"}  # in order: the deleted dependency


@pytest.fixture(scope="module")
def bench(tmp_path_factory):
    """``bench(cond)``: the stale benchmark on one condition, run once per process.  One test per
    condition, so pytest-xdist spreads the 3-6 s runs over its workers; the scenario
    repositories are built once and shared by the conditions, as in one ``stale.run``."""
    work = tmp_path_factory.mktemp("bench")
    built: dict = {}
    done: dict[str, dict] = {}

    def run(cond: str) -> dict:
        if cond not in done:
            done[cond] = stale.run(work, conditions=[cond], built=built,
                                   only=NOISE_SUBSET if cond == "noise" else SUBSET)
        return done[cond]
    return run


@pytest.mark.parametrize("cond", stale.CONDITIONS)
def test_repomem_serves_no_stale_value_in_any_condition(bench, cond):
    summ = bench(cond)["summary"]
    assert set(summ) == {cond}
    rm = summ[cond]["repomem"]
    assert rm["questions"] >= len(NOISE_SUBSET), rm
    assert rm["stale"] == 0 and rm["exposed"] == 0, rm
    assert rm["accuracy"] >= 0.97 and rm["asof_accuracy"] >= 0.97, rm
    # The scenarios are not too easy for the baselines (same condition, same run).
    assert summ[cond]["rag+dates"]["exposed"] > 0, summ[cond]["rag+dates"]
    if cond in BASELINE_STALE:
        assert summ[cond][BASELINE_STALE[cond]]["stale"] > 0, summ[cond]


def test_report_renders(bench, tmp_path):
    rows = bench("in-order")["rows"] + bench("many-versions")["rows"]
    result = dict(bench("in-order"), rows=rows, summary=stale.summarize(rows))
    md = report.stale_tables(result)
    assert "| repomem |" in md and "| in-order | many-versions |" in md
    png = report.chart(result, tmp_path / "c.png")
    assert png, "matplotlib (the test extra) draws the chart"
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
    rc, out, _ = bench_cli("stale", "--quick", "--json", "--out", tmp_path, "--no-perf",
                           "--no-semantic", "--conditions", "in-order")
    data = json.loads(out)
    assert rc == 0
    assert data["stale"]["summary"]["in-order"]["repomem"]["stale"] == 0
