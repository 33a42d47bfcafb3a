"""A question's work is bounded: a 1 MB question (a stack trace pasted into a prompt) is
answered from its first part, with a note, by `ask` and by `context` (what the hook and the
MCP server call).  It never ended before.  Its time is measured by bench/ask_cost.py;
here a subprocess deadline only keeps a regression from hanging the suite."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from repomem.service.bounds import MAX_QUESTION, bounded_question
from tests.conftest import ROOT, cli, commit, git


def stack_trace(n: int) -> str:
    lines, i = [], 0
    while sum(map(len, lines)) < n:
        lines.append(f'  File "/srv/app/module_{i % 37}/handler.py", line {i * 7 % 900}, in '
                     f"process_{i % 13}\n    result = self.dispatch(request, n={i % 5})\n")
        i += 1
    return "which port does the server listen on?\n" + "".join(lines)[:n]


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    repo = tmp_path_factory.mktemp("q") / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "2026-01-01T00:00:00Z", "a", {"app.py": "PORT = 8080\nTIMEOUT_1 = 30\n"})
    cli("init", "--repo", repo, "--no-hooks")
    return repo


def run(*args) -> tuple[int, str, str]:
    proc = subprocess.run([sys.executable, "-m", "repomem", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def test_a_long_question_on_the_command_line(repo):
    q = stack_trace(120_000)  # about what one argument may hold (Linux: 128 KB)
    rc, out, err = run("ask", q, "--repo", repo, "--json")
    got = json.loads(out)
    assert rc == 0 and got["answer"] == "8080"
    assert "120,0" in got["note"] and "first" in got["note"] and "first" in err
    assert len(got["question"]) <= MAX_QUESTION
    rc, out, err = run("context", q, "--repo", repo)
    assert rc == 0 and "8080" in out


SCRIPT = """
import json, sys
sys.path.insert(0, ".")
from tests.service.test_question_bounds import stack_trace
from repomem.service.context import build_context
from repomem.service.query import ask
from repomem.service.repo import Repo
r = Repo.open(sys.argv[1])
q = stack_trace(1_000_000)
got = ask(r, q)
print(json.dumps({"answer": got["answer"], "note": got.get("note"),
                  "context": build_context(r, q)}))
"""


def test_a_one_megabyte_question_through_the_service(repo):
    """As the MCP server and the hook hand it over (no argument-size limit there)."""
    proc = subprocess.run([sys.executable, "-c", SCRIPT, str(repo)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    got = json.loads(proc.stdout)
    assert got["answer"] == "8080" and "1,000,0" in got["note"] and "8080" in got["context"]


def test_short_questions_are_untouched():
    assert bounded_question("which port?") == ("which port?", None)
    cut, note = bounded_question("word " * 1000)
    assert len(cut) <= MAX_QUESTION and cut.endswith("word") and note
