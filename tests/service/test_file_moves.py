"""A file git says was renamed keeps its settings' histories (httpx/config.py became
httpx/_config.py in 2020, click/ became src/click/): the same value keeps its valid_from, and
the versions from before the rename are the new key's history, previous value and first seen."""

from __future__ import annotations

import subprocess

from repomem.adapters import git
from repomem.service.ingest import ingest
from repomem.service.query import ask, facts, history
from repomem.service.repo import Repo
from tests.conftest import commit, indexed

CONFIG_PY = "PORT = {port}\nTIMEOUT = 5\n\n\ndef connect(host):\n    return (host, PORT)\n"
SETTINGS_TOML = '[server]\nhost = "0.0.0.0"\nworkers = {workers}\n'


def _history():
    return (("2023-01-01T10:00:00Z", {"pkg/config.py": CONFIG_PY.format(port=1),
                                      "settings.toml": SETTINGS_TOML.format(workers=2),
                                      "pkg/other.py": "LIMIT = 10\n"}),
            ("2023-02-01T10:00:00Z", {"pkg/config.py": CONFIG_PY.format(port=2)}),
            # renamed, as `git mv` would: the old paths gone, the same contents at the new ones
            ("2023-03-01T10:00:00Z", {"pkg/config.py": None, "pkg/_config.py": CONFIG_PY.format(port=2),
                                      "settings.toml": None,
                                      "config/settings.toml": SETTINGS_TOML.format(workers=2)}),
            ("2023-04-01T10:00:00Z", {"pkg/_config.py": CONFIG_PY.format(port=3)}),
            # not a rename: another file, other contents
            ("2023-05-01T10:00:00Z", {"pkg/other.py": None, "pkg/limits.py": "LIMIT = 10\n\n\n"
                                      "def limit(n):\n    '''Clamp n to LIMIT.'''\n    return min(n, LIMIT)\n"}))


def test_git_reports_the_rename_as_a_delete_and_an_add_that_says_where_it_came_from(new_repo):
    repo = new_repo()
    for date, files in _history()[:3]:
        commit(repo, date, "c", files)
    chain = git.first_parent_chain(repo)
    moved = git.changes(repo, chain[-1:])[chain[-1].sha]
    assert [(ch.path, ch.old_blob is not None, ch.new_blob is not None, ch.moved_from) for ch in moved] == [
        ("config/settings.toml", False, True, "settings.toml"),
        ("pkg/_config.py", False, True, "pkg/config.py"),
        ("pkg/config.py", True, False, None),
        ("settings.toml", True, False, None)]
    # the same changes as without rename detection, in the same order
    out = subprocess.run(["git", "-C", str(repo), "diff-tree", "-r", "--no-renames", chain[-1].sha],
                         capture_output=True, text=True, check=True).stdout
    assert [ln.split("\t")[1] for ln in out.splitlines() if ln.startswith(":")] == \
        [ch.path for ch in moved]


def test_a_renamed_files_settings_keep_their_history(new_repo):
    r = indexed(new_repo(), *_history())
    now = {f["key"]: f for f in facts(r)["facts"]}
    timeout = now["constant:pkg/_config.py:TIMEOUT"]
    assert timeout["valid_from"].startswith("2023-01-01"), timeout  # not the rename's date
    assert "constant:pkg/config.py:TIMEOUT" not in now
    workers = now["config:config/settings.toml:server.workers"]
    assert workers["valid_from"].startswith("2023-01-01") and workers["path"] == "config/settings.toml"
    got = history(r, "constant:pkg/_config.py:PORT")["versions"]
    assert [(v["value"], v["valid_from"][:10], v["path"]) for v in got] == [
        ("1", "2023-01-01", "pkg/config.py"), ("2", "2023-02-01", "pkg/_config.py"),
        ("3", "2023-04-01", "pkg/_config.py")]
    assert [v["end_reason"] for v in got] == ["superseded", "superseded", None]
    # as of before the rename: the value then, cited where it stood then
    then = {f["key"]: f for f in facts(r, as_of="2023-02-15")["facts"]}
    assert then["constant:pkg/_config.py:PORT"]["value"] == "2"
    assert then["constant:pkg/_config.py:PORT"]["path"] == "pkg/config.py"
    assert then["constant:pkg/_config.py:PORT"]["subject"] == "PORT in pkg/config.py"
    assert now["constant:pkg/_config.py:PORT"]["subject"] == "PORT in pkg/_config.py"
    got = ask(r, "what was the previous port?")["facts"][0]
    assert got["key"] == "constant:pkg/_config.py:PORT" and got["previous"]["value"] == "2", got
    got = ask(r, "when was the timeout added?")["facts"][0]
    assert got["first_seen"]["date"].startswith("2023-01-01"), got
    # another file with the same setting is no rename: a new history
    assert now["constant:pkg/limits.py:LIMIT"]["valid_from"].startswith("2023-05-01")
    assert [v["value"] for v in history(r, "constant:pkg/limits.py:LIMIT")["versions"]] == ["10"]


def test_commit_by_commit_equals_the_whole_history_at_once(new_repo, tmp_path):
    """The post-commit path (the saved fold state, one commit at a time) carries a rename over
    as a full fold does."""
    repo = new_repo()
    whole = Repo.open(repo, store=tmp_path / "whole")
    stepwise = Repo.open(repo, store=tmp_path / "stepwise")
    for date, files in _history():
        commit(repo, date, "c", files)
        ingest(stepwise)
    ingest(whole, all_history=True)

    def versions(r):
        with r.store.reader():
            return sorted((x["key"], x["value"], x["valid_from"], x["valid_to"], x["path"],
                           tuple(x.get("moved_from") or ())) for x in r.store.rows())

    assert versions(stepwise) == versions(whole)
    assert any(row[5] == ("constant:pkg/config.py:PORT",) for row in versions(whole))
