"""Lineage in answers (a retired name leads to the key's current version, and says so) and as-of
provenance (an as-of answer cites the path, line and text valid then), on a real git history."""

from __future__ import annotations

import json

import pytest

from repomem.service.ingest import ingest
from repomem.service.query import ask, facts, history
from repomem.service.render import lineage_line
from repomem.service.repo import Repo
from tests.conftest import cli, commit, git, indexed

VIEWS = '''def get_user_by_id(user_id):
    """Look up a user by primary key in the users table."""
    row = database.users.find_one({"id": user_id})
    return row or None


def list_orders(user_id):
    """Every order a user placed, newest first."""
    return sorted(database.orders.find({"user": user_id}), reverse=True)
'''
RENAMED = VIEWS.replace("get_user_by_id", "fetch_user")
ROUTES = '''from flask import Flask

app = Flask(__name__)


@app.route("/orders/<int:order_id>", methods=["GET"])
def show_order(order_id):
    """One order as JSON."""
    return {"id": order_id}
'''
MOVED = "import logging\n\nlog = logging.getLogger(__name__)\n\n\n" + RENAMED


@pytest.fixture(scope="module")
def history_repo(tmp_path_factory):
    repo = tmp_path_factory.mktemp("lineage") / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    shas = [
        commit(repo, "2019-03-01T10:00:00Z", "views and pins",
               {"app/views.py": VIEWS, "requirements.txt": "flask==1.0.2\nrequests>=2.20\n"}),
        commit(repo, "2020-05-01T10:00:00Z", "rename get_user_by_id",
               {"app/views.py": RENAMED, "app/routes.py": ROUTES}),
        commit(repo, "2020-09-01T10:00:00Z", "versioned API", {
            "app/routes.py": ROUTES.replace('"/orders/', '"/api/v2/orders/')}),
        commit(repo, "2021-01-01T10:00:00Z", "logging", {"app/views.py": MOVED}),
        commit(repo, "2023-01-01T10:00:00Z", "pins move to pyproject", {
            "requirements.txt": None,
            "pyproject.toml": '[project]\nname = "app"\nversion = "1.0"\n'
                              'dependencies = [\n  "requests>=2.20",\n  "flask==1.0.2",\n]\n'}),
    ]
    r = Repo.open(repo)
    ingest(r, all_history=True, progress=False)
    return repo, r, shas


def test_old_name_resolves_to_current_version_with_a_lineage_note(history_repo):
    repo, r, shas = history_repo
    res = ask(r, "what is get_user_by_id called now?")
    assert res["answer"] == "fetch_user"
    assert res["lineage"] == [{"name": "get_user_by_id", "now": "fetch_user",
                               "key": res["facts"][0]["key"], "commit": shas[1],
                               "date": "2020-05-01T10:00:00+00:00"}]
    # The old name is never served as a fact, and no note is added when no old name is asked.
    assert all(f["value"] != "get_user_by_id" for f in res["facts"])
    assert ask(r, "what function looks up a user by primary key?")["lineage"] == []
    # Before the rename, the old name was current: no lineage, the old value answers.
    then = ask(r, "what is get_user_by_id called?", as_of="2019-06-01")
    assert then["answer"] == "get_user_by_id" and then["lineage"] == []


def test_cli_text_and_json_say_what_the_old_name_became(history_repo):
    repo, _, shas = history_repo
    out = cli("ask", "what is `get_user_by_id` called now?", "--repo", repo)[1]
    assert f"`get_user_by_id` is now `fetch_user`, renamed in {shas[1][:10]} on 2020-05-01" in out
    data = json.loads(cli("ask", "get_user_by_id was renamed; what is it called now?", "--repo",
                          repo, "--json")[1])
    assert data["lineage"][0]["now"] == "fetch_user" and data["answer"] == "fetch_user"
    ctx = cli("context", "where is get_user_by_id now?", "--repo", repo)[1]
    assert "`get_user_by_id` is now `fetch_user`" in ctx and "fetch_user" in ctx


def test_a_retired_route_leads_to_the_current_one(history_repo):
    _, r, shas = history_repo
    res = ask(r, "what is GET /orders/<int:order_id> now?")
    assert res["answer"] == "GET /api/v2/orders/<int:order_id>"
    assert [(x["name"], x["commit"]) for x in res["lineage"]] == \
        [("GET /orders/<int:order_id>", shas[2])]
    assert all("/api/" in f["value"] for f in res["facts"] if f["kind"] == "route")


def test_history_accepts_an_old_name(history_repo):
    repo, r, _ = history_repo
    by_old = history(r, "get_user_by_id")
    assert [v["value"] for v in by_old["versions"]] == ["get_user_by_id", "fetch_user"]
    assert by_old["key"] == history(r, "fetch_user")["key"]
    out = cli("history", "get_user_by_id", "--repo", repo)[1]
    assert "fetch_user" in out


def test_as_of_cites_the_line_valid_then(history_repo):
    _, r, shas = history_repo
    q = "what function looks up a user by primary key?"
    before = ask(r, q, as_of="2020-06-01")["facts"][0]
    after = ask(r, q, as_of="2021-06-01")["facts"][0]
    now = ask(r, q)["facts"][0]
    assert before["value"] == after["value"] == now["value"] == "fetch_user"
    assert (before["path"], before["line"]) == ("app/views.py", 1)
    assert (after["path"], after["line"]) == ("app/views.py", 6)
    assert (now["path"], now["line"]) == ("app/views.py", 6)
    assert before["commit"] == after["commit"] == shas[1]  # one version: the move is provenance
    assert len(history(r, "fetch_user")["versions"]) == 2


def test_as_of_cites_the_file_valid_then(history_repo):
    _, r, shas = history_repo
    q = "which version of flask is pinned?"
    old = ask(r, q, as_of="2020-01-01")["facts"][0]
    new = ask(r, q)["facts"][0]
    assert old["value"] == new["value"] == "==1.0.2"
    assert (old["path"], old["line"], old["text"]) == ("requirements.txt", 1, "flask==1.0.2")
    assert (new["path"], new["line"]) == ("pyproject.toml", 6)
    assert len(history(r, new["key"])["versions"]) == 1  # no new value version for a move
    listed = {f["key"]: f for f in facts(r, as_of="2020-01-01", kind="dependency")["facts"]}
    assert listed[new["key"]]["path"] == "requirements.txt"


def test_mcp_ask_carries_the_lineage_note(history_repo):
    pytest.importorskip("mcp.server.mcpserver")
    from tests.integrations.test_agent_interfaces import _mcp

    repo, _, shas = history_repo

    async def script(s):
        old = await s.call_tool("ask", {"question": "what is get_user_by_id called now?"})
        plain = await s.call_tool("ask", {"question": "what looks up a user by primary key?"})
        return old, plain

    old, plain = _mcp(repo, script)
    res = old.structured_content
    assert res["answer"] == "fetch_user" and res["lineage"][0]["commit"] == shas[1]
    assert "get_user_by_id" not in json.dumps(res["facts"])
    assert "lineage" not in plain.structured_content



def test_history_by_an_old_name_two_keys_bore_is_one_clear_error(new_repo, tmp_path):
    repo = new_repo()
    body = ('    """{doc}"""\n'
            '    return sorted(items, key=lambda item: item["{field}"], reverse=True)\n')
    a = "def handler(items):\n" + body.format(doc="Newest orders first.", field="created")
    b = "def handler(items):\n" + body.format(doc="Largest invoices first.", field="amount")
    commit(repo, "2024-01-01T00:00:00Z", "handlers", {"orders.py": a, "invoices.py": b})
    commit(repo, "2024-02-01T00:00:00Z", "names", {
        "orders.py": a.replace("handler", "sort_orders"),
        "invoices.py": b.replace("handler", "sort_invoices")})
    r = Repo.open(repo, store=tmp_path / "s")
    ingest(r, all_history=True, progress=False)
    assert [v["value"] for v in history(r, "sort_orders")["versions"]] == ["handler",
                                                                             "sort_orders"]
    rc, _, err = cli("history", "handler", "--repo", repo, "--store", tmp_path / "s", check=False)
    assert rc != 0 and "'handler' names 2 keys" in err and "Traceback" not in err
    # ask by the old name: both current names, each with its lineage note
    res = ask(r, "what is `handler` called now?")
    assert {x["now"] for x in res["lineage"]} == {"sort_orders", "sort_invoices"}
    assert {f["value"] for f in res["facts"][:2]} == {"sort_orders", "sort_invoices"}


def test_a_quoted_retired_value_gets_a_note_but_is_never_the_answer(new_repo, tmp_path):
    repo = new_repo()
    commit(repo, "2024-01-01T00:00:00Z", "port",
           {"config/production.toml": "[server]\nport = 8000\n"})
    sha = commit(repo, "2024-03-01T00:00:00Z", "move", {
        "config/production.toml": "[server]\nport = 8080\n"})
    r = Repo.open(repo, store=tmp_path / "s")
    ingest(r, all_history=True, progress=False)
    res = ask(r, "production used to listen on 8000; which port is it now?")
    assert res["answer"] == "8080"
    assert res["lineage"] == [{"name": "8000", "now": "8080", "key": res["facts"][0]["key"],
                               "commit": sha, "date": "2024-03-01T00:00:00+00:00"}]
    assert all(f["value"] != "8000" for f in res["facts"])
    out = cli("ask", "was 8000 the production port?", "--repo", repo, "--store", tmp_path / "s")[1]
    assert f"`8000` is now `8080`, changed in {sha[:10]} on 2024-03-01" in out


def test_lineage_and_spans_survive_a_fold_state_read_back_from_json(history_repo):
    # A saved fold state holds lists where the fold made tuples; folding on from it must give
    # the versions a fold from scratch gives, and never grow a closed version's lineage.
    from repomem.adapters import git as gitmod
    from repomem.core.ledger import fold

    repo, r, shas = history_repo
    chain = gitmod.first_parent_chain(repo)
    eff = gitmod.effective_times(chain)
    with r.store.reader():
        recs = r.store.load_records(shas)
    items = [(recs[s][0], eff[s], 0) for s in shas]
    whole = fold(items)
    part = fold(items[:2])
    for v in part.versions:  # what json.load gives back
        v.former = [list(f) for f in v.former]
        v.spans = [list(p) for p in v.spans]
    for item in items[2:]:
        part.apply(*item)

    def shape(ledger):
        return sorted((v.id, v.value, tuple(map(tuple, v.former)), tuple(map(tuple, v.spans)))
                      for v in ledger.versions)

    assert shape(part) == shape(whole)
    renamed = [v for v in whole.versions if v.value == "fetch_user"]
    assert [f[0] for f in renamed[0].former] == ["get_user_by_id"] and len(renamed[0].spans) == 2


PYPROJECT_DEPS = """[project]
name = "webapp"
version = "1.0.0"
dependencies = ["colorama>=0.4.6", "requests>=2.31"]
"""
HELPERS = '''def get_terminal_size():
    """Width and height of the terminal, from the environment when it says."""
    return 80, 24


def wrap_text(text, width):
    """Wrap text to the terminal width."""
    return [text[i:i + width] for i in range(0, len(text), width)]
'''


def test_a_name_only_a_removed_fact_bore_is_said_to_be_gone(new_repo):
    """"is colorama still a dependency?" after the commit that dropped it: no current fact is
    about colorama, so the answer says when it was removed and what it was (not only other
    packages); a deleted function the same.  As of a day before the removal, colorama is the
    answer and nothing is said to be gone."""
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"pyproject.toml": PYPROJECT_DEPS,
                                                      "webapp/term.py": HELPERS}))
    removal = commit(r.root, "2024-05-02T09:30:00Z", "drop colorama and get_terminal_size",
                     {"pyproject.toml": PYPROJECT_DEPS.replace('"colorama>=0.4.6", ', ""),
                      "webapp/term.py": HELPERS.split("\n\n\n")[1]})
    ingest(r, progress=False)
    res = ask(r, "Is colorama still a dependency?")
    assert all("colorama" not in f["key"] for f in res["facts"])
    gone = [n for n in res["lineage"] if n["name"] == "colorama"]
    assert gone == [{"name": "colorama", "now": None, "key": "dependency:pypi:.:main:colorama",
                     "commit": removal, "date": "2024-05-02T09:30:00+00:00", "was": ">=0.4.6",
                     "subject": "colorama dependency (pypi, main)"}]
    assert lineage_line(gone[0]) == (f"`colorama` is gone: `colorama dependency (pypi, main)` was "
                                     f"removed in {removal[:10]} on 2024-05-02 (it was `>=0.4.6`)")
    rc, out, _ = cli("ask", "--repo", r.root, "does the project still use colorama?")
    assert "`colorama` is gone" in out
    for question in ("When was colorama removed?", "When did the project drop colorama?"):
        assert [(n["name"], n["commit"]) for n in ask(r, question)["lineage"]] == [
            ("colorama", removal)], question

    res = ask(r, "Where did `get_terminal_size` go?")
    gone_key = res["lineage"][0]["key"]
    assert [(n["name"], n["subject"], n["commit"]) for n in res["lineage"]] == [
        ("get_terminal_size", "function get_terminal_size", removal)]
    # as code called it: by its module (click.get_terminal_size)
    res = ask(r, "When was term.get_terminal_size removed?")
    assert [(n["name"], n["key"], n["commit"]) for n in res["lineage"]] == [
        ("term.get_terminal_size", gone_key, removal)]

    before = ask(r, "Is colorama still a dependency?", as_of="2024-05-01T00:00:00Z")
    assert before["facts"][0]["key"] == "dependency:pypi:.:main:colorama"
    assert before["lineage"] == []
    # a package still there, or a word some fact says, is no removed name
    assert ask(r, "Is requests still a dependency?")["lineage"] == []


def test_a_file_named_by_the_question_is_no_removed_name_and_the_store_is_not_read(
        new_repo, monkeypatch):
    """"what version does pyproject.toml give?" names a file current facts are in: it names no
    removed fact, so the answer comes from the snapshot alone.  Reading the store of record
    for removed names cost a fresh `ask` chromadb's import (~1 s instead of ~0.3 s) and, right
    after a commit, a wait until the hook's worker had written Chroma.  A file no current fact
    is in may still name a removed one: the snapshot's list of removed facts says so, still
    without the store."""
    from repomem.storage.store import Store

    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"pyproject.toml": PYPROJECT_DEPS,
                                                      "setup.cfg": "[flake8]\nmax-line-length = 99\n",
                                                      ".pre-commit-config.yaml": "repos: []\n",
                                                      "examples/route-middleware/index.js":
                                                          "const PORT = 3000;\n"}))
    removal = commit(r.root, "2024-05-02T09:30:00Z", "flake8 settings go",
                     {"setup.cfg": None})
    ingest(r, progress=False)
    reads, rows = [], Store.rows
    monkeypatch.setattr(Store, "rows", lambda self, *a, **k: reads.append(a) or rows(self, *a, **k))
    for question in ("What version does pyproject.toml give?",
                     "What does the pre-commit-config.yaml list?", "Which repos does .pre-commit-config.yaml list?",
                     "Which port does the route-middleware example listen on?"):
        assert ask(r, question)["lineage"] == [] and reads == [], question
    ask(r, "What does setup.cfg set?")
    assert ask(r, "Is max-line-length still set?")["lineage"][0]["commit"] == removal
    assert reads == []


def test_a_value_that_came_back_is_not_said_to_be_itself_now(new_repo):
    """A setting went ejs -> jade -> ejs: a question that says "ejs" is about the setting, but
    no note says "`ejs` is now `ejs`"; one that says "jade" is told it is now ejs."""
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"config/app.yaml": "template_engine: ejs\n"}),
                ("2024-04-01T10:00:00Z", {"config/app.yaml": "template_engine: jade\n"}),
                ("2024-05-01T10:00:00Z", {"config/app.yaml": "template_engine: ejs\n"}))
    res = ask(r, "Which template engine renders ejs views?")
    assert res["facts"][0]["key"] == "config:config/app.yaml:template_engine"
    assert [n for n in res["lineage"] if n["now"] == n["name"]] == []
    res = ask(r, "Which template engine renders jade views?")
    assert [(n["name"], n["now"]) for n in res["lineage"]] == [("jade", "ejs")]


CI = """jobs:
  tests:
    strategy:
      matrix:
        include:
{entries}
"""


def _ci(*names):
    return CI.format(entries="\n".join(f"          - {{name: {n}, os: {n.lower()}-latest}}" for n in names))


def test_a_list_item_that_moved_is_not_renamed(new_repo):
    """CI's matrix gained Mac before Windows: entry 1 was named Windows and is now Mac, but no
    note says "`Windows` is now `Mac`" (a key by position is not an identity)."""
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {".github/workflows/tests.yml": _ci("Linux", "Windows")}),
                ("2024-04-01T10:00:00Z", {".github/workflows/tests.yml": _ci("Linux", "Mac", "Windows")}))
    res = ask(r, "Do the tests run on Windows?")
    assert [n for n in res["lineage"] if n["name"] == "Windows"] == []


RESPONSE_JS = '''/**
 * Transfer the file at the given path.
 */
res.sendFile = function sendFile(path, options) {
  return send(this, path, options);
};
'''
SENDFILE_JS = '''
/**
 * Transfer the file at the given path (deprecated: use sendFile).
 */
res.sendfile = function (path, options) {
  return send(this, path, options);
};
'''


def test_a_removed_function_is_found_by_its_name_as_spelled(new_repo):
    """express had res.sendfile (deprecated) next to res.sendFile until 5.0 removed it: function
    names are case-sensitive, so "when was res.sendfile removed?" asks about the removed one,
    not res.sendFile, whose name only differs in case."""
    r = indexed(new_repo(), ("2014-09-09T10:00:00Z", {"lib/response.js": RESPONSE_JS + SENDFILE_JS}))
    removal = commit(r.root, "2024-09-09T10:00:00Z", "remove res.sendfile", {"lib/response.js": RESPONSE_JS})
    ingest(r, progress=False)
    for question in ("When was res.sendfile removed?", "what happened to `res.sendfile`?"):
        res = ask(r, question)
        assert [(n["name"], n["subject"], n["commit"]) for n in res["lineage"]] == [
            ("res.sendfile", "method res.sendfile", removal)], question
    assert ask(r, "What does res.sendFile do?")["lineage"] == []


def _pyproject(floor: str) -> str:
    return f'[project]\nname = "webapp"\nversion = "1.0"\nrequires-python = "{floor}"\n'


def _floors(repo, *history: tuple[str, str]):
    """The Repo of a project whose requires-python went through HISTORY's (date, floor)s, one
    commit each, ingested; and the commits after the first."""
    date, floor = history[0]
    r = indexed(repo, (date, {"pyproject.toml": _pyproject(floor)}))
    shas = [commit(r.root, d, f"requires-python {f}", {"pyproject.toml": _pyproject(f)})
            for d, f in history[1:]]
    ingest(r, progress=False)
    return r, shas


def test_a_version_the_question_quotes_is_the_floor_it_was(new_repo):
    """"When did the project drop Python 3.7?": requires-python went >=3.7 -> >=3.8 -> >=3.10;
    the answer says when `>=3.7` stopped (the commit that made it >=3.8), not only the current
    floor.  A version that was never the floor alone (3.4 in `!=3.4.*,>=2.7`) gets no note."""
    r, (_, dropped, _) = _floors(new_repo(), ("2020-03-01T10:00:00Z", "!=3.4.*,>=2.7"),
                                 ("2021-03-01T10:00:00Z", ">=3.7"), ("2023-08-17T10:00:00Z", ">=3.8"),
                                 ("2025-05-10T10:00:00Z", ">=3.10"))
    res = ask(r, "When did the project drop Python 3.7?")
    assert res["facts"][0]["key"] == "python:requires:."
    assert [(n["name"], n["now"], n["commit"]) for n in res["lineage"]] == [(">=3.7", ">=3.10", dropped)]
    assert lineage_line(res["lineage"][0]).startswith("`>=3.7` is now `>=3.10`, changed in")
    assert ask(r, "When did the project drop Python 3.4?")["lineage"] == []


def test_a_quoted_version_meets_a_floor_written_in_full(new_repo):
    """"When did express drop support for node 0.10?": package.json's engines said
    `>= 0.10.0`, which the question quotes as 0.10 (trailing zeros are the same version)."""
    def package(node):
        return '{"name": "web", "version": "1.0.0", "engines": {"node": "%s"}}\n' % node

    r = indexed(new_repo(), ("2014-04-27T10:00:00Z", {"package.json": package(">= 0.10.0")}))
    dropped = commit(r.root, "2022-02-08T10:00:00Z", "drop 0.10", {"package.json": package(">= 4")})
    ingest(r, progress=False)
    res = ask(r, "When did the project drop support for node 0.10?")
    assert [(n["name"], n["now"], n["commit"]) for n in res["lineage"]] == [(">= 0.10.0", ">= 4", dropped)]
    assert ask(r, "When did the project drop support for node 0.1?")["lineage"] == []


def test_a_major_version_is_the_last_floor_of_that_major(new_repo):
    """"When did the project drop Python 2?" (click): requires-python went
    `!=3.0.*,...,>=2.7` -> `!=3.0.*,...,!=3.4.*,>=2.7` -> `>=3.6`; the note is the last floor of
    major 2, where it left for 3.  A number the question does not say of Python ("2 years
    ago") quotes nothing, nor does a major the floor never left ("Python 3")."""
    r, (_, dropped, _) = _floors(new_repo(), ("2018-05-14T10:00:00Z", "!=3.0.*,!=3.1.*,>=2.7"),
                                 ("2020-03-06T10:00:00Z", "!=3.0.*,!=3.1.*,!=3.4.*,>=2.7"),
                                 ("2020-04-20T10:00:00Z", ">=3.6"), ("2021-11-11T10:00:00Z", ">=3.7"))
    res = ask(r, "When did the project drop Python 2?")
    assert [(n["name"], n["commit"]) for n in res["lineage"]] == [("!=3.0.*,!=3.1.*,!=3.4.*,>=2.7", dropped)]
    assert ask(r, "What python floor changed 2 years ago?")["lineage"] == []
    assert ask(r, "When did the project drop Python 3?")["lineage"] == []


def test_a_plain_word_is_no_retired_function_name(new_repo):
    """"How does express set the x-powered-by header?" said "`set` is now `header`, renamed in
    2012": res.set was renamed res.header, but the question's "set" is a verb.  A retired name
    of code is quoted only as code (`set`, or a shape only code has)."""
    def response(name):
        return (f"var res = module.exports = {{}};\n\nres.{name} = function {name}(field, val) {{\n"
                f"  this.setHeader(field, String(val));\n  return this;\n}};\n")

    r = indexed(new_repo(), ("2011-08-10T10:00:00Z", {"lib/response.js": response("set")}))
    renamed = commit(r.root, "2012-04-16T10:00:00Z", "set is header", {"lib/response.js": response("header")})
    ingest(r, progress=False)
    assert ask(r, "how does the response set the x-powered-by header?")["lineage"] == []
    res = ask(r, "what is `set` called now?")
    assert [(n["name"], n["now"], n["commit"]) for n in res["lineage"]] == [("set", "header", renamed)]


ENCODE = '''def {name}(content=None, data=None, files=None):
    """Encode a request body from raw content, form data or files."""
    if data is not None and not isinstance(data, dict):
        content, data = data, None
    if content is not None:
        if isinstance(content, (str, bytes)):
            return ByteStream(body=content)
        return IteratorStream(iterator=content)
    if files:
        return MultipartStream(data=data or {{}}, files=files)
    if data:
        return URLEncodedStream(data=data)
    return ByteStream(body=b"")
'''
# the same function once its module is split up: its body now hands each case to a helper
REWRITTEN = '''def encode_request(content=None, data=None, files=None):
    """Encode a request body from raw content, form data or files."""
    if content is not None:
        return encode_content(content)
    if files:
        return encode_multipart_data(data or {}, files)
    return encode_urlencoded_data(data) if data else ({}, ByteStream(b""))
'''
ESCAPE = '''def encode_html(text):
    """Escape text for an HTML page."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
'''


def test_a_renamed_function_later_moved_and_rewritten_keeps_its_old_name(new_repo, tmp_path):
    """A function renamed in one commit (its body as it was), then moved to a new module with its
    body rewritten in another: too different to link by body, but the one function of its name
    the commit removes and the one it adds, so the old name still leads to the current one."""
    from difflib import SequenceMatcher

    from repomem.core.identity import SAME_PLACE_THRESHOLD
    from repomem.miners.python import MINER

    repo = new_repo()
    commit(repo, "2024-01-01T10:00:00Z", "streams", {"pkg/streams.py": ENCODE.format(name="encode"),
                                                      "pkg/html.py": ESCAPE})
    renamed = commit(repo, "2024-02-01T10:00:00Z", "encode -> encode_request",
                     {"pkg/streams.py": ENCODE.format(name="encode_request")})
    commit(repo, "2024-03-01T10:00:00Z", "split the streams module",
           {"pkg/streams.py": None, "pkg/content.py": REWRITTEN})
    toks = [str(f.fingerprint).split() for path, src in [("pkg/streams.py", ENCODE.format(name="encode_request")),
                                                          ("pkg/content.py", REWRITTEN)]
            for f in MINER.mine(path, src) if f.kind == "function"]
    assert SequenceMatcher(None, *toks, autojunk=False).ratio() < SAME_PLACE_THRESHOLD
    r = Repo.open(repo, store=tmp_path / "s")
    ingest(r, all_history=True, progress=False)
    by_old = history(r, "encode")
    assert by_old["key"] == history(r, "encode_request")["key"]
    assert [v["value"] for v in by_old["versions"]][:2] == ["encode", "encode_request"]
    res = ask(r, "`encode` is missing from the repository; what is that function's name?")
    assert res["answer"] == "encode_request"
    assert [(x["name"], x["now"], x["commit"]) for x in res["lineage"]] == [
        ("encode", "encode_request", renamed)]
