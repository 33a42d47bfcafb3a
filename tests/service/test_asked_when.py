"""A time the question itself names is the time asked, when no --as-of/as_of says otherwise;
an empty question is a one-line error."""

from __future__ import annotations

import pytest

from repomem.service.context import build_context
from repomem.service.ingest import ingest
from repomem.service.query import ask, asked, asked_when, history
from repomem.service.question import adopted
from repomem.service.repo import Repo
from tests.conftest import cli, commit


@pytest.mark.parametrize("question, when", [
    ("What was the default timeout in 2019?", "2019-12-31"),
    ("On 2024-01-02, which version of certifi does tiny require?", "2024-01-02"),
    ("as of 2024-01-02T12:00:00Z, what port does the API listen on", "2024-01-02T12:00:00Z"),
    ("What port did the API use during 2023", "2023-12-31"),
    ("which python versions are supported", None),
    ("what did the 2019 release change", None),  # a year that is no time asked
    ("what does the 2019-05 migration do", None),
    ("which port in 20190", None),
])
def test_asked_when(question, when):
    assert asked_when(question) == when


@pytest.fixture
def service(new_repo):
    root = new_repo()
    commit(root, "2023-03-01T10:00:00Z", "api", {"api/config.py": "PORT = 8000\n"})
    commit(root, "2024-01-05T10:00:00Z", "move", {"api/config.py": "PORT = 8080\n"})
    r = Repo.open(root)
    ingest(r, all_history=True, progress=False)
    return r


def _ask(r, question, as_of=None):
    return ask(r, question, asked(question, as_of))


def test_the_question_names_the_time(service):
    assert _ask(service, "Which port does the API listen on?")["answer"] == "8080"
    got = _ask(service, "Which port did the API listen on in 2023?")
    assert (got["answer"], got["as_of"][:10]) == ("8000", "2023-12-31")
    assert _ask(service, "On 2024-01-06, which port does the API listen on?")["answer"] == "8080"
    # an explicit as_of wins over the question's own date
    assert _ask(service, "Which port did the API listen on in 2023?", "2024-02-01")["answer"] \
        == "8080"
    rc, out, _ = cli("ask", "--repo", str(service.root), "Which port did the API listen on in 2023?")
    assert rc == 0 and out.splitlines()[0] == "as of 2023-12-31T23:59:59+00:00"
    assert "`PORT in api/config.py`: `8000`" in out


def test_an_agents_prompt_gets_the_current_facts_whatever_year_it_names(service):
    """The pre-prompt context is the current facts: "the bug reported in 2023" is no time asked;
    an empty prompt matches nothing rather than arbitrary facts."""
    block = build_context(service, "Fix the port bug the API had in 2023")
    assert "`PORT`: `8080` (`api/config.py`:" in block and "8000" not in block
    assert build_context(service, " ? ") == ""  # no block at all


@pytest.mark.parametrize("question", ["", "   ", " ? "])
def test_an_empty_question_is_a_one_line_error(service, question):
    rc, out, err = cli("ask", "--repo", str(service.root), question, check=False)
    assert (rc, out) == (1, "")
    assert err.splitlines()[0] == "repomem: error: the question is empty"


def test_when_a_fact_was_added_is_its_first_version(service):
    """"when was the port added?": since says when the value last changed (2024-01-05, 8080);
    first_seen says when the key first held (2023-03-01, 8000), from the store of record."""
    got = ask(service, "When was the API port setting added?")["facts"][0]
    assert got["key"] == "constant:api/config.py:PORT"
    assert got["valid_from"].startswith("2024-01-05")
    assert got["first_seen"]["date"].startswith("2023-03-01") and got["first_seen"]["value"] == "8000"
    out = cli("ask", "--repo", service.root, "since when does the API have a port setting?")[1]
    assert "first seen 2023-03-01" in out
    assert "first_seen" not in ask(service, "What port does the API listen on?")["facts"][0]


def test_what_a_fact_was_before_is_its_previous_value(new_repo):
    """"What was the users function called previously?": each fact also gets the last other
    value its key held (fetch_user, from 2023-03-01 until 2024-01-05), across versions that only
    changed its signature; a key that never held another value by the time asked has none, nor
    does a question that does not ask what came before."""
    from tests.conftest import indexed

    def users(name, params):
        return f'def {name}({params}):\n    """Load a user by id."""\n    return DB[user_id]\n'

    r = indexed(new_repo(), ("2023-03-01T10:00:00Z", {"api/users.py": users("fetch_user", "user_id")}),
                ("2023-06-01T10:00:00Z", {"api/users.py": users("fetch_user", "user_id, cache=True")}),
                ("2024-01-05T10:00:00Z", {"api/users.py": users("get_user", "user_id, cache=True")}),
                ("2024-02-01T10:00:00Z", {"api/users.py": users("get_user", "user_id, cache=False")}))
    key = ask(r, "which function loads a user by id?")["facts"][0]["key"]
    assert [v["value"] for v in history(r, key)["versions"]] \
        == ["fetch_user", "fetch_user", "get_user", "get_user"]
    got = ask(r, "which function loaded a user by id previously?")["facts"][0]
    assert got["value"] == "get_user"
    assert got["previous"]["value"] == "fetch_user"
    assert got["previous"]["date"].startswith("2023-03-01") and got["previous"]["until"].startswith("2024-01-05")
    assert "previous" not in ask(r, "which function loaded a user by id previously?", "2023-12-31")["facts"][0]
    assert "previous" not in ask(r, "which function loads a user by id?")["facts"][0]
    assert "previous" not in ask(r, "which function is used to load a user by id?")["facts"][0]
    assert ask(r, "which function did we use to load a user by id?")["facts"][0]["previous"]
    assert ask(r, "which function loaded a user by id before?")["facts"][0]["previous"]
    assert "previous" not in ask(r, "which function loads a user by id before saving?")["facts"][0]
    out = cli("ask", "--repo", str(r.root), "what was the function loading a user by id called before the change?")[1]
    assert "previously `fetch_user`  from 2023-03-01" in out and "until 2024-01-05" in out


SETTINGS_PY = 'WAGTAIL_SITE_NAME = "The Wagtail Bakery"\nWAGTAIL_I18N_ENABLED = True\n'


def test_when_a_package_reached_a_version(new_repo):
    """"When was wagtail upgraded to version 7?" (bakerydemo) gave the setting WAGTAIL_SITE_NAME:
    upgrading, bumping or moving a package to a number asks about that package's versions, and
    the answer says when its floor reached the number (7.0, after 6.4; a later 7.4 is
    still 7), through a downgrade and back (the last time it did), or for Python's own floor;
    a package there from its first version reached it then."""
    from tests.conftest import indexed

    def reqs(wagtail, django):
        return f"wagtail>={wagtail},<{wagtail[:-1]}9\nDjango>={django}\nwhitenoise>=6.0\n"

    r = indexed(new_repo(), ("2024-01-10T10:00:00Z", {"requirements.txt": reqs("6.3", "4.2"),
                                                      "bakery/settings.py": SETTINGS_PY,
                                                      "pyproject.toml": '[project]\nname = "bakery"\n'
                                                      'requires-python = ">=3.8"\n'}),
                ("2024-02-09T10:00:00Z", {"requirements.txt": reqs("6.4", "5.0")}),
                ("2024-02-09T12:00:00Z", {"requirements.txt": reqs("6.4", "4.2")}),  # downgraded
                ("2024-08-01T10:00:00Z", {"requirements.txt": reqs("6.4", "5.0"),
                                          "pyproject.toml": '[project]\nname = "bakery"\n'
                                          'requires-python = ">=3.10"\n'}),
                ("2025-05-12T10:00:00Z", {"requirements.txt": reqs("7.0", "5.0")}),
                ("2026-06-05T10:00:00Z", {"requirements.txt": reqs("7.4", "5.0")}))
    for question in ("when was wagtail upgraded to version 7?", "when did the project move to wagtail 7?",
                     "when was wagtail bumped to 7?"):
        got = ask(r, question)["facts"][0]
        assert got["key"].endswith(":wagtail"), (question, got["key"])
        assert got["value"] == "<7.9,>=7.4" and got["reached"]["date"].startswith("2025-05-12"), got
        assert (got["reached"]["value"], got["reached"]["from"]) == ("<7.9,>=7.0", "<6.9,>=6.4")
    got = ask(r, "when was django bumped to 5?")["facts"][0]
    assert got["key"].endswith(":django") and got["reached"]["date"].startswith("2024-08-01"), got
    got = ask(r, "when did the project move to python 3.10?")["facts"][0]
    assert got["kind"] == "python" and got["reached"]["date"].startswith("2024-08-01"), got
    # there from its first version: reached then, from nothing
    got = ask(r, "when was whitenoise upgraded to 6?")["facts"][0]
    assert got["key"].endswith(":whitenoise") and got["reached"]["from"] is None, got
    assert got["reached"]["date"].startswith("2024-01-10"), got
    # no number asked, or one never reached: no such note
    assert ask(r, "when was wagtail upgraded?")["facts"][0]["key"].endswith(":wagtail")
    assert "reached" not in ask(r, "when was wagtail upgraded?")["facts"][0]
    assert "reached" not in ask(r, "when was wagtail upgraded to 8?")["facts"][0]
    out = cli("ask", "--repo", str(r.root), "when was wagtail upgraded to version 7?")[1]
    assert "reached `7` on 2025-05-12" in out and "(from `<6.9,>=6.4`)" in out, out


@pytest.mark.parametrize("question, name", [
    ("when did click switch to flit?", "flit"),
    ("when did the project start using ruff?", "ruff"),
    ("When was whitenoise adopted?", "whitenoise"),
    ("when did we move the build backend to `flit_core`?", "flit core"),
    ("when was `@prisma/client` introduced?", "prisma client"),
    ("when did the app switch to sqlalchemy 2?", None),  # a version: see reached
    ("when did we move to pyproject.toml?", None),  # a file
    ("when did we switch to the new client?", None),
    ("which function switches to flit?", None),  # no time asked
    ("when did click replace setuptools with flit?", "flit"),
    ("when did we start using GitHub Actions?", "github workflows"),  # as its files say it
    ("when did the project add whitenoise?", None),  # see added
])
def test_the_name_a_when_question_says_was_taken_up(question, name):
    assert adopted(question) == name


@pytest.mark.parametrize("question, name", [
    ("when did the project add whitenoise?", "whitenoise"),
    ("when did we add redis to the stack?", "redis"),
    ("when did httpx add h2 support?", None),  # a feature, not a package
    ("when did we add the timeout setting?", None),
])
def test_the_name_a_when_question_says_was_added(question, name):
    assert adopted(question, added=True) == name


WORKFLOW = """name: ci
on: [push]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: pytest
"""


def test_when_the_project_switched_to_a_tool_is_when_its_facts_came_to_say_it(new_repo):
    """"When did click switch to flit?" gave the method is_bool_flag: a when-question that says
    the project switched to, moved to, started using or adopted a name asks for the settings
    and packages that say it, in their value (build-backend = flit_core.buildapi) or in their
    name (the mypy dependency, [tool.ruff]) or their file's (a workflow for GitHub Actions), and
    the answer says since when: the version since which the value has said it (after a revert,
    the last time) or, for a name, the first; the earliest of them first.  "When did we add X?"
    asks so when a package is named X."""
    from tests.conftest import indexed

    def pyproject(backend, ruff=False):
        requires = {"setuptools.build_meta": "setuptools>=61", "flit_core.buildapi": "flit_core>=3.2,<4"}
        return (f'[build-system]\nrequires = ["{requires[backend]}"]\nbuild-backend = "{backend}"\n\n'
                '[project]\nname = "tool"\nversion = "1.0"\n'
                + ('\n[tool.ruff]\nline-length = 100\n' if ruff else ""))

    code = ('"""Switches and flags of the command line."""\n\n\n'
            'def is_bool_flag(option):\n    """Whether the option is a boolean flag switch."""\n'
            '    return option.flag\n\n\n'
            'def switch_to(context):\n    """Switch to another context and start using it."""\n'
            '    return context\n')
    r = indexed(new_repo(),
                ("2023-01-20T10:00:00Z", {"pyproject.toml": pyproject("setuptools.build_meta"),
                                          "tool/cli.py": code, "requirements-dev.txt": "pytest\n",
                                          "tool/settings.py": 'DATABASE_URL = "sqlite:///app.db"\n',
                                          # says the words, but is no workflow
                                          "tool/ci.py": 'CI_NAME = "GitHub Actions"\n'}),
                ("2023-03-01T10:00:00Z", {"tool/settings.py": 'DATABASE_URL = "postgres://db/app"\n'}),
                ("2023-04-01T10:00:00Z", {"tool/settings.py": 'DATABASE_URL = "sqlite:///app.db"\n'}),
                ("2023-05-01T10:00:00Z", {".github/workflows/ci.yml": WORKFLOW}),
                ("2023-06-28T10:00:00Z", {"pyproject.toml": pyproject("flit_core.buildapi")}),
                ("2024-02-01T10:00:00Z", {"pyproject.toml": pyproject("flit_core.buildapi", ruff=True),
                                          "requirements-dev.txt": "pytest\nmypy\n"}),
                ("2024-05-01T10:00:00Z", {"tool/settings.py": 'DATABASE_URL = "postgresql://db/app"\n'}),
                ("2024-06-01T10:00:00Z", {"requirements-dev.txt": "pytest\nmypy\nruff\n"}))
    got = ask(r, "when did the project switch to flit?")["facts"]
    assert got[0]["key"].startswith("config:pyproject.toml:build-system."), got[0]
    backend = next(f for f in got if f["key"].endswith("build-backend"))
    assert backend["adopted"]["date"].startswith("2023-06-28"), backend
    assert (backend["adopted"]["value"], backend["adopted"]["from"]) == \
        ("flit_core.buildapi", "setuptools.build_meta")
    # the earliest that says it: [tool.ruff] of February, not the ruff dependency of June
    got = ask(r, "when did we start using ruff?")["facts"]
    assert got[0]["key"] == "config:pyproject.toml:tool.ruff.line-length", got[0]
    assert got[0]["adopted"]["date"].startswith("2024-02-01") and got[0]["adopted"]["from"] is None
    assert any(f["key"].endswith(":ruff") and f["adopted"]["date"].startswith("2024-06-01")
               for f in got)
    for question in ("when was mypy adopted?", "when did the project add mypy?"):
        got = ask(r, question)["facts"][0]
        assert got["key"].endswith(":mypy") and got["adopted"]["date"].startswith("2024-02-01"), got
    # a tool's own files came with it: GitHub Actions' workflows
    got = ask(r, "when did we start using GitHub Actions?")["facts"][0]
    assert got["path"] == ".github/workflows/ci.yml" and got["adopted"]["date"].startswith("2023-05-01")
    # a value that said it, stopped, and says it again: since the last time
    got = ask(r, "when did the app switch to postgres?")["facts"][0]
    assert got["key"].endswith(":DATABASE_URL") and got["adopted"]["date"].startswith("2024-05-01")
    assert got["adopted"]["from"] == "sqlite:///app.db", got
    assert "first_seen" not in got  # when it came to say postgres, not when it first held
    # "add X" asks so only when a package is named X: no package is named postgres
    assert not any("adopted" in f for f in ask(r, "when did we add postgres?")["facts"])
    assert len(ask(r, "when did we add postgres?")["facts"]) == 5
    out = cli("ask", "--repo", str(r.root), "when did the project switch to flit?")[1]
    assert "adopted `flit` on 2023-06-28" in out and "(from `setuptools.build_meta`)" in out, out


def test_who_and_why_are_the_commit_that_set_the_value(new_repo):
    """"Why was the port changed?" and "who changed the port?" are answered by the commit that
    set the value: its author and its message's first line; "who added the port?" by the
    commit that first set it.  A message is shown redacted, as any text is."""
    from repomem.service.samples import write_files
    from tests.conftest import git

    root = new_repo()
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    for date, author, message, files in (
            ("2023-03-01T10:00:00Z", "Ada", "add the api's port", {"api/config.py": "PORT = 8000\n"}),
            ("2024-01-05T10:00:00Z", "Bob", "move the api to 8080: the load balancer's port",
             {"api/config.py": "PORT = 8080\n"}),
            ("2024-02-01T10:00:00Z", "Cy", f"set a timeout (and the old token {token})",
             {"api/config.py": "PORT = 8080\nTIMEOUT = 30\n"})):
        write_files(root, files)
        git(root, "commit", "-q", "--author", f"{author} <{author.lower()}@example.com>", "-m",
            message, date=date)
    r = Repo.open(root)
    ingest(r, all_history=True, progress=False)
    for question in ("why was the api port changed?", "who changed the api port?",
                     "what was the reason for the port change?"):
        got = ask(r, question)["facts"][0]
        assert got["key"] == "constant:api/config.py:PORT", (question, got["key"])
        assert (got["change"]["author"], got["change"]["subject"]) == \
            ("Bob", "move the api to 8080: the load balancer's port"), got["change"]
        assert got["change"]["commit"] == got["commit"]
    got = ask(r, "who added the api port?")["facts"][0]
    assert got["change"]["author"] == "Ada" and got["change"]["date"].startswith("2023-03-01")
    got = ask(r, "why is the timeout 30?")["facts"][0]
    assert got["key"].endswith(":TIMEOUT") and got["change"]["author"] == "Cy"
    assert token not in got["change"]["subject"] and "<redacted:" in got["change"]["subject"]
    assert "change" not in ask(r, "which port does the api listen on?")["facts"][0]
    assert not any("change" in f for f in ask(r, "who uses the api port?")["facts"])  # code
    out = cli("ask", "--repo", str(root), "who added the api port?")[1]
    assert "by `Ada` in " in out and ": `add the api's port`" in out, out
