"""`python -m bench speed` on a small real repository: every figure is there and consistent."""

from __future__ import annotations

from bench import speed
from tests.conftest import commit


def test_speed_figures_on_a_small_history(new_repo, tmp_path):
    repo = new_repo()
    for i in range(4):
        commit(repo, f"2026-01-0{i + 1}T00:00:00Z", f"c{i}",
               {"app.py": f"PORT = {8000 + i}\n\ndef serve(host):\n    return bind(host, PORT)\n",
                "README.md": "docs\n"})
    # one timed commit of each kind (each is a `repomem ingest` process, plus one to reset)
    res = speed.measure(repo, tmp_path / "work", workers=(1,), profile=True, hook=1)
    assert res["commits"] == 4 and res["git_log_s"] > 0
    (run,) = res["runs"]
    assert run["versions"] >= 3 and run["bytes_per_version"] > 0 and run["peak_rss_mb"] > 0
    assert run["ratio"] >= 1  # ingesting costs more than reading the diffs
    assert run["cpu_s"] > 0  # user + sys of the ingest process and its workers
    # answerable (the snapshot for the new HEAD) comes no later than the whole ingest
    assert 0 < res["hook_p50_s"] <= res["hook_full_p50_s"]
    assert 0 < res["code_p50_s"] <= res["code_full_p50_s"]  # app.py gained a function each time
    assert res["daemon_p50_s"] > 0  # the same with hooks and a daemon (it raises if never seen)
    labels = [label for label, _, _ in res["profile"]["parts"]]
    assert "mining (git blobs + miners)" in labels and res["profile"]["total_s"] > 0
    md = speed.markdown([res])
    assert "| " + repo.name + " | 4 |" in md and "Profile of one single-worker ingest" in md
    assert "adds a function to a source file" in md and "`repomem daemon` running" in md
    # the benchmark leaves the repository as it found it: no commit, hook or daemon of its own
    from repomem.integrations import daemon
    from tests.conftest import git
    assert git(repo, "rev-list", "--count", "HEAD").strip() == "4"
    assert not (repo / ".git" / "hooks" / "post-commit").exists()
    assert daemon.running(tmp_path / "work" / f"store-{repo.name}") is None
