"""Question understanding and ranking signals found on the real-history benchmark's dev half and
on further dev-half questions of its truth scripts (phase 3), on one real git repository:
Snowball stems in the lexical index, "the name of the function that ...", the package named in a
version question, Node.js as package.json's engines, a file the question names, a route whose whole summary the
question says."""

from __future__ import annotations

import pytest

from repomem.service.features import _summary_said
from repomem.service.lexical import lexical_tokens
from repomem.service.query import ask, history
from repomem.service.question import asks_function, identifiers, intent, parse, version_slots
from tests.conftest import indexed

PYPROJECT = """[project]
name = "webapp"
version = "2.0.0"
dependencies = ["requests>=2.31"]
classifiers = [
    "Programming Language :: Python :: 3.11",
    "Programming Language :: Python :: 3.12",
]

[tool.mypy]
strict = true
warn_unused_ignores = true
show_error_codes = true
pretty = true
files = ["webapp"]

[[tool.mypy.overrides]]
module = "tests.*"
disallow_untyped_defs = false
"""
REQUIREMENTS = "-e .\nmypy==1.10.0\npytest==8.2.0\n"
VIEWS = '''def try_render(view, options):
    """Try rendering the view with its engine, reporting a failure to the callback."""
    return view.render(options)


def render(name, options, callback):
    """Render the view with the given name and options."""
    return try_render(name, options)


def handle_parse_result(ctx, opts):
    """Process the value produced by the parser from user input."""
    return opts


def process_value(ctx, value):
    """Process the value of this parameter."""
    return value
'''
ROUTES = '''from flask import Blueprint

bp = Blueprint("articles", __name__, url_prefix="/api")


@bp.route("/articles/feed")
def feed():
    """Get paginated feed articles."""
    return []


@bp.route("/articles")
def articles():
    """Get paginated articles."""
    return []
'''
BASE_SETTINGS = """# SECURITY WARNING: don't run with debug turned on in production!
DEBUG = True
"""
PACKAGE_JSON = """{
  "name": "webapp-frontend",
  "private": true,
  "engines": {"node": ">= 18"},
  "devDependencies": {"jest": "^29.4.1", "jest-environment-node": "^29.4.0",
                      "@types/jest": "^29.4.0"}
}
"""
CI = """jobs:
  test:
    strategy:
      matrix:
        node-version: [18, 20, 22]
    steps:
      - uses: actions/setup-node@v4
        with:
          node-version: ${{ matrix.node-version }}
"""
JEST_CONFIG = """{"jest": {"testEnvironment": "node", "verbose": true, "bail": 1, "ci": true,
          "silent": false, "roots": ["src"]}}
"""


PAGINATION = """# Items per page in list endpoints.
PAGE_SIZE = 25
"""


def _service(name: str, n: int) -> dict:
    """A service of its own: workers in its config, a listing route, its page limit."""
    return {f"services/{name}/config.toml": f"[server]\nworkers = {4 + n}\nport = {7100 + n}\n",
            f"services/{name}/handlers.py": (
                f'from app import app\n\n\n@app.get("/{name}/items")\ndef list_{name}_items():\n'
                f'    """List items for {name}."""\n    return []\n'),
            f"services/{name}/settings.py": f"# rows per listing page\nPAGE_LIMIT = {20 + n}\n"}


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    return indexed(tmp_path_factory.mktemp("words") / "repo", ("2024-01-10T10:00:00Z", {
        "pyproject.toml": PYPROJECT, "requirements.txt": REQUIREMENTS,
        "test-requirements.txt": "requests==2.31.0\n", "webapp/views.py": VIEWS,
        "webapp/routes.py": ROUTES, "webapp/settings/base.py": BASE_SETTINGS,
        "webapp/settings/production.py": "from .base import *\n\nDEBUG = False\n",
        "webapp/settings/dev.py": "from .base import *\n\nDEBUG = True\n",
        "frontend/package.json": PACKAGE_JSON, "frontend/jest.config.json": JEST_CONFIG,
        ".github/workflows/ci.yml": CI, ".env": "WORKER_COUNT=3\n",
        "api/pagination.py": PAGINATION,
        **{k: v for n, svc in enumerate(["geo", "mailer", "media", "audit", "pricing", "loyalty"])
           for k, v in _service(svc, n).items()}}))


def first(r, question):
    got = ask(r, question)["facts"][0]
    return got["kind"], got["value"], got["path"]


def test_stems_meet_across_inflections():
    # "tries" is "try", "initializes" "initialize": the embedder's light stripping made "tri"
    # of one and left the other
    assert lexical_tokens("tries rendering") == lexical_tokens("try render")
    assert lexical_tokens("initializes")[0] == lexical_tokens("initialize")[0]
    # a whole identifier stays whole, and a version number is not stemmed
    assert {"typing_extensions", "4.12.2"} <= set(lexical_tokens("typing-extensions 4.12.2"))


def test_function_asked_by_what_it_does_in_every_wording(repo):
    q = "What is the name of the webapp function that processes the value produced by the " \
        "parser from user input?"
    assert asks_function(q)
    assert first(repo, q)[1] == "handle_parse_result"
    assert first(repo, "Which function in webapp tries rendering a view?")[1] == "try_render"


def test_package_named_in_a_version_question():
    assert version_slots("What mypy version does the dev environment install?") == {"mypy"}
    assert version_slots("On 2022-06-03, which version of py do the tests run with?") == {"py"}
    assert version_slots("Which build version is pinned for development?") == {"build"}
    # the interpreter is no package; "py" in the slot asks for the package, not for Python
    assert version_slots("Which Python version does webapp require?") == set()
    assert "dependency" in intent("which version of py do the tests run with?")
    assert intent("which Python version do the tests run with?") == {"python"}


def test_version_question_finds_the_package_not_its_settings(repo):
    # [tool.mypy] has six settings named mypy, so "mypy" alone was no identifier
    assert first(repo, "What mypy version does the dev environment of webapp install?") == \
        ("dependency", "==1.10.0", "requirements.txt")
    # jest-environment-node and @types/jest share the word; jest.config.json's keys the name
    assert first(repo, "What jest version does the dev environment of the frontend install?") \
        == ("dependency", "^29.4.1", "frontend/package.json")


def test_node_js_is_package_json_engines(repo):
    assert first(repo, "Which Node.js versions does the frontend support (engines)?") == \
        ("dependency", ">= 18", "frontend/package.json")


def test_a_path_the_question_names_decides_between_facts_of_one_name(repo):
    # base.py's comment says "production" too; the question names the production settings
    assert first(repo, "In the production settings of webapp, which value does `DEBUG` have?") \
        == ("constant", "False", "webapp/settings/production.py")
    assert first(repo, "In the dev settings of webapp, which value does `DEBUG` have?") \
        == ("constant", "True", "webapp/settings/dev.py")


def test_words_framing_the_question_name_no_file(repo):
    # "require" is "requirements" once stemmed: the path of test-requirements.txt is not what
    # the question names, the runtime requirement is what it asks for
    assert first(repo, "Which version of requests does webapp require?") == \
        ("dependency", ">=2.31", "pyproject.toml")


def test_route_whose_whole_summary_the_question_says(repo):
    q = "What method and path does webapp use to get paginated articles?"
    got = ask(repo, q)["facts"]
    assert (got[0]["kind"], got[0]["value"]) == ("route", "GET /api/articles")
    # the signal itself: every word of "Get paginated articles" is in the question, not every
    # word of "Get paginated feed articles"
    routes = [f for f in got if f["path"] == "webapp/routes.py"]
    said = _summary_said(q, routes, range(len(routes)), {"route"})
    assert {f["value"]: bool(s) for f, s in zip(routes, said)} == {
        "GET /api/articles": True, "GET /api/articles/feed": False}


def test_index_of_another_tokenizer_is_not_read(repo, tmp_path):
    # a snapshot written before the stems (or by a later tokenizer) would not meet the
    # question's tokens: it is not read (ranking then indexes the rows itself)
    import numpy as np

    from repomem.service import snapfile, viewcache
    from repomem.service.lexical import TOKENIZER, Lexical

    path = viewcache._path(repo.store)
    with snapfile.load(path) as z:
        arrays = {k: z[k] for k in z.files}
        assert Lexical.from_arrays(z, 1) is not None
    arrays["lex_tokenizer"] = np.frombuffer(b'"porter-0"', dtype=np.uint8)
    other = tmp_path / "other.npz"
    np.savez(other, **arrays)
    with np.load(other, allow_pickle=False) as z:
        assert Lexical.from_arrays(z, 1) is None
    del arrays["lex_tokenizer"]  # a snapshot written before the tokenizer was named
    np.savez(other, **arrays)
    with np.load(other, allow_pickle=False) as z:
        assert Lexical.from_arrays(z, 1) is None
    assert TOKENIZER.startswith("snowball")


@pytest.mark.parametrize("question, want", [
    # "how many" asks for a number: WORKER_COUNT, not the six services' `workers` settings
    ("How many background workers are started?", ("config", "3", ".env")),
    # ... and never a route, whose summary says "list items" too
    ("How many items per page do the list endpoints return?",
     ("constant", "25", "api/pagination.py")),
    # the Python versions, not the package's own version that "package metadata" names
    ("What Python versions are declared as supported in the package metadata?",
     ("python", "3.11, 3.12", "pyproject.toml")),
])
def test_numbers_and_python_versions(repo, question, want):
    assert first(repo, question) == want


def test_intent_of_numbers_and_python_versions():
    assert intent("What Python versions are declared as supported in the package metadata?") \
        == {"python"}
    assert "route" not in intent("How many items per page do the list endpoints return?")


ECHO = '''def echo(message=None, nl=True):
    """Print a message and a newline to the standard output."""
    return message
'''
ECHOING = '''class EchoingStdin:
    def _echo(self, rv):
        """Echo what was read from the input stream back to the output stream."""
        return rv

    def read(self, n=-1):
        return self._echo(self._input.read(n))
'''


@pytest.mark.parametrize("question", ["What does the echo function do?", "What does echo() do?",
                                      "Where is the echo method defined?", "What does echo do?"])
def test_a_plain_word_written_as_a_name_names_the_function_spelled_so(new_repo, question):
    """"the echo function", "echo()" and "what does echo do?" name `echo`, not the private
    method `_echo` whose summary says "echo" twice; a bare "echo" elsewhere is only a word (see
    identifiers())."""
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"cli/utils.py": ECHO, "cli/testing.py": ECHOING}))
    got = ask(r, question)["facts"][0]
    assert (got["kind"], got["value"], got["path"]) == ("function", "echo", "cli/utils.py")
    assert identifiers("what does echo do") == [("echo", True, "echo")]
    assert identifiers("how does echo handle colors") == [("echo", False, "echo"),
                                                          ("handle", False, "handle"),
                                                          ("colors", False, "colors")]


CLIENT = '''class Client:
    """An HTTP client, with connection pooling and cookie persistence."""

    def send(self, request):
        return self._transport.handle_request(request)

    def close(self):
        self._transport.close()
'''


def test_a_class_is_named_by_its_name_not_by_the_one_another_class_gave_up(new_repo):
    """httpx renamed Client to AsyncClient, then wrote a new (sync) Client: "the Client class" is
    the current Client, and no note says Client is now AsyncClient.  A class's key is an identity
    (class:<id>), so its name must come from its value."""
    r = indexed(new_repo(), ("2019-12-01T10:00:00Z", {"pkg/client.py": CLIENT}),
                ("2019-12-29T10:00:00Z", {"pkg/client.py": CLIENT.replace("class Client:",
                                                                          "class AsyncClient:")}),
                ("2020-01-28T10:00:00Z", {"pkg/sync.py": '''class Client:
    """A synchronous HTTP client: requests sent one at a time on a blocking transport."""

    def get(self, url):
        return self.request("GET", url)
'''}))
    for question in ("What does the Client class do?", "What is `Client` for?"):
        got = ask(r, question)
        assert (got["facts"][0]["kind"], got["facts"][0]["path"]) == ("class", "pkg/sync.py")
        assert not got.get("lineage")
    got = ask(r, "What does the AsyncClient class do?")["facts"][0]
    assert (got["value"], got["path"]) == ("AsyncClient", "pkg/client.py")


MODELS = '''class InvalidToken(Exception):
    """Raised when a password reset token is expired or forged."""


class User(db.Model):
    """A registered account: its posts, followers and the hash of its password."""

    def avatar(self, size):
        return f"https://www.gravatar.com/avatar/{self.email}?s={size}"
'''
ROUTES_USER = '''@bp.route("/user/<username>")
def user(username):
    """Show the profile page of one user with their posts."""
    return render_template("user.html", user=username)
'''


@pytest.fixture(scope="module")
def blog(tmp_path_factory):
    return indexed(tmp_path_factory.mktemp("blog") / "repo", ("2024-06-13T10:00:00Z", {
        "app/models.py": MODELS, "app/routes.py": ROUTES_USER,
        "config.py": "class Config:\n    SQLALCHEMY_DATABASE_URI = 'postgresql://db/blog'\n",
        "app/tests.py": "class TestConfig(Config):\n    SQLALCHEMY_DATABASE_URI = 'sqlite://'\n",
        "app/test_tokens.py": "def test_expired_reset_token_raises(client):\n"
                              "    assert client.reset('expired-token').status_code == 400\n"}))


@pytest.mark.parametrize("question, want", [
    # "the User model": a capitalised word and the kind of class it is name the class
    ("What does the User model store?", ("class", "User", "app/models.py")),
    ("What is the User model?", ("class", "User", "app/models.py")),
    # an exception is a class, not the test that provokes it
    ("Which exception is raised for an expired reset token?",
     ("class", "InvalidToken", "app/models.py")),
    # ... and a lower-case one is only a word: "the user model" is not a name
    ("Which route shows the profile of a user?", ("route", "GET /user/<username>", "app/routes.py")),
])
def test_a_capitalised_word_and_its_kind_of_class_name_the_class(blog, question, want):
    assert first(blog, question) == want


def test_class_intent_and_a_capitalised_frame_word_written_as_a_name():
    # the tokenizer stems "class" to "clas" and "renamed" to "renam": still their intents
    assert intent("What is the Group class?") == {"class"}
    assert intent("What was get_user renamed to?") == {"function", "class"}
    # "Group" frames dependency questions ("the dev group"), but "the Group class" names it
    assert identifiers("What is the Group class?") == [("group", True, "Group")]
    assert identifiers("which test function checks the port")[0][0] != "test"
    # a decorator is a function, and "the command decorator" names it
    assert intent("What does the command decorator do?") == {"function"}
    assert asks_function("Which decorator passes the current context to the callback?")
    assert identifiers("What does the command decorator do?")[0] == ("command", True, "command")
    assert identifiers("what does the user model store")[0] == ("user", False, "user")


@pytest.mark.parametrize("path, aux", [
    ("tests.py", True), ("app/tests.py", True), ("tests/test_api.py", True),
    ("src/test_utils.py", True), ("pkg/views_test.py", True), ("conftest.py", True),
    ("web/src/user.test.js", True), ("web/src/api.spec.ts", True), ("examples/app.py", True),
    ("config.py", False), ("app/testing.py", False), ("src/contest.py", False),
    ("web/src/latest.js", False), ("app/models.py", False),
])
def test_test_files_are_not_the_projects_own(path, aux):
    """The project's own facts come before its tests' (rank's scope signal): a tests.py, a
    test_*.py, a *.test.js count as tests, not only a tests/ folder."""
    from repomem.service.columns import _AUX

    assert bool(_AUX.search(path)) == aux


RESPONSE_JS = """/**
 * Set header `field` to `val`, or pass an object of header fields.
 */
res.set =
res.header = function header(field, val) {
  this.setHeader(field, val);
  return this;
};

/**
 * Send a response.
 */
res.send = function send(body) {
  return this.end(body);
};
"""
APP_JS = """/**
 * Assign setting `name` to `value`.
 */
app.set = function set(setting, val) {
  this.settings[setting] = val;
  return this;
};
"""
CONTEXT_PY = '''class Context:
    def invoke(self, callback, *args):
        """Invoke a command callback in exactly the way it expects."""
        return callback(*args)


def test_context_invoke_runs_the_callback():
    """Context invoke runs the callback with the context invoke arguments."""
'''


def test_a_method_by_its_qualified_name_or_an_alias(new_repo):
    """`Context.invoke` is the method Context.invoke (not the test about it); res.set is the
    function bound as res.set = res.header (not app.set)."""
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {
        "lib/response.js": RESPONSE_JS, "lib/application.js": APP_JS, "cli/core.py": CONTEXT_PY}))
    assert first(r, "What does Context.invoke do?") == ("function", "invoke", "cli/core.py")
    assert first(r, "What does res.set do?") == ("function", "header", "lib/response.js")
    assert first(r, "What does app.set do?") == ("function", "set", "lib/application.js")
    # and `repomem history` takes those names too
    from repomem.service.query import history

    header = ask(r, "What does res.set do?")["facts"][0]["key"]
    assert history(r, "res.set")["key"] == history(r, "res.header")["key"] == header
    assert history(r, "Context.invoke")["versions"][0]["value"] == "invoke"


COMPOSE = """services:
  db:
    image: postgres:16.2
  redis:
    image: redis:7.2
  web:
    build: .
    environment:
      REDIS_URL: redis://redis
"""


def test_a_service_version_is_the_tag_of_its_image(new_repo):
    """"what is the redis version": no package is named redis, so the image the compose service
    runs (redis:7.2), not the project's own version nor django-redis's pin; "which postgres
    version" likewise, though no fact bears the name postgres (the service is called db)."""
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {
        "docker-compose.yml": COMPOSE, "requirements.txt": "django-redis>=5.4\n",
        "package.json": '{"name": "shop", "version": "2.0.0"}\n'}))
    assert first(r, "What is the redis version?") == ("config", "redis:7.2", "docker-compose.yml")
    assert first(r, "Which postgres version is used?") == ("config", "postgres:16.2",
                                                           "docker-compose.yml")
    assert first(r, "Which version of django-redis is required?")[:2] == ("dependency", ">=5.4")


DECODE = '''def decode(self, content):
    """Decode the response content with its declared charset."""
    return content.decode(self.charset)
'''


def test_the_codes_function_before_a_tests_twin(new_repo):
    """httpx: "which function decodes the response content?" found a test first, its docstring
    paraphrasing the behaviour it checks.  A function of the code itself gets the whole scope
    signal over a test's (a setting only half: a test's settings are still settings): two
    identical functions, one under tests/, are a full scope step apart.  (An answer shows them
    as one fact, the code's, naming the test's file: the scores are the ranking's.)"""
    from repomem.service import scorer
    from repomem.service.query import _search_snapshot

    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"pkg/codec.py": DECODE,
                                                      "tests/fakes.py": DECODE}))
    question = "Which function decodes the response content?"
    got = {f["path"]: f["score"] for f in _search_snapshot(r, question, 5)[1]}
    assert got["pkg/codec.py"] - got["tests/fakes.py"] > 0.9 * -scorer.weights()["test_code"]
    first = ask(r, question)["facts"][0]
    assert first["path"] == "pkg/codec.py"
    assert [c["path"] for c in first["same_in"]] == ["tests/fakes.py"], first


SITE_SETTINGS = '''import os

PROJECT_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STATIC_ROOT = os.path.join(PROJECT_DIR, "static")
WAGTAIL_SITE_NAME = "The Wagtail Bakery"
'''
SITE_MODELS = '''class SiteSettings:
    """Settings of the site: its title and footer."""


def get_site_root(context):
    """The root page of the site being served."""
    return context["request"].site.root_page
'''


@pytest.mark.parametrize("question", ["What is the site name?", "what's the site name",
                                      "Which site name is shown in the admin?"])
def test_a_name_asked_of_a_thing_is_a_setting(new_repo, question):
    """bakerydemo: "what is the site name?" read *name* as asking for a function's or class's
    name (SiteSettings, get_site_root) and dropped the word itself: WAGTAIL_SITE_NAME was not in
    the top 5.  A noun before *name* makes it the name of that thing, a setting."""
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"shop/settings/base.py": SITE_SETTINGS,
                                                      "shop/base/models.py": SITE_MODELS}))
    assert first(r, question) == ("constant", "The Wagtail Bakery", "shop/settings/base.py")
    assert first(r, "What is the name of the function that returns the site root?")[:2] == (
        "function", "get_site_root")
    assert first(r, "What is the class name for the site settings?")[:2] == ("class", "SiteSettings")


@pytest.mark.parametrize("question,named", [
    ("what is the site name?", True), ("the session cookie name", True),
    ("what is the database user name", True), ("what is the function name for X", False),
    ("what is the name of the class that parses", False), ("what's the new name of `get_x`", False),
    ("which name does the helper have", False), ("what is the function's name", False)])
def test_names_setting(question, named):
    from repomem.service.question import names_setting

    assert names_setting(question) is named
    assert bool(intent(question) & {"function", "class"}) is not named


def test_a_setting_computed_by_code_is_answered_and_superseded(new_repo):
    """bakerydemo's STATIC_ROOT = os.path.join(PROJECT_DIR, "collect_static") was not mined at
    all (not a literal): "where are static files collected?" found .pre-commit-config.yaml."""
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"shop/settings/base.py": SITE_SETTINGS}),
                ("2024-04-01T10:00:00Z", {"shop/settings/base.py": SITE_SETTINGS.replace(
                    '"static")', '"collect_static")')}))
    got = ask(r, "Where are static files collected?")["facts"][0]
    assert (got["subject"], got["value"]) == ("STATIC_ROOT in shop/settings/base.py",
                                              'os.path.join(PROJECT_DIR, "collect_static")')
    assert got["valid_from"].startswith("2024-04-01")
    old = ask(r, "Where are static files collected?", as_of="2024-03-15")["facts"][0]
    assert old["value"] == 'os.path.join(PROJECT_DIR, "static")'


SEND_JS = '''/**
 * Send a response.
 */
res.send = function send(body) {
  return this.end(body);
};

/**
 * Send JSON response.
 */
res.json = function json(obj) {
  return this.send(JSON.stringify(obj));
};
'''


def test_the_verb_of_a_how_question_names_no_package(new_repo):
    """express: "how do I send a JSON response?" answered with the dependency `send` (a package
    express uses): the word after "how do I" is the thing to be done, not a name."""
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {
        "package.json": '{"name": "web", "dependencies": {"send": "^1.1.0"}}\n',
        "lib/response.js": SEND_JS}))
    for question in ("How do I send a JSON response?", "how to send a json response"):
        assert first(r, question)[:2] == ("function", "json")
        assert "send" not in [n for n, _, _ in identifiers(question)]
    assert first(r, "Which send version is used?")[:2] == ("dependency", "^1.1.0")
    assert ("send", True, "send") in identifiers("how do I use `send`?")


DECORATORS = '''def version_option(version=None, *param_decls, **kwargs):
    """Add a ``--version`` option which immediately prints the version number and exits."""
    return option(*param_decls, **kwargs)


def help_option(*param_decls, **kwargs):
    """Pre-configured ``--help`` option which immediately prints the help page and exits."""
    return option(*param_decls, **kwargs)
'''


def test_a_command_line_option_asks_for_no_version(new_repo):
    """click: "how do I add a --version option?" answered with project.version: the option's
    name read as "version", and "option" as a setting asked for."""
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {
        "pyproject.toml": '[project]\nname = "cli"\nversion = "8.2.0"\n',
        "src/cli/decorators.py": DECORATORS}))
    assert first(r, "How do I add a --version option?")[:2] == ("function", "version_option")
    assert first(r, "Which decorator adds a --help option?")[:2] == ("function", "help_option")
    assert first(r, "Which version is cli at?")[:2] == ("config", "8.2.0")
    assert intent("which option sets the port?") >= {"config"}


EXCEPTIONS = '''class Parameter:
    """A parameter of a command: an option or an argument."""


class BadParameter(Exception):
    """Raised when a parameter's value is not valid."""


class MissingParameter(BadParameter):
    """Raised when a required parameter was not given."""
'''


def test_a_class_named_in_plain_words(new_repo):
    """click: "which exception is raised for a bad parameter?" answered Parameter: the words
    "bad parameter" spell BadParameter, which a class bears."""
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"src/cli/core.py": EXCEPTIONS}))
    assert first(r, "Which exception is raised for a bad parameter?")[:2] == ("class", "BadParameter")
    assert first(r, "What is the missing parameter exception?")[:2] == ("class", "MissingParameter")


MAIL_CONFIG = '''import os


class Config:
    MAIL_SERVER = os.environ.get('MAIL_SERVER')
    MAIL_PORT = int(os.environ.get('MAIL_PORT') or 25)
    UPLOADS = os.path.join(basedir, 'uploads')
'''


def test_an_answer_names_the_variable_a_setting_is_read_from(new_repo):
    """microblog: "how do I configure the mail server?" answered "Config.MAIL_SERVER: None", as if
    mail were off; the value is None only while $MAIL_SERVER is unset."""
    from repomem.service.context import build_context

    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"config.py": MAIL_CONFIG}))
    block = build_context(r, "Which mail server and port are configured?", budget=2000)
    assert "`Config.MAIL_SERVER`: `None` (environment variable `MAIL_SERVER` overrides) (`config.py`:" \
        in block
    assert "`Config.MAIL_PORT`: `25` (environment variable `MAIL_PORT` overrides)" in block
    block = build_context(r, "Where do uploads go?", budget=2000)
    assert "`os.path.join(basedir, 'uploads')` (computed when the settings load)" in block


PRE_COMMIT = """repos:
  - repo: https://github.com/pre-commit/mirrors-eslint
    hooks:
      - id: eslint
        files: \\.(js)$
  - repo: https://github.com/pre-commit/mirrors-stylelint
    hooks:
      - id: stylelint
        files: \\.css$
"""


def test_a_qualified_plain_word_names_a_fact_only_with_its_qualifier(new_repo):
    """bakerydemo: "where are static files collected?" answered with .pre-commit-config.yaml's
    two hooks' `files` (a plain word only two facts bear as a name), before STATIC_ROOT."""
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {".pre-commit-config.yaml": PRE_COMMIT,
                                                      "shop/settings/base.py": SITE_SETTINGS}))
    assert first(r, "Where are static files collected?")[:2] == (
        "constant", 'os.path.join(PROJECT_DIR, "static")')
    # unqualified, the word still names them
    assert first(r, "Which files do the hooks check?")[:2] in (("config", "\\.(js)$"), ("config", "\\.css$"))


REDIS_CONFIG = '''import os


class Config:
    REDIS_URL = os.environ.get('REDIS_URL') or 'redis://'
    ELASTICSEARCH_URL = os.environ.get('ELASTICSEARCH_URL')
'''
ROUTES_PY = '''@bp.route('/api/users', methods=['POST'])
def create_user():
    """Register a new user account."""


@bp.route('/api/tokens', methods=['POST'])
def get_token():
    """Issue a token for the user."""
'''


def test_a_url_owned_by_a_noun_is_a_setting(new_repo):
    """microblog: "what is the redis url?" answered with three routes (*url* asks for a route),
    though Config.REDIS_URL says it word for word."""
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"config.py": REDIS_CONFIG,
                                                      "app/api/routes.py": ROUTES_PY}))
    assert first(r, "What is the redis url?")[:2] == ("config", "redis://")
    assert first(r, "Where is the elasticsearch URL set?")[:2] == ("config", "None")
    assert first(r, "Which url creates a user?")[0] == "route"
    assert intent("what is the url of the login route?") == {"route"}


def test_history_of_words_is_the_history_of_their_best_answer(new_repo):
    """`repomem history "minimum python version"` said "unknown key": a user who knows no key
    asks in words, as with ask."""
    from repomem.core.errors import RepomemError
    from repomem.service.query import history

    pyproject = '[project]\nname = "cli"\nrequires-python = ">=3.8"\n'
    r = indexed(new_repo(), ("2023-08-17T10:00:00Z", {"pyproject.toml": pyproject}),
                ("2025-05-10T10:00:00Z", {"pyproject.toml": pyproject.replace("3.8", "3.10")}))
    got = history(r, "minimum python version")
    assert got["answering"] == "minimum python version"
    assert got["key"] == "python:requires:."
    assert [v["value"] for v in got["versions"]] == [">=3.8", ">=3.10"]
    assert "answering" not in history(r, got["key"])
    with pytest.raises(RepomemError, match="unknown key"):
        history(r, "no_such_key")


CI_YML = """name: ci
on: [push]
jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/setup-node@v4
        with:
          node-version: lts/*
  test:
    strategy:
      matrix:
        os: [ubuntu-latest, windows-latest]
        node-version: [18, 20, 22]
    runs-on: ${{ matrix.os }}
    steps:
      - uses: actions/setup-node@v4
        with:
          node-version: ${{ matrix.node-version }}
"""


def test_the_node_versions_ci_tests_are_its_matrix(new_repo):
    """express: "which node versions are tested in CI?" answered with package.json's engines, then
    `node-version: ${{ matrix.node-version }}` (a reference, no version), the matrix fourth.  A
    workflow's matrix of a runtime says what Python's does, CI asks for settings, "node versions"
    spells a node-version key, and a reference yields to what it reads."""
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {
        ".github/workflows/ci.yml": CI_YML,
        "package.json": '{"name": "web", "engines": {"node": ">= 18"}}\n'}))
    assert first(r, "Which node versions are tested in CI?") == ("config", "18, 20, 22", ".github/workflows/ci.yml")
    assert first(r, "Which node version is required?")[:2] == ("dependency", ">= 18")


TIMEOUTS = '''class Timeout:
    """Timeout configuration: connect, read, write and pool timeouts."""


class TimeoutException(Exception):
    """The request did not complete in time."""


class DecodingError(Exception):
    """Decoding of the response failed."""


DEFAULT_TIMEOUT_CONFIG = Timeout(timeout=5.0)
'''


def test_an_exception_asked_for_is_the_one_named_after_the_word(new_repo):
    """httpx: "which exception is raised on a timeout?" answered the Timeout configuration class
    (timeout is a setting's word, and Timeout a class): the exception is the class named after
    the word, TimeoutException."""
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"pkg/_config.py": TIMEOUTS}))
    assert first(r, "Which exception is raised on a timeout?")[:2] == ("class", "TimeoutException")
    assert first(r, "Which exception is raised when decoding fails?")[:2] == ("class", "DecodingError")
    assert first(r, "What does the Timeout class configure?")[:2] == ("class", "Timeout")


UTILS = '''def echo(message=None, file=None, nl=True):
    """Print a message and newline to the standard output or a file."""


def prompt(text, default=None):
    """Prompts a user for input."""
    return input(text)
'''
ECHO_STDIN = '''class EchoingStdin:
    def _echo(self, rv):
        """Echo what was read back to the output."""
        return rv
'''


def test_a_function_by_its_package_or_where_it_is_defined(new_repo):
    """click: "in which file is echo defined?" did not find echo (a plain word, named nowhere as
    code), and "what does click.prompt return?" not prompt (a module-level function is called
    by its package or module: click.prompt, termui.prompt)."""
    from repomem.service.query import history

    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"src/cli/utils.py": UTILS,
                                                      "src/cli/testing.py": ECHO_STDIN}))
    assert first(r, "In which file is echo defined?") == ("function", "echo", "src/cli/utils.py")
    assert first(r, "What does cli.prompt return?")[:2] == ("function", "prompt")
    assert first(r, "What does utils.prompt return?")[:2] == ("function", "prompt")
    assert history(r, "cli.echo")["versions"][0]["value"] == "echo"


REDIRECT_JS = """/**
 * Redirect to the given url, keeping the query string.
 */
res.redirect = function redirect(url) {
  return this.location(url);
};
"""


@pytest.mark.parametrize("prompt", [
    "fix the bug where res.redirect loses the query string",
    "Fix: redirect drops the query string",
    "Please fix the issue with the redirect and the query string",
])
def test_an_agents_task_is_ranked_by_what_it_is_about(new_repo, prompt):
    """An agent's prompt is a task: its verb ("fix") and "the bug where" are not what it is
    about.  express: the context for "fix the bug where res.redirect loses the query string"
    listed the `lint:fix` script second, before the query parser."""
    from repomem.service.context import build_context

    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {
        "lib/response.js": REDIRECT_JS,
        "package.json": '{\n  "name": "web",\n  "scripts": {\n    "lint": "eslint .",\n'
                        '    "lint:fix": "eslint . --fix"\n  }\n}\n'}))
    block = build_context(r, prompt, budget=2000, k=2)
    assert "`redirect` method of `res`" in block and "scripts.lint:fix" not in block, block


PERSON_MODEL = """from django.db import models


class Person(models.Model):
    first_name = models.CharField("First name", max_length={n})
    last_name = models.CharField("Last name", max_length=254)
"""


def test_a_model_fields_definition_has_a_history(new_repo):
    """bakerydemo: "what is the max length of a person's first name?" had no fact to answer
    (only the class Person).  A field is a setting of its model, and each of its options one of
    the field: a new max_length supersedes."""
    from repomem.service.query import history

    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"base/models.py": PERSON_MODEL.format(n=100)}),
                ("2024-06-01T10:00:00Z", {"base/models.py": PERSON_MODEL.format(n=254)}))
    got = ask(r, "what is the max length of a person's first name?")
    assert got["facts"][0]["key"] == "config:base/models.py:Person.first_name.max_length"
    assert got["answer"] == "254"
    assert ["max_length=100" in v["value"] for v in history(
        r, "config:base/models.py:Person.first_name")["versions"]] == [True, False]
    then = ask(r, "what is the max length of a person's first name?", as_of="2024-04-01")
    assert then["answer"] == "100"


CLIENT_PY = """class Client:
    \"\"\"An HTTP client.\"\"\"

    def __init__(self, *, timeout=5.0, follow_redirects={follow}, max_redirects=20):
        self.follow_redirects = follow_redirects


def follow(response):
    \"\"\"The next request of a redirect response.\"\"\"
    return response.next_request
"""


def test_a_constructor_default_answers_what_happens_by_default(new_repo):
    """httpx: "does the client follow redirects by default?" had no fact saying so
    (`Client.__init__(follow_redirects=False)`).  A public class's constructor defaults are
    settings of the class, with a history: follow_redirects was True, then False."""
    from repomem.service.query import history

    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"web/client.py": CLIENT_PY.format(follow=True)}),
                ("2024-06-01T10:00:00Z", {"web/client.py": CLIENT_PY.format(follow=False)}))
    got = ask(r, "does the client follow redirects by default?")
    key = "config:web/client.py:Client.follow_redirects"
    assert (got["facts"][0]["key"], got["answer"]) == (key, "False")
    assert [v["value"] for v in history(r, key)["versions"]] == ["True", "False"]
    assert ask(r, "does the client follow redirects by default?", as_of="2024-04-01")["answer"] == "True"



def test_a_camel_case_name_is_indexed_by_its_words():
    """httpx: "how is basic auth encoded?" found test_basic_auth, not the class BasicAuth: a
    CamelCase name was indexed only as one lower-cased word (basicauth), while a snake_case
    name's words were; a setting's camelCase name too (testEnvironment)."""
    from repomem.service.lexical import doc_tokens

    row = {"kind": "class", "key": "class:6f6e6c7fdd30", "value": "BasicAuth", "purpose": "",
           "path": "web/auth.py", "subject": "class BasicAuth", "text": "", "attrs": "[]"}
    assert {"name:basic", "name:auth", "name:basicauth"} <= set(doc_tokens(row))
    row = dict(row, kind="config", key="config:jest.config.js:testEnvironment", value="node",
               subject="testEnvironment in jest.config.js", path="jest.config.js")
    assert {"name:test", "name:environ", "name:test_environment", "name:jest"} <= set(doc_tokens(row))


PAGE_MODELS = '''from django.db import models


class FormField(models.Model):
    page = models.ForeignKey("FormPage", related_name="form_fields", on_delete=models.CASCADE)


class BlogPersonRelationship(models.Model):
    page = models.ForeignKey("BlogPage", related_name="people", on_delete=models.CASCADE)
    person = models.ForeignKey("Person", related_name="blog_pages", on_delete=models.CASCADE)


class RecipePersonRelationship(models.Model):
    page = models.ForeignKey("RecipePage", related_name="people", on_delete=models.CASCADE)
    person = models.ForeignKey("Person", related_name="recipes", on_delete=models.CASCADE)


class RecipePage(models.Model):
    """A recipe: its ingredients, method and the people who wrote it."""

    subtitle = models.CharField(blank=True, max_length=255)
    introduction = models.TextField(blank=True, max_length=500)
'''
SEARCH_VIEW = '''from django.shortcuts import render


def search(request):
    """Search the site's pages for the query, a page of results at a time."""
    query = request.GET.get("q")
    return render(request, "search/search_results.html", {"query": query})
'''
VIEWSETS = '''class CountryModelViewSet:
    """The model viewset that lists countries in the admin."""

    list_display = ["title"]
'''


def test_a_word_qualified_by_another_is_no_name_where_it_is_implemented(new_repo):
    """"how is the search page implemented?": "page" is a page of the site, not the `page`
    fields of three models ("is echo implemented" makes echo a name; a word qualified by another
    is a noun phrase)."""
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"site/models.py": PAGE_MODELS,
                                                      "site/search/views.py": SEARCH_VIEW}))
    got = ask(r, "How is the search page implemented?")["facts"][0]
    assert (got["kind"], got["value"]) == ("function", "search")
    assert identifiers("how is the search page implemented")[1] == ("page", False, "page")
    assert identifiers("how is echo implemented")[0] == ("echo", True, "echo")


def test_which_model_stores_a_thing_asks_for_the_models_class(new_repo):
    """"which model stores recipes?" is the class RecipePage, not its fields (settings of the
    model) nor a class whose name says "model" (CountryModelViewSet)."""
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"site/models.py": PAGE_MODELS,
                                                      "site/viewsets.py": VIEWSETS}))
    got = ask(r, "Which model stores recipes?")["facts"][0]
    assert (got["kind"], got["value"]) == ("class", "RecipePage")
    assert intent("which model field stores the title?") != {"class"}


PROJECT_JSON = '{"name": "api", "projectType": "application", "sourceRoot": "src"}\n'
PRISMA = '''datasource db {
  provider = "postgresql"
  url      = env("DATABASE_URL")
}

model User {
  id    Int    @id @default(autoincrement())
  email String @unique
}
'''


def test_the_project_a_question_speaks_of_is_the_repository(new_repo):
    """"which database does the project use?": the Prisma datasource, not Nx's projectType
    (the word "project" is the repository here); "the project type" still names it."""
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"project.json": PROJECT_JSON,
                                                      "prisma/schema.prisma": PRISMA}))
    top = [f["key"] for f in ask(r, "Which database does the project use?")["facts"][:2]]
    assert "config:prisma/schema.prisma:datasource.db.provider" in top
    assert "config:project.json:projectType" not in top
    got = ask(r, "What is the project type?")["facts"][0]
    assert got["key"] == "config:project.json:projectType"


MAIL_SETTINGS = '''import os


class Config:
    SECRET_KEY = os.environ.get("SECRET_KEY") or "you-will-never-guess"
    MAIL_SERVER = os.environ.get("MAIL_SERVER")
    MAIL_PORT = int(os.environ.get("MAIL_PORT") or 25)
    SERVER_NAME = os.environ.get("SERVER_NAME")
'''
MAIL_FORMS = '''from flask_wtf import FlaskForm
from wtforms import PasswordField, StringField
from wtforms.validators import DataRequired, Email


class RegistrationForm(FlaskForm):
    username = StringField("Username", validators=[DataRequired()])
    email = StringField("Email", validators=[DataRequired(), Email()])


class ResetPasswordRequestForm(FlaskForm):
    email = StringField("Email", validators=[DataRequired(), Email()])
'''


def test_a_plain_word_that_qualifies_a_noun_names_a_fact_only_with_that_noun(new_repo):
    """"which email server is configured?" is the mail server, not the `email` fields of two
    forms ("email" qualifies "server"); "the email field" still names those fields."""
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"config.py": MAIL_SETTINGS,
                                                      "app/auth/forms.py": MAIL_FORMS}))
    assert ask(r, "Which email server is configured?")["facts"][0]["key"] == \
        "config:config.py:Config.MAIL_SERVER"
    assert ask(r, "What validates the email field of the registration form?")["facts"][0]["key"] == \
        "config:app/auth/forms.py:RegistrationForm.email"


COOKIE_MODELS = '''import urllib.request


class Response:
    @property
    def cookies(self):
        """The cookies this response set."""
        return self._cookies


class Cookies:
    """A cookie jar."""

    def extract_cookies(self, response):
        """Keep the cookies a response set."""
        self.jar.extract_cookies(response, self._CookieCompatRequest(response.request))

    class _CookieCompatRequest(urllib.request.Request):
        """Wraps a request so that the cookie jar can store cookies between requests."""

        def add_unredirected_header(self, key, value):
            self.headers[key] = value
'''


def test_a_question_of_no_kind_prefers_the_api_to_a_private_helper(new_repo):
    """"how are cookies stored between requests?" (httpx): the private `_CookieCompatRequest`,
    whose docstring says the question's words, is a helper of the cookie jar, not its API."""
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"pkg/models.py": COOKIE_MODELS}))
    got = ask(r, "How are cookies stored between requests?")["facts"][0]
    assert not got["value"].startswith("_"), got["value"]


LINT_PYPROJECT = """[project]
name = "tool"
version = "1.0"

[tool.ruff]
line-length = 100

[tool.ruff.lint]
select = ["E", "F", "I"]

[tool.pytest.ini_options]
testpaths = ["tests"]

[tool.coverage.run]
branch = true
"""


def test_a_linter_is_what_lints(new_repo):
    """"which linter does the project use?": ruff's lint settings ([tool.ruff.lint]); "linter"
    is not a word any setting spells, "lint" is."""
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"pyproject.toml": LINT_PYPROJECT,
                                                      "tool/cli.py": "def main():\n    return 0\n"}))
    got = ask(r, "Which linter does the project use?")["facts"][0]
    assert got["key"].startswith("config:pyproject.toml:tool.ruff"), got["key"]


DJANGO_LOGGING = '''LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
}
'''


def test_a_version_managers_pin_answers_which_runtime_version(new_repo):
    """bakerydemo: "what node version is used?" gave Django's LOGGING.version (a constant, the
    kind a version question asks for) before .nvmrc's node (a setting): a version manager's pin
    is the runtime's version, wanted as a requirement is."""
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {
        ".nvmrc": "24\n", ".python-version": "3.12\n", "site/settings/production.py": DJANGO_LOGGING,
        ".pre-commit-config.yaml": "default_language_version:\n  node: system\n  python: python3\n"}))
    assert ask(r, "What node version is used?")["facts"][0]["key"] == "config:.nvmrc:node"
    assert ask(r, "What python version is used?")["facts"][0]["key"] == "config:.python-version:python"


STREAM_MODELS = '''
class Response:
    """An HTTP response."""

    def __init__(self, status_code, default_encoding="utf-8"):
        self.status_code = status_code
        self.default_encoding = default_encoding


class Client:
    def stream(self, method, url):
        """Send a request and stream the response body instead of loading it at once."""
        return self.send(method, url, stream=True)
'''


def test_a_word_that_names_a_class_names_none_of_its_settings(new_repo):
    """"how does the client stream a response?" (httpx): "response" is the class Response, not
    its setting Response.default_encoding, which the question does not say; "what is the
    default encoding of a response?" does say it."""
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"pkg/models.py": STREAM_MODELS}))
    got = ask(r, "how does the client stream a response?")["facts"]
    assert got[0]["value"] == "stream", [f["key"] for f in got]
    got = ask(r, "what is the default encoding of a response?")["facts"]
    assert got[0]["key"] == "config:pkg/models.py:Response.default_encoding"


def test_a_possessive_name_of_code_is_asked_about_not_the_project(tmp_path):
    """"When did UsageError's exit code change?": `X's` names the project asking ("flask's
    dependency on blinker"), but a name written as code (camelCase, snake_case) is the class
    whose exit code is asked: its own, not Exit.code, comes first."""
    from repomem.service.query import ask
    from repomem.service.question import identifiers
    from tests.conftest import indexed
    from tests.miners.python.test_python_miner import EXCEPTIONS_PY

    assert ("usageerror", True, "UsageError") in identifiers("when did UsageError's exit code change?")
    # "does X use" names the project asking ("does flask require blinker?"), not res.redirect
    assert ("res_redirect", True, "res.redirect") in identifiers(
        "which status code does res.redirect use by default?")
    assert [n for n, _, _ in identifiers("does flask require blinker?")] == ["blinker"]
    assert [n for n, _, _ in identifiers("What is flask's dependency on blinker?")] == ["blinker"]
    exit_py = "class Exit(RuntimeError):\n    def __init__(self, code=0):\n        self.code = code\n\n\n"
    r = indexed(tmp_path / "repo", ("2024-03-01T10:00:00Z", {
        "src/click/exceptions.py": exit_py + EXCEPTIONS_PY.format(code=2)}))
    got = ask(r, "when did UsageError's exit code change?")["facts"][0]
    assert got["key"] == "config:src/click/exceptions.py:UsageError.exit_code"


EMBEDDING_SETTINGS = '''EMBEDDING_MODEL = "all-MiniLM-L6-v2"
'''


def test_the_x_model_asks_for_the_class_named_so(new_repo):
    """"Where is the recipe page model defined?" (bakerydemo): the class RecipePage, not its
    fields, which bear its name too; "the embedding model" names no class, and its setting still
    answers."""
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"site/models.py": PAGE_MODELS,
                                                       "site/settings.py": EMBEDDING_SETTINGS}))
    got = ask(r, "where is the recipe page model defined?")["facts"][0]
    assert (got["kind"], got["value"]) == ("class", "RecipePage")
    got = ask(r, "which is the embedding model?")["facts"][0]
    assert got["key"] == "constant:site/settings.py:EMBEDDING_MODEL"


LIMITS_CONFIG = '''class Limits:
    def __init__(self, max_connections=None, max_keepalive_connections=None):
        self.max_connections = max_connections
        self.max_keepalive_connections = max_keepalive_connections


DEFAULT_LIMITS = Limits(max_connections=100, max_keepalive_connections=20)
DEFAULT_MAX_REDIRECTS = 20  # the default maximum of redirects followed
DEFAULT_TIMEOUT = 5.0


class Client:
    def __init__(self, max_redirects=DEFAULT_MAX_REDIRECTS, limits=DEFAULT_LIMITS):
        self.max_redirects = max_redirects
        self.limits = limits


class AsyncClient:
    def __init__(self, max_redirects=DEFAULT_MAX_REDIRECTS, limits=DEFAULT_LIMITS):
        self.max_redirects = max_redirects
        self.limits = limits
'''


def test_words_spelling_a_keyword_of_a_settings_value_name_that_setting(new_repo):
    """"What is the default max connections?" (httpx): a call given one argument has no fact
    of its keyword (``Limits(max_connections=100)``), but DEFAULT_LIMITS's value passes it by
    name, which DEFAULT_MAX_REDIRECTS, sharing two of the words, does not.  Given two, the
    keyword's own fact answers (``DEFAULT_LIMITS.max_connections`` = ``100``)."""
    one = LIMITS_CONFIG.replace(", max_keepalive_connections=20)", ")")
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"pkg/_config.py": one}))
    got = ask(r, "what is the default max connections?")["facts"]
    assert got[0]["key"] == "constant:pkg/_config.py:DEFAULT_LIMITS", [f["key"] for f in got]
    got = ask(r, "what is the default max redirects?")["facts"]
    assert got[0]["key"] == "constant:pkg/_config.py:DEFAULT_MAX_REDIRECTS", [f["key"] for f in got]
    r = indexed(new_repo("two"), ("2024-03-01T10:00:00Z", {"pkg/_config.py": LIMITS_CONFIG}))
    got = ask(r, "what is the default max connections?")["facts"]
    assert (got[0]["key"], got[0]["value"]) == ("constant:pkg/_config.py:DEFAULT_LIMITS.max_connections", "100")
    # two more facts saying "default" and "max" in a store of ten weigh those words less: the
    # clients' max_redirects (= DEFAULT_MAX_REDIRECTS) come first, the constant just after
    got = [f["key"] for f in ask(r, "what is the default max redirects?")["facts"]]
    assert "constant:pkg/_config.py:DEFAULT_MAX_REDIRECTS" in got[:3], got


PRISMA_SCHEMA = '''datasource db {
  provider = "postgresql"
  url      = env("DATABASE_URL")
}
'''


def test_words_spelling_an_environment_variable_a_setting_reads_name_that_setting(new_repo):
    """"How is the database url configured?" (node-express-realworld): Prisma's datasource url
    reads DATABASE_URL, which the question spells; tsconfig's baseUrl only shares "url".  Named
    so, it ranks in the tier of facts the question names (a score of 1 or more), not by its
    words alone, which the real history's other settings outnumber."""
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {
        "src/prisma/schema.prisma": PRISMA_SCHEMA,
        "tsconfig.json": '{"compilerOptions": {"baseUrl": "./api", "target": "es2015"}}\n'}))
    got = ask(r, "how is the database url configured?")["facts"]
    assert got[0]["key"] == "config:src/prisma/schema.prisma:datasource.db.url", [f["key"] for f in got]
    assert got[0]["score"] >= 1 > got[1]["score"]


def test_a_noun_said_to_be_so_names_the_setting_of_both_words(new_repo):
    """"Which apps are installed?" (bakerydemo) is INSTALLED_APPS, not uwsgi's lazy-apps, which
    only says "apps": "X are Y-ed" names Y_X as "the Y-ed X" does."""
    from repomem.service.question import joined

    assert ("installed_apps", False, "installed_apps") in joined("which apps are installed?")
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {
        "site/settings/base.py": 'INSTALLED_APPS = ["site.blog", "wagtail", "django.contrib.admin"]\n'
                                 'ALLOWED_HOSTS = []\n',
        "etc/uwsgi.ini": "[uwsgi]\nlazy-apps = true\nprocesses = 4\n"}))
    got = ask(r, "which apps are installed?")["facts"]
    assert got[0]["key"] == "constant:site/settings/base.py:INSTALLED_APPS", [f["key"] for f in got]


AUTH_EXAMPLE_JS = '''var express = require('express');
var app = module.exports = express();

app.get('/', function(req, res){
  res.redirect('/login');
});

app.get('/restricted', restrict, function(req, res){
  res.send('Wahoo! restricted area, click to <a href="/logout">logout</a>');
});

app.get('/logout', function(req, res){
  req.session.destroy(function(){
    res.redirect('/');
  });
});

app.get('/login', function(req, res){
  res.render('login');
});
'''
USERS_API_JS = '''var express = require('express');
var app = module.exports = express();

app.get('/api/users', function(req, res){
  res.send(users);
});

app.get('/api/user/:name/repos', function(req, res){
  res.send(userRepos[req.params.name]);
});
'''


def test_a_phrasal_verb_names_what_code_calls_in_one_word(new_repo):
    """"Which route logs the user out?" (express's auth example): code says logout, login,
    signup, setup in one word, so the route /logout answers, not the routes about users."""
    from repomem.service.question import joined

    assert ("logout", False, "logout") in joined("which route logs the user out?")
    assert ("setup", False, "setup") in joined("where is the test database set up?")
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"examples/auth/index.js": AUTH_EXAMPLE_JS,
                                                       "examples/web-service/index.js": USERS_API_JS}))
    for question in ("which route logs the user out?", "which route logs out?"):
        got = ask(r, question)["facts"]
        assert got[0]["value"] == "GET /logout", (question, [f["value"] for f in got])


NEGOTIATION_JS = '''var express = require('express');
var app = module.exports = express();

app.get('/', function(req, res){
  res.format({
    html: function(){ res.send('<ul>' + users.map(listItem).join('') + '</ul>'); },
    text: function(){ res.send(users.map(function(user){ return ' - ' + user.name + '\\n'; }).join('')); },
    json: function(){ res.json(users); }
  });
});
'''


def test_words_naming_a_folder_scope_the_question_to_it(new_repo):
    """"Which example shows content negotiation?" (express): what lies in
    examples/content-negotiation/, though nothing in it says "negotiation"; a folder named by
    one word (auth) is too common a word to scope by."""
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {
        "examples/content-negotiation/index.js": NEGOTIATION_JS,
        "examples/auth/index.js": AUTH_EXAMPLE_JS, "examples/web-service/index.js": USERS_API_JS,
        ".github/workflows/ci.yml": "permissions:\n  contents: read\n"}))
    got = ask(r, "which example shows content negotiation?")["facts"]
    assert got[0]["path"] == "examples/content-negotiation/index.js", [(f["path"], f["value"]) for f in got]


URLS_PY = '''class URL:
    """url = httpx.URL("HTTPS://jo%40email.com:a%20secret@müller.de:1234/pa%20th?search=ab#anchorlink")"""

    def __init__(self, url=""):
        self._url = url


class URLPattern:
    """A utility class currently used for making lookups against proxy keys."""

    def __init__(self, pattern):
        self.pattern = pattern


class HTTPError(Exception):
    """Base class for `RequestError` and `HTTPStatusError`: the request's URL is `self.request.url`."""
'''


def test_a_word_spelled_as_a_class_names_that_class(new_repo):
    """"Which class represents the URL?" (httpx): `URL` as written is the class's name, though
    "url" is a word that frames route questions; a lower-case "url" names no class."""
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"webclient/_urls.py": URLS_PY}))
    got = ask(r, "which class represents the URL?")["facts"]
    assert got[0]["value"] == "URL", [f["value"] for f in got]
    assert got[0]["score"] >= 1 and ask(r, "which class represents the url?")["facts"][0]["score"] < 1


ECHO_PY = '''def echo(message=None, file=None, nl=True, err=False, color=None):
    """Print a message and newline to stdout or a file."""
    print(message, file=file)


def secho(message=None, file=None, nl=True, err=False, color=None, **styles):
    """Echo a message with ANSI colors and styles applied."""
    return echo(style(message, **styles), file=file, nl=nl, err=err, color=color)


def style(text, fg=None, bg=None, bold=None):
    """Style a text with ANSI colors and text styles."""
    return text
'''
COLORS_EXAMPLE = '''[project]
name = "click-example-colors"
version = "1.0.0"
dependencies = ["click>=8.1"]

[project.scripts]
colors = "colors:cli"
'''


def test_a_name_written_as_code_outweighs_a_plain_word(new_repo):
    """"What does click.echo do with colors?": `click.echo`, written as code, is what is asked
    about; "colors" is a plain word that the colors example's script also bears."""
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"src/click/utils.py": ECHO_PY,
                                                       "examples/colors/pyproject.toml": COLORS_EXAMPLE}))
    from repomem.service import rowindex, tiers, viewcache

    got = ask(r, "what does click.echo do with colors?")["facts"]
    assert got[0]["value"] == "echo", [f["key"] for f in got]
    rows = viewcache.load_search(r.store.path)[1]
    exact, _ = tiers._exact(parse("what does click.echo do with colors?"), rowindex._facts(rows), 2**31, set())
    named = {rows[i]["value"]: int(exact[i]) for i in exact.nonzero()[0]}
    assert named["echo"] > named["colors:cli"] > 0, named


CLI_CORE_PY = '''from ._winconsole import GetStdHandle


class Parameter:
    def handle_parse_result(self, ctx, opts, args):
        """Process the value of this parameter."""
        return opts.get(self.name)


class Command:
    def main(self, args=None, standalone_mode=True):
        """Invoke the command as a script."""
        try:
            with self.make_context(args) as ctx:
                return self.invoke(ctx)
        except (EOFError, KeyboardInterrupt) as e:
            echo(file=sys.stderr)
            raise Abort() from e


STDIN_HANDLE = GetStdHandle(-10)
STDOUT_HANDLE = GetStdHandle(-11)
'''


def test_what_a_body_catches_answers_how_an_error_is_handled(new_repo):
    """"How does click handle keyboard interrupts?" gave the STD*_HANDLE constants and
    Parameter.handle_parse_result: nothing else says "handle", and Command.main's name and
    docstring say nothing of interrupts; its body catches KeyboardInterrupt (attrs catches).
    A new except clause describes the version, like a call: it opens no new version."""
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"src/click/core.py": CLI_CORE_PY}),
                ("2024-04-01T10:00:00Z", {"src/click/core.py": CLI_CORE_PY.replace(
                    "except (EOFError, KeyboardInterrupt) as e:",
                    "except BrokenPipeError:\n            pass\n"
                    "        except (EOFError, KeyboardInterrupt) as e:")}))
    got = ask(r, "how does click handle keyboard interrupts?")["facts"]
    assert got[0]["value"] == "main", [f["value"] for f in got]
    assert got[0]["attrs"]["catches"] == "BrokenPipeError, EOFError, KeyboardInterrupt"
    assert len(history(r, got[0]["key"])["versions"]) == 1


def test_the_project_name_names_no_exception_caught(new_repo):
    """"Which click function swallows exceptions?" (the real-history benchmark's dev half):
    "click" is the project, not the ClickException that Command.main catches."""
    utils = ('def _safecall(func):\n    """Wraps a function so that it swallows exceptions."""\n'
             '    def wrapper(*args, **kwargs):\n        try:\n            return func(*args)\n'
             '        except Exception:\n            pass\n    return wrapper\n')
    core = CLI_CORE_PY.replace("            raise Abort() from e\n",
                               "            raise Abort() from e\n        except ClickException as e:\n"
                               "            e.show()\n")
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {
        "src/click/core.py": core, "src/click/utils.py": utils,
        "pyproject.toml": '[project]\nname = "click"\n'}))
    got = ask(r, "which click function swallows exceptions?")["facts"]
    assert got[0]["value"] == "_safecall", [f["value"] for f in got]
    assert ask(r, "how does click handle keyboard interrupts?")["facts"][0]["value"] == "main"


TIMEOUTS_PY = '''class TransportError(Exception):
    """Base class for all exceptions that occur at the level of the transport API."""


class ReadError(TransportError):
    """Failed to receive data from the network."""


class ReadTimeout(TransportError):
    """Timed out while receiving data from the host."""


class WriteTimeout(TransportError):
    """Timed out while sending data to the host."""
'''


def test_what_times_out_names_its_timeout(new_repo):
    """"What exception is raised when a read times out?" (httpx) gave ReadError: "times out"
    is a timeout, and the word before it says whose (read_timeout: ReadTimeout)."""
    from repomem.service.question import joined

    assert ("read_timeout", False, "read_timeout") in joined("when a read times out")
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"httpx/_exceptions.py": TIMEOUTS_PY}))
    got = ask(r, "what exception is raised when a read times out?")["facts"]
    assert got[0]["value"] == "ReadTimeout", [f["value"] for f in got]


PARAM_TYPES_PY = '''class ParamType:
    """Represents the type of a parameter. Validates and converts values from the command line."""

    name = "param"


class Choice(ParamType):
    """The choice type allows a value to be checked against a fixed set of supported values."""

    name = "choice"


class UUIDParameterType(ParamType):
    name = "uuid"
'''


def test_a_class_named_with_its_base_is_the_subclass(new_repo):
    """"Which class represents a choice parameter type?" (click) gave ParamType, whose
    docstring says it all; the question names Choice by its word and its base by its own
    (param is parameter's abbreviation): the subclass is asked for."""
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"src/click/types.py": PARAM_TYPES_PY}))
    got = ask(r, "which class represents a choice parameter type?")["facts"]
    assert got[0]["value"] == "Choice", [f["value"] for f in got]
    assert ask(r, "which class represents a parameter type?")["facts"][0]["value"] == "ParamType"


ARTICLES_TS = '''import { Router } from 'express';

const router = Router();

router.get('/articles/feed', auth.required, async (req, res) => {
  res.json(await getFeed(req.auth.user.id));
});

router.post('/users', async (req, res) => {
  res.status(201).json(await createUser(req.body.user));
});

router.put('/user', auth.required, async (req, res) => {
  res.json(await updateUser(req.body.user, req.auth.user.id));
});

export default router;
'''


def test_a_routes_verb_says_its_method(new_repo):
    """"Which route returns the user's feed?" (node-express-realworld) gave POST /users, whose
    path says "user": a route that returns something is a GET, one that creates a POST, one
    that updates a PUT or PATCH, one that deletes a DELETE; not what a route returns ("what
    does the login route return?": its response)."""
    from repomem.service.question import route_methods

    assert route_methods("which route returns the user's feed?") == {"GET"}
    assert route_methods("which route updates the user?") == {"PUT", "PATCH"}
    assert route_methods("what does the login route return?") == set()  # its response
    assert route_methods("which route creates and returns a user?") == {"POST"}  # said of it
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"src/routes/articles.ts": ARTICLES_TS}))
    got = ask(r, "which route returns the user's feed?")["facts"]
    assert got[0]["value"] == "GET /articles/feed", [f["value"] for f in got]
    assert ask(r, "which route updates the user?")["facts"][0]["value"] == "PUT /user"


PROGRESS_PY = '''class ProgressBar:
    """Shows how far an iteration has come."""

    def __init__(self, iterable, length=None, fill_char="#", empty_char=" ",
                 bar_template="%(bar)s", info_sep="  ", show_eta=True, show_percent=None,
                 show_pos=False, label=None, file=None, color=None, width=30, hidden=False):
        self.iterable = iterable
        self.width = width
'''


def test_a_size_asked_by_its_adjective_is_its_noun(new_repo):
    """"How wide is the progress bar?" (click) gave the class ProgressBar, then its
    bar_template: "wide" is the progress bar's width (ProgressBar.width = 30), as "the progress
    bar width" would say; "how long is a token valid?" asks for a time, no length."""
    from repomem.service.question import measured

    assert measured("how wide is the progress bar?") == "how wide is the progress bar width?"
    assert measured("how long can a post be?") == "how long can a post length be?"
    assert measured("how long is an api token valid?") == "how long is an api token valid timeout?"
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"src/click/_termui_impl.py": PROGRESS_PY}))
    got = ask(r, "how wide is the progress bar?")["facts"]
    assert got[0]["key"] == "config:src/click/_termui_impl.py:ProgressBar.width", [f["key"] for f in got]


TOKEN_MODELS_PY = '''class User(db.Model):
    token = so.mapped_column(sa.String(32), index=True, unique=True)
    token_expiration = so.mapped_column(sa.DateTime)

    def get_reset_password_token(self, expires_in=600):
        return jwt.encode({"reset_password": self.id, "exp": time() + expires_in}, KEY)

    def get_token(self, expires_in=%d):
        self.token = secrets.token_hex(16)
        self.token_expiration = now() + timedelta(seconds=expires_in)
        return self.token

    def revoke_token(self):
        self.token_expiration = now() - timedelta(seconds=1)

    @staticmethod
    def check_token(token):
        return db.session.scalar(sa.select(User).where(User.token == token))
'''
TOKEN_API_PY = '''from app.api import bp


@bp.route("/tokens", methods=["POST"])
def get_token():
    return {"token": basic_auth.current_user().get_token()}


@bp.route("/tokens", methods=["DELETE"])
def revoke_token():
    token_auth.current_user().revoke_token()
    return "", 204
'''
TOKEN_CONFIG_PY = '''import os


class Config:
    SQLALCHEMY_DATABASE_URI = os.environ.get("DATABASE_URL") or "sqlite:///app.db"
    ELASTICSEARCH_URL = os.environ.get("ELASTICSEARCH_URL")
    REDIS_URL = os.environ.get("REDIS_URL") or "redis://"
    POSTS_PER_PAGE = 25
'''


def test_a_time_asked_is_a_methods_default(new_repo):
    """"How long is an api token valid?" (microblog) gave the route POST /api/tokens: a public
    method's parameter default is a setting with a history (``User.get_token.expires_in``), a
    time asked for is a number (no route, though "api" says one) that code names a timeout or
    an expiry, and a method's default answers when the question says the method's name in
    words ("token", after its verb) and the parameter's (a timeout)."""
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"app/models.py": TOKEN_MODELS_PY % 3600,
                                                      "app/api/tokens.py": TOKEN_API_PY,
                                                      "config.py": TOKEN_CONFIG_PY}),
                ("2024-04-01T10:00:00Z", {"app/models.py": TOKEN_MODELS_PY % 7200}))
    key = "config:app/models.py:User.get_token.expires_in"
    assert [v["value"] for v in history(r, key)["versions"]] == ["3600", "7200"]
    for question in ("how long is an api token valid?", "how long does an api token last?"):
        got = ask(r, question)
        assert (got["facts"][0]["key"], got["answer"]) == (key, "7200"), \
            [f["key"] for f in got["facts"]]
    # the method is not said: its default is no answer to the posts per page
    assert ask(r, "how many posts per page?")["facts"][0]["key"] == "config:config.py:Config.POSTS_PER_PAGE"


RESET_FORMS_PY = '''class ResetPasswordRequestForm(FlaskForm):
    email = StringField(_l("Email"), validators=[DataRequired(), Email()])
    submit = SubmitField(_l("Request Password Reset"))


class ResetPasswordForm(FlaskForm):
    password = PasswordField(_l("Password"), validators=[DataRequired()])
    password2 = PasswordField(_l("Repeat Password"), validators=[DataRequired(), EqualTo("password")])
    submit = SubmitField(_l("Request Password Reset"))
'''


def test_a_time_asked_is_no_setting_without_a_number(new_repo):
    """"How long is a password reset token valid?" (microblog) gave the form field
    ResetPasswordForm.password, named by the question, before the method's default
    ``expires_in=600``: a time asked is a number, so a setting named by the question answers
    it only when its value is one.  "When does ... expire?" asks for a time too, not a date."""
    from repomem.service.question import asks_duration

    assert asks_duration("when does the jwt expire?") and asks_duration("when do sessions time out?")
    assert not asks_duration("when did the jwt expiry change?")
    assert not asks_duration("when was the token expiration added?")
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"app/models.py": TOKEN_MODELS_PY % 3600,
                                                      "app/auth/forms.py": RESET_FORMS_PY,
                                                      "config.py": TOKEN_CONFIG_PY}))
    key = "config:app/models.py:User.get_reset_password_token.expires_in"
    for question in ("how long is a password reset token valid?",
                     "when does a password reset token expire?"):
        got = ask(r, question)
        assert (got["facts"][0]["key"], got["answer"]) == (key, "600"), \
            (question, [f["key"] for f in got["facts"]])
    # named, and a number is no time asked: the form field still answers its name
    got = ask(r, "what is the password field of the reset password form?")["facts"]
    assert got[0]["key"] == "config:app/auth/forms.py:ResetPasswordForm.password", [f["key"] for f in got]


def test_the_projects_own_version_by_its_name(new_repo):
    """"What was the express version in 2015?" (express) gave a dependency of package.json:
    "express" is the repository's own name, which no dependency bears (an example's
    `app.use(express.static(...))` does not make it one), so the question asks for the
    project's version."""
    package = ('{"name": "webx", "version": "%s", "dependencies": {"parseurl": "~1.3.0",'
               ' "send": "0.13.0", "accepts": "~1.2.0", "fresh": "0.3.0"}}\n')
    # an example's middleware bears the name too (app.use(webx.static(...)))
    example = ("var webx = require('../../');\nvar app = webx();\n\n"
               "app.use(webx.static(__dirname + '/public'));\n")
    r = indexed(new_repo(), ("2015-03-01T10:00:00Z", {"package.json": package % "4.12.0",
                                                      "examples/static/index.js": example}),
                ("2024-03-01T10:00:00Z", {"package.json": package % "5.0.0"}))
    old = ask(r, "what was the webx version in 2015?", as_of="2015-12-31")["facts"][0]
    assert (old["key"], old["value"]) == ("config:package.json:version", "4.12.0")


CLACK_GLOBALS_PY = '''def get_current_context(silent=False):
    """Return the current click context."""
    return _local.stack[-1]
'''


def test_the_projects_own_version_though_its_examples_depend_on_it(new_repo):
    """"What is the current version of click?" gave get_current_context, and "what is the
    version of click?" an example's pin (`click>=8.1`): the examples' dependencies on the
    project do not make its name a package's, unless the question asks about them."""
    pyproject = '[project]\nname = "clack"\nversion = "%s"\ndependencies = ["colorama"]\n'
    example = '[project]\nname = "clack-example-aliases"\nversion = "1.0.0"\ndependencies = ["clack>=8.1"]\n'
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"pyproject.toml": pyproject % "8.1.0",
                                                      "src/clack/globals.py": CLACK_GLOBALS_PY,
                                                      "examples/aliases/pyproject.toml": example}),
                ("2024-06-01T10:00:00Z", {"pyproject.toml": pyproject % "8.2.0.dev"}))
    for question in ("what is the current version of clack?", "what is the version of clack?"):
        got = ask(r, question)["facts"]
        assert (got[0]["key"], got[0]["value"]) == ("config:pyproject.toml:project.version", "8.2.0.dev"), \
            (question, [f["key"] for f in got])
    got = ask(r, "which clack version do the examples require?")["facts"]
    assert got[0]["key"] == "dependency:pypi:examples/aliases:main:clack", [f["key"] for f in got]


FOLLOW_ROUTES_PY = '''from flask import Blueprint

bp = Blueprint("main", __name__)


@bp.route("/user/<username>")
def user(username):
    """Show a user's profile and posts."""
    return render_template("user.html", user=username)


@bp.route("/follow/<username>", methods=["POST"])
def follow(username):
    return redirect(url_for("main.user", username=username))


@bp.route("/api/users/<int:id>/following")
def get_following(id):
    return {"items": []}
'''


def test_a_verb_names_the_route_of_its_handler(new_repo):
    """"Which route follows a user?" (microblog) gave `GET /user/<username>`: "follows" is the
    verb the handler `follow` is named by, so its route answers."""
    # as in microblog, more facts bear "user" than a plain word may name
    models = "from app import db\n\n" + "".join(
        f"\nclass {m}(db.Model):\n    user = db.relationship('User')\n"
        for m in ("Post", "Message", "Notification", "Task", "Token", "Avatar"))
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"app/main/routes.py": FOLLOW_ROUTES_PY,
                                                      "app/models.py": models}))
    got = ask(r, "which route follows a user?")["facts"]
    assert got[0]["value"] == "POST /follow/<username>", [f["value"] for f in got]


SERVER_LOOP_PY = '''class Server:
    async def startup(self, sockets=None):
        await self.lifespan.startup()
        self.servers = [await loop.create_server(create_protocol, sock=s) for s in sockets]

    async def shutdown(self, sockets=None):
        logger.info("Shutting down # no comment")
        # Stop accepting new connections: close the listening sockets.
        for server in self.servers:
            server.close()  # pragma: no cover
        # Wait for open connections to finish their requests.
        await self._wait_tasks_to_complete()

    async def _wait_tasks_to_complete(self):
        while self.server_state.tasks:
            await asyncio.sleep(0.1)
'''


def test_what_an_undocumented_functions_comments_say_finds_it(new_repo):
    """"Which method stops accepting new connections?": shutdown has no docstring and its name
    says none of it; its comments do (attrs notes), where startup's name and calls spoke for
    it. A comment edited describes the version, like a call: it opens no new version."""
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"server.py": SERVER_LOOP_PY}),
                ("2024-04-01T10:00:00Z", {"server.py": SERVER_LOOP_PY.replace(
                    "their requests", "their responses")}))
    got = ask(r, "Which method stops accepting new connections?", k=3)["facts"]
    assert got[0]["value"] == "shutdown", [f["value"] for f in got]
    assert got[0]["attrs"]["notes"] == ("Stop accepting new connections: close the listening "
                                        "sockets.; Wait for open connections to finish their "
                                        "responses.")
    assert len(history(r, got[0]["key"])["versions"]) == 1
