"""repomem check: stale mentions of superseded values, tied to their key; never a bare value."""

from __future__ import annotations

from pathlib import Path

import pytest

from repomem.service import samples
from repomem.service.check import check_tree
from repomem.service.ingest import ingest
from repomem.service.repo import Repo
from tests.conftest import cli, commit, git

README = """\
# Payments

The production server listens on port 8000.
Staging listens on port 8000 as well.
The number 8000 alone means nothing here, nor does "1800".
Look users up with `get_user_by_id(user_id)`.
"""

AGENTS = """\
Use fetch_user for lookups and call the API on port 8080.
Never call get_user_by_id directly; the production port is 8000.
"""

FIXED_README = README.replace("production server listens on port 8000",
                              "production server listens on port 8080").replace(
    "get_user_by_id(user_id)", "fetch_user(user_id)")
FIXED_AGENTS = AGENTS.replace("get_user_by_id", "fetch_user").replace("port is 8000",
                                                                      "port is 8080")


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    dest = tmp_path_factory.mktemp("check") / "payments"
    shas = samples.build(samples.load("payments"), dest)
    ingest(Repo.open(dest), all_history=True, progress=False)
    return dest, shas


def _lines(result):
    return sorted((f["path"], f["line"], f["stale_value"]) for f in result["findings"])


def test_reports_exactly_the_stale_lines_then_nothing_once_fixed(sample):
    repo, shas = sample
    commit(repo, "2026-05-01T10:00:00+00:00", "docs", {"README.md": README, "AGENTS.md": AGENTS})
    rc, out, _ = cli("check", "--repo", repo, check=False)
    assert rc == 1, out
    res = check_tree(Repo.open(repo))
    assert _lines(res) == [("AGENTS.md", 2, "8000"), ("AGENTS.md", 2, "get_user_by_id"),
                           ("README.md", 3, "8000"), ("README.md", 6, "get_user_by_id")]
    port = next(f for f in res["findings"] if f["path"] == "README.md" and f["line"] == 3)
    assert port["key"] == "config:config/production.toml:server.port"
    assert port["current_value"] == "8080" and port["changed_in"] == shas[1]
    assert port["changed_at"] == "2026-02-10T09:30:00+00:00" and port["mention"] == "port 8000"
    fn = next(f for f in res["findings"] if f["path"] == "README.md" and f["line"] == 6)
    assert fn["current_value"] == "fetch_user" and fn["changed_in"] == shas[2]
    assert "`README.md`:3: `port 8000` is stale" in out and "now `8080`" in out

    commit(repo, "2026-05-02T10:00:00+00:00", "fix docs",
           {"README.md": FIXED_README, "AGENTS.md": FIXED_AGENTS})
    rc, out, _ = cli("check", "--repo", repo, check=False)
    assert rc == 0 and "no stale mentions" in out


def _scan(repo, files):
    """Stage files (check reads tracked files from the work tree), scan, then unstage them."""
    for rel, text in files.items():
        p = Path(repo) / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
        git(repo, "add", "--", rel)
    try:
        return check_tree(Repo.open(repo))
    finally:
        for rel in files:
            git(repo, "rm", "-q", "-f", "--cached", "--", rel)
            (Path(repo) / rel).unlink()


def test_scope_rule_for_a_value_still_current_elsewhere(sample):
    repo, _ = sample
    res = _scan(repo, {"docs/deploy.md": (
        "# Deploying\n"
        "Set port 8000.\n"                       # 4 staging is on 8000 now: ambiguous, quiet
        "\n## Staging\n\nport = 8000\n"          # tied to staging by its heading: current
        "\n## Production\n\nport = 8000\n"       # tied to production by its heading: stale
        "staging port 8000, prod port 8000\n"    # one line, two scopes: only prod is tied...
    )})
    got = [(f["line"], f["mention"]) for f in res["findings"]]
    assert (10, "port = 8000") in got
    assert all(line not in (2, 6) for line, _ in got)
    # both scope words on line 11 tie it to both keys; the production key is among them
    assert any(line == 11 for line, _ in got)


def test_code_comments_docstrings_and_exclusions(sample):
    repo, _ = sample
    res = _scan(repo, {
        "tools/client.py": ('"""Client helpers; the session timeout is 1800 seconds."""\n'
                            "import requests  # pinned: requests==2.31.0\n"
                            "URL = '/api/v1/users/7'  # code, not a comment: not scanned\n"
                            "def helper():\n    '''Wraps get_user_by_id.'''\n"),
        "CHANGELOG.md": "- renamed get_user_by_id to fetch_user\n",
        # a file named like the old function is no mention of it
        "docs/testing.md": "See `tests/get_user_by_id.py::test_lookup` and get_user_by_id.md.\n",
        ".cursorrules": "Routes live under /api/v1/users/<id>.\n",
        "notes.txt": "get_user_by_id was renamed  (repomem: ignore)\n",
        ".github/copilot-instructions.md": "Supports Python 3.10 and 3.11.\n",
        # schema migrations are dated records, like change logs (Django's "Generated by
        # Django 4.2 on ...", Alembic's revisions)
        "users/migrations/0002_rename.py": "# Generated for get_user_by_id, requests==2.31.0\n",
        "alembic/versions/3f2a_timeout.py": '"""session timeout 1800"""\n',
    })
    got = sorted((f["path"], f["line"], f["stale_value"]) for f in res["findings"])
    assert got == [(".cursorrules", 1, "GET /api/v1/users/<int:user_id>"),
                   (".github/copilot-instructions.md", 1, "3.10"),
                   ("tools/client.py", 1, "1800"),
                   ("tools/client.py", 2, "2.31.0"),
                   ("tools/client.py", 5, "get_user_by_id")]


def test_examples_and_pythons_own_history_are_no_claims(sample):
    """"a port like 8000" is an example and "in Python 3.10 and later" says what Python does;
    "between Python 3.10 and 3.11" and "Generated by ... using Python 3.10" are records of the
    past; "Supports Python 3.10" and "the port is 8000" are claims about the project."""
    repo, _ = sample
    res = _scan(repo, {"docs/notes.md": (
        "Pick a port like 8000 for local runs.\n"            # 1: an example
        "In Python 3.10 and later, zip() takes strict=.\n"   # 2: Python's own history
        "Supports Python 3.10 and 3.11.\n"                   # 3: a claim
        "The production port is 8000.\n"                     # 4: a claim
        "No changes were made between Python 3.10 and 3.11.\n"  # 5: a record of the past
        "Generated by 'setup.sh' using Python 3.10.\n"       # 6: a generated file's header
        "The production port is 8000 between releases.\n"  # 7: a claim
        "Tag the release like `3.10`, then:\n"              # 8: an example...
        "- Release title `Python 3.10`\n"                   # 9: ...the same one
        "\n"
        "- Release title `Python 3.10`\n")})                # 11: a claim again
    assert sorted((f["line"], f["stale_value"]) for f in res["findings"]) == [
        (3, "3.10"), (4, "8000"), (7, "8000"), (11, "3.10")]


def test_reverted_value_is_not_stale(sample):
    repo, _ = sample
    # MAX_RETRIES went 3 -> 5 -> 3: 3 is current again, 5 is stale
    res = _scan(repo, {"docs/ops.md": "MAX_RETRIES = 3\nMAX_RETRIES = 5\n"})
    assert [(f["line"], f["stale_value"], f["current_value"]) for f in res["findings"]] == [
        (2, "5", "3")]


def test_a_function_mention_is_the_function_only_when_it_can_be(new_repo):
    """An old function name is reported only where it can mean that function: a plain word when
    called or spelled with its own object (``res.locals(``), not as an object itself
    (``res.locals.user``) nor as another object's attribute (``mime.locals()``,
    ``http.createServer``); a module-level function also with its own module's name."""
    root = new_repo()
    create = "function createServer(options) {\n  var app = new Server(options);\n  return app;\n}\n"
    commit(root, "2011-03-01T10:00:00Z", "api", {
        "lib/express.js": create,
        "lib/response.js": "res.locals = function(obj) {\n  this._locals = obj;\n  return this;\n};\n"})
    commit(root, "2011-10-07T10:00:00Z", "renames", {
        "lib/express.js": create.replace("createServer", "createApplication"),
        "lib/response.js": "res.setLocals = function(obj) {\n  this._locals = obj;\n  return this;\n};\n"})
    commit(root, "2012-01-01T10:00:00Z", "guide", {"docs/guide.md": (
        "res.locals.user = req.user;\n"          # 1: an object now
        "res.locals({ title: 'Home' });\n"       # 2: the renamed method, called
        "mime.locals();\n"                       # 3: another object's
        "http.createServer(app).listen(80);\n"   # 4: node's, not express's
        "express.createServer();\n"              # 5: its own module's
        "Call createServer() to start.\n"        # 6: called
        "The `locals` option is merged.\n")})    # 7: a word
    ingest(Repo.open(root), all_history=True, progress=False)
    got = sorted((f["line"], f["stale_value"]) for f in check_tree(Repo.open(root))["findings"])
    assert got == [(2, "locals"), (5, "createServer"), (6, "createServer")]


def test_a_removed_method_is_mentioned_only_by_a_call_and_a_dotted_name_is_no_setting(new_repo):
    """express's res.locals was a method until 2011 and is an object since (`// merge
    res.locals`); httpx's docs describe requests' `response.next`: a function whose key is gone
    (renamed, then removed) may live on as another member, so only a call is the function.  And
    ``license.file`` (a key of a ``license`` table, briefcase's) is not setup.cfg's
    ``license_file``."""
    root = new_repo()
    method = "res.%s = function(obj) {\n  this._locals = obj;\n  return this;\n};\n"
    commit(root, "2011-03-01T10:00:00Z", "api", {
        "lib/response.js": method % "locals", "setup.cfg": "[metadata]\nname = cli\nlicense_file = LICENSE\n"})
    commit(root, "2011-06-01T10:00:00Z", "renamed", {
        "lib/response.js": method % "setLocals", "setup.cfg": "[metadata]\nname = cli\nlicense_file = COPYING\n"})
    commit(root, "2011-10-07T10:00:00Z", "removed", {
        "lib/response.js": "res.render = function(view, options, callback) {\n  return view;\n};\n",
        "setup.cfg": "[metadata]\nname = cli\n"})
    commit(root, "2012-01-01T10:00:00Z", "guide", {"docs/guide.md": (
        "// merge res.locals\n"                      # 1: the object
        "res.locals({ title: 'Home' });\n"           # 2: the method, called
        "license.file = \"LICENSE\"\n"               # 3: another tool's table
        "license_file = LICENSE\n")})                # 4: the setting
    ingest(Repo.open(root), all_history=True, progress=False)
    got = sorted((f["line"], f["stale_value"], f["current_value"])
                 for f in check_tree(Repo.open(root))["findings"])
    assert got == [(2, "locals", None), (4, "LICENSE", None)]


def test_a_parameter_default_is_no_claim_a_call_makes(new_repo):
    """httpx's head(allow_redirects=False) became follow_redirects; its docs show requests'
    ``session.send(request, allow_redirects=False)``.  A default (a function's or a
    constructor's) written ``name=value`` is a call passing a value, not a stale claim; a
    module constant that changed still is one."""
    root = new_repo()
    api = ("TIMEOUT = {t}\n\n\ndef head(url, {name}={value}):\n    return url\n\n\n"
           "class Client:\n    def __init__(self, {name}={value}):\n        pass\n")
    commit(root, "2020-01-01T10:00:00Z", "api", {
        "pkg/api.py": api.format(t=5, name="allow_redirects", value="False")})
    commit(root, "2020-08-16T10:00:00Z", "same default as get()", {
        "pkg/api.py": api.format(t=10, name="allow_redirects", value="True")})
    commit(root, "2021-08-16T10:00:00Z", "rename", {
        "pkg/api.py": api.format(t=10, name="follow_redirects", value="True")})
    commit(root, "2021-09-01T10:00:00Z", "docs", {"docs/compatibility.md": (
        "response = session.send(request, allow_redirects=False)\n"   # 1: another library's call
        "client = Client(allow_redirects=False)\n"                    # 2: a call passing a value
        "Set TIMEOUT = 5 for slow servers.\n")})                      # 3: the old constant
    ingest(Repo.open(root), all_history=True, progress=False)
    got = sorted((f["line"], f["stale_value"]) for f in check_tree(Repo.open(root))["findings"])
    assert got == [(3, "5")]
