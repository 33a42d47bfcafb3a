"""The ranking rules the real-history benchmark's dev half asked for, on one real git repository:
names in a question do not set its intent, functions asked by what they do, Dockerfile and class
questions, npm scoped names, the project's own version, a handler's first route; and fixture data
is not mined as settings."""

from __future__ import annotations

import pytest

from repomem.service.ingest import ingest
from repomem.service.query import ask, facts
from repomem.service.repo import Repo
from tests.conftest import commit, git, indexed

PYPROJECT = """[project]
name = "webapp"
version = "1.4.0"
requires-python = ">=3.10"
dependencies = ["flask>=3"]
"""
EXAMPLE = """[project]
name = "demo"
version = "0.1.0"
requires-python = ">=3.8"
dependencies = ["click>=8.1"]
"""
PACKAGE_JSON = """{
  "name": "webapp-frontend",
  "private": true,
  "dependencies": {"http-errors": "^2.0.0", "@ngneat/falso": "^7.1.1", "react": "^18.2.0",
                   "methods": "~1.1.2"}
}
"""
ROUTES = '''from flask import Flask

app = Flask(__name__)


@app.route("/")
@app.route("/index")
def index():
    """The home page."""
    return "home"


@app.route("/errors")
def errors():
    """The HTTP errors page."""
    return "errors"


@app.route("/falso")
def falso():
    """A page of fake data."""
    return "falso"
'''
URLS = '''class URL:
    def __init__(self, raw):
        self.raw = raw

    def is_absolute_url(self):
        """Whether this URL is absolute, with a scheme and a host."""
        return "://" in self.raw

    def join(self, url):
        """Return an absolute URL, using this URL as the base."""
        return URL(self.raw.rstrip("/") + "/" + url)

    @property
    def encoding(self):
        """The character encoding of this URL's text."""
        return "utf-8"


def _is_known_encoding(encoding):
    """Return `True` if `encoding` is a known codec."""
    import codecs

    try:
        codecs.lookup(encoding)
    except LookupError:
        return False
    return True
'''
PARSER = '''class {name}:
    """Parses command-line options into values."""

    def __init__(self, ctx=None):
        self.ctx = ctx
        self.options = {{}}
        self.largs = []

    def add_option(self, obj, opts):
        for opt in opts:
            self.options[opt] = obj
'''
STREAMS = '''import sys


def {name}(name, binary=False):
    stream = getattr(sys, name)
    if binary:
        return getattr(stream, "buffer", stream)
    return stream
'''
DOCKERFILE = """FROM python:3.12-slim
ARG NIGHTLY=0
ARG UV_VERSION=0.4.1
EXPOSE 8000
"""
COMPOSE = """services:
  web:
    build:
      context: .
      dockerfile: ./Dockerfile
    image: webapp:dev
"""
HEROKU = """build:
  docker:
    web: Dockerfile
"""


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    root = tmp_path_factory.mktemp("questions") / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    commit(root, "2024-01-10T10:00:00Z", "project", {
        "pyproject.toml": PYPROJECT, "examples/demo/pyproject.toml": EXAMPLE,
        "frontend/package.json": PACKAGE_JSON, "webapp/routes.py": ROUTES,
        "webapp/urls.py": URLS, "webapp/parser.py": PARSER.format(name="OptionParser"),
        "Dockerfile": DOCKERFILE, "docker-compose.yml": COMPOSE, "heroku.yml": HEROKU,
        "config/settings.json": '{"server": {"port": 8000}}',
        "deploy/orders.yaml": ("service:\n  name: orders\n  port: 8000\n  replicas: 3\n"
                               "http:\n  read_timeout: 45\n  max_body_kb: 512\n"),
        "webapp/fixtures/site.json": '{"site": {"name": "Bakery"}}',
        "data/pages.json": '[{"model": "base.page", "pk": 1, "fields": {"title": "Home"}}]',
        ".readthedocs.yaml": "version: 2\n", "webapp/streams.py": STREAMS.format(name="get_stream")})
    commit(root, "2024-03-02T10:00:00Z", "Parser and stream helper are private", {
        "webapp/parser.py": PARSER.format(name="_OptionParser"),
        "webapp/streams.py": STREAMS.format(name="_get_stream")})
    r = Repo.open(root)
    ingest(r, all_history=True, progress=False)
    return r


def top(r, question, n=1):
    return ask(r, question)["facts"][:n]


@pytest.mark.parametrize("question, kind, value", [
    # "http" inside a package's name is no HTTP route; "/falso" after "@ngneat" is no path
    ("Which http-errors release does the frontend need at runtime?", "dependency", "^2.0.0"),
    ("What version constraint does the frontend put on @ngneat/falso?", "dependency", "^7.1.1"),
    # a package named by a word that usually frames a question ("methods") is still a package
    ("What version constraint does the frontend put on methods?", "dependency", "~1.1.2"),
    ("What is the frontend's requirement for methods?", "dependency", "~1.1.2"),
    # the Dockerfile's own facts, not compose's or heroku.yml's mention of it
    ("What is the default of the `NIGHTLY` build argument in the Dockerfile?", "docker", "0"),
    ("What image does the Dockerfile of webapp start FROM?", "docker", "python:3.12-slim"),
    # "python" names the python image, not the interpreter's facts (nor ARG UV_VERSION)
    ("What python version does the Dockerfile use?", "docker", "python:3.12-slim"),
    # a function asked by what it does: its docstring, not a name sharing its words, nor the
    # function that a quoted parameter happens to name
    ("Which helper returns an absolute URL, using this URL as the base?", "function", "join"),
    ("I need the code that returns `True` if `encoding` is a known codec: what is the "
     "function called?", "function", "_is_known_encoding"),
    # the project's own version and interpreter, not its example's
    ("What version number does webapp declare in its package metadata?", "config", "1.4.0"),
    ("What requires-python does webapp declare?", "python", ">=3.10"),
    # a setting's key spelled as plain words ("read timeout"), not the siblings of a section
    # the question also names ("the orders service": service.name is "orders")
    ("What's the HTTP read timeout for the orders service?", "config", "45"),
    # a dependency is known by its project's folder too
    ("What click requirement does the `demo` example declare?", "dependency", ">=8.1"),
])
def test_question_finds_the_fact(repo, question, kind, value):
    got = top(repo, question)[0]
    assert (got["kind"], got["value"]) == (kind, value), got


def test_class_asked_by_its_retired_name(repo):
    res = ask(repo, "What is the class `OptionParser` called in the code?")
    assert (res["facts"][0]["kind"], res["facts"][0]["value"]) == ("class", "_OptionParser")
    assert [(x["name"], x["now"]) for x in res["lineage"]] == [("OptionParser", "_OptionParser")]


def test_project_version_is_the_manifests_not_a_tools_format_version(repo):
    # a score of 1 or more: a fact the question names (its tier); .readthedocs.yaml's
    # `version: 2` is no version of the project
    got = ask(repo, "Which version string is webapp's package at?")["facts"]
    assert [(f["key"], f["value"]) for f in got if f["score"] >= 1] == \
        [("config:pyproject.toml:project.version", "1.4.0")]


@pytest.mark.parametrize("prompt", ["Release 1.4.1.", "Release webapp 1.4.1",
                                    "bump the version for the next release"])
def test_a_release_names_the_projects_own_version(repo, prompt):
    # nothing in "Release 1.4.1" says "version": the release of the project is its version
    got = ask(repo, prompt)["facts"]
    assert [(f["key"], f["value"]) for f in got if f["score"] >= 1] == \
        [("config:pyproject.toml:project.version", "1.4.0")]


def test_a_package_release_asked_is_no_release_of_the_project():
    from repomem.service.question import parse

    assert not parse("Which flask release does webapp need at runtime?").asks_release
    assert not parse("Write the release notes for 1.4").asks_release
    assert parse("Make a release: 1.4.1").asks_release


def test_function_asked_by_its_public_name_once_made_private(repo):
    # a leading underscore is privacy, not another name; "which function is it?" asks by a
    # name, not by purpose, when the name is one the function bore; the note says so
    for question in ("What is the function `get_stream` called in the code?",
                     "Where did `get_stream` go: which function is it?"):
        res = ask(repo, question)
        assert res["facts"][0]["value"] == "_get_stream" and res["facts"][0]["score"] >= 1
        assert [(x["name"], x["now"]) for x in res["lineage"]] == [("get_stream", "_get_stream")]


def test_handler_answers_with_its_first_route(repo):
    got = top(repo, "Which URL does the `index` view answer?", 2)
    assert [g["value"] for g in got] == ["GET /", "GET /index"]
    assert got[0]["score"] >= got[1]["score"]


def test_fixture_data_is_not_mined_as_settings(repo):
    keys = {f["key"] for f in facts(repo, kind="config")["facts"]}
    assert "config:config/settings.json:server.port" in keys
    assert not [k for k in keys if "fixtures/" in k or "pages.json" in k]


def test_constants_set_inside_module_level_blocks(new_repo):
    root = new_repo()
    commit(root, "2024-01-10T10:00:00Z", "settings", {"app/settings.py": (
        'import os\nDEBUG = False\nPORT = 8000\n'
        'if "DATABASE_URL" in os.environ:\n    PORT = 5432\n    POOL_SIZE = 10\n'
        'else:\n    POOL_SIZE = 5\n'
        'try:\n    from .local import *\nexcept ImportError:\n    CACHE_TTL = 60 * 5\n'
        'def setup():\n    INNER = 1\n')})
    r = Repo.open(root)
    ingest(r, all_history=True, progress=False)
    got = {f["key"].rsplit(":", 1)[-1]: (f["value"], f["attrs"].get("conditional"))
           for f in facts(r, kind="constant")["facts"]}
    # a module-level assignment wins; else the first branch that assigns the name
    assert got == {"DEBUG": ("False", None), "PORT": ("8000", None),
                   "POOL_SIZE": ("10", "true"), "CACHE_TTL": ("300", "true")}


def test_a_named_python_file_does_not_ask_for_python(new_repo):
    # "`httpx/__version__.py`" says where the fact is; its ".py" is no question about the
    # interpreter, whose requires-python would otherwise come first (as it did on httpx)
    root = new_repo()
    commit(root, "2024-01-10T10:00:00Z", "package", {
        "pyproject.toml": PYPROJECT, "webapp/__version__.py": '__version__ = "1.4.0.dev0"\n'})
    commit(root, "2024-02-10T10:00:00Z", "release", {"webapp/__version__.py": '__version__ = "1.4.0"\n'})
    r = Repo.open(root)
    ingest(r, all_history=True, progress=False)
    question = "Which value does `__version__` hold in `webapp/__version__.py`?"
    for as_of, value in [(None, "1.4.0"), ("2024-01-20T12:00:00Z", "1.4.0.dev0")]:
        got = ask(r, question, as_of=as_of)["facts"][0]
        assert (got["kind"], got["value"]) == ("constant", value), got
    got = ask(r, "Which Python does webapp require, per `pyproject.toml`?")["facts"][0]
    assert (got["kind"], got["value"]) == ("python", ">=3.10"), got


COOKIES = '''class Client:
    def merge_cookies(self, response):
        """Keep the cookies a response sets, for the requests that follow."""
        self.jar.update(response.cookies)
'''
COOKIE_TESTS = '''def test_cookie_persistence():
    """Cookies set by a response are stored and sent between requests."""
    client = Client()
    client.get("/set-cookie")
    assert client.get("/echo-cookies").json() == {"example-name": "1"}


def test_cookies_between_requests_are_cleared_on_close():
    """The cookies stored between requests are cleared when the client closes."""
    Client().close()
'''


def test_a_question_of_no_kind_prefers_the_code_to_its_tests(new_repo):
    # "how are cookies stored between requests?" asks for no kind of fact; a test's name and
    # docstring paraphrase the behaviour it checks, so they share more words with the question
    # than the code that does it.  Unless the question asks about tests.
    root = new_repo()
    commit(root, "2024-01-10T10:00:00Z", "cookies", {
        "webclient/client.py": COOKIES, "tests/test_cookies.py": COOKIE_TESTS})
    r = Repo.open(root)
    ingest(r, all_history=True, progress=False)
    assert top(r, "How are cookies stored between requests?")[0]["value"] == "merge_cookies"
    assert top(r, "Which test checks that cookies are stored between requests?")[0]["value"] \
        in ("test_cookie_persistence", "test_cookies_between_requests_are_cleared_on_close")


CORE = '''class Command:
    def make_context(self, args):
        """Create a new context for this command's arguments."""
        return Context(self, args)

    def main(self, args):
        """Run the command line."""
        ctx = self.make_context(args)
        return ctx.invoke(self)


def make_context_for_tests(cmd):
    """A context for a test, with no arguments."""
    return cmd.make_context([])


def create_context_docs():
    """Write the docs of make_context."""
    print("make_context(args) returns a context")


def hash_password(raw):
    """Hash a password with bcrypt."""
    return bcrypt.hashpw(raw, bcrypt.gensalt())


def register(user, raw):
    """Create an account."""
    user.digest = bcrypt.hashpw(raw, b"salt")


def bcrypt_rounds():
    """How many bcrypt rounds a bcrypt hash takes."""
    return 12
'''


def test_callers_of_a_function(new_repo):
    # "which functions call X?" asks for the functions whose bodies call X (attrs calls), not X
    # itself, which the question names; a mention in a string is no call.  Without callers the
    # question is answered as before: by the name it spells.
    root = new_repo()
    commit(root, "2024-01-10T10:00:00Z", "core", {"app/core.py": CORE})
    r = Repo.open(root)
    ingest(r, all_history=True, progress=False)
    for question in ("Which functions call make_context?", "Where is `make_context()` called?",
                     "who calls make_context?", "What are the callers of make_context?"):
        got = [f["value"] for f in ask(r, question)["facts"][:2]]
        assert sorted(got) == ["main", "make_context_for_tests"], question
    got = [f["value"] for f in ask(r, "Which functions call bcrypt.hashpw?")["facts"][:2]]
    assert sorted(got) == ["hash_password", "register"]
    # a module no call ends with: the functions calling through it
    got = [f["value"] for f in ask(r, "Which functions use bcrypt?")["facts"][:2]]
    assert sorted(got) == ["hash_password", "register"]
    assert top(r, "Which functions call hash_password?")[0]["value"] == "hash_password"


@pytest.mark.parametrize("question, name", [
    ("which functions call make_context?", "make_context"),
    ("Who calls `bcrypt.hash`?", "bcrypt.hash"),
    ("where is make_context() called?", "make_context"),
    ("which methods use self.invoke?", "invoke"),
    ("what are the callers of the function resolve_command?", "resolve_command"),
    # what X calls, or a version that uses a package: no callers asked for
    ("which functions does make_context call?", None),
    ("what version of python uses asyncio?", None),
    ("what calls the payment service on port 8080?", None),
    ("which functions call the function charge in billing.py?", "charge"),
])
def test_the_callee_a_question_names(question, name):
    from repomem.service.question import callee

    assert callee(question) == name


MODELS = '''from werkzeug.security import generate_password_hash, check_password_hash


class User:
    password_hash = None

    def set_password(self, password):
        self.password_hash = generate_password_hash(password)

    def check_password(self, password):
        return check_password_hash(self.password_hash, password)

    def avatar(self, size):
        return f"https://www.gravatar.com/avatar/{self.email}?s={size}"
'''
FORMS = '''class ResetPasswordForm:
    password = PasswordField("Password")
    password2 = PasswordField("Repeat Password")
'''


def test_how_a_thing_is_done_by_a_helper_named_for_the_verb(new_repo):
    # "how are passwords hashed?": no body calls a function named hash, but set_password calls
    # werkzeug's generate_password_hash (microblog); the password form's fields bear the
    # question's words, not its answer
    r = indexed(new_repo(), ("2024-01-10T10:00:00Z", {"app/models.py": MODELS, "app/forms.py": FORMS}))
    got = [f["value"] for f in ask(r, "How are passwords hashed?")["facts"][:2]]
    assert sorted(got) == ["check_password", "set_password"]


CLIENT = '''from .config import DEFAULT_MAX_REDIRECTS, DEFAULT_TIMEOUT


class Client:
    def __init__(self, max_redirects: int = DEFAULT_MAX_REDIRECTS, timeout=DEFAULT_TIMEOUT):
        self.max_redirects = max_redirects
'''
CONFIG = "DEFAULT_MAX_REDIRECTS = {n}\nDEFAULT_TIMEOUT = 5.0\n"


def test_a_value_that_names_a_constant_is_shown_with_its_value(new_repo):
    # httpx's ``max_redirects: int = DEFAULT_MAX_REDIRECTS``: the answer says 20, the value of
    # the constant of that name valid at the time asked (imported from a sibling module); a
    # name that several folders define is not guessed
    from repomem.service.render import value_note

    r = indexed(new_repo(), ("2024-01-10T10:00:00Z", {
        "webclient/client.py": CLIENT, "webclient/config.py": CONFIG.format(n=20),
        "tools/a/limits.py": "DEFAULT_TIMEOUT = 1\n", "tools/b/limits.py": "DEFAULT_TIMEOUT = 2\n"}),
        ("2024-03-10T10:00:00Z", {"webclient/config.py": CONFIG.format(n=30)}))
    question = "What is the client's max redirects setting?"
    for as_of, n in ((None, "30"), ("2024-02-01", "20")):
        f = ask(r, question, as_of=as_of)["facts"][0]
        assert (f["key"], f["value"]) == ("config:webclient/client.py:Client.max_redirects",
                                          "DEFAULT_MAX_REDIRECTS")
        assert (f["refers"]["key"], f["refers"]["value"]) == \
            ("constant:webclient/config.py:DEFAULT_MAX_REDIRECTS", n)
        assert value_note(f) == f" (= `{n}` in `webclient/config.py`)"
    f = ask(r, "What is the client's timeout setting?")["facts"][0]
    assert f["key"] == "config:webclient/client.py:Client.timeout" and "refers" in f
    f = next(f for f in ask(r, "What is the default timeout?", k=10)["facts"]
             if f["key"] == "config:webclient/client.py:Client.timeout")
    assert f["refers"]["value"] == "5.0"


HTTP_CLIENT = '''class Client:
    def __init__(self, base_url: str = "", proxy_url: str = ""):
        self.base_url = base_url
        self.proxy_url = proxy_url

    def _merge_url(self, url):
        """Merge a URL argument together with any 'base_url' on the client, to create the URL
        used for the outgoing request."""
        return self.base_url + url
'''
HTTP_TESTS = '''BASE_URLS = ["https://www.example.com/", "http://localhost/"]


def test_merge_relative_url_with_base_url():
    client = Client(base_url="https://www.example.com/")
    assert client._merge_url("/path") == "https://www.example.com/path"
'''


def test_how_the_code_does_something_is_answered_by_code_not_its_settings_or_tests(new_repo):
    # "how is a relative url merged with the base url?" says a setting's name (base_url) but
    # asks how the code does something to something: a function answers, and the code's own
    # before a test's (whose name paraphrases the question)
    r = indexed(new_repo(), ("2024-01-10T10:00:00Z", {"webclient/client.py": HTTP_CLIENT,
                                                      "tests/test_client.py": HTTP_TESTS}))
    assert top(r, "How is a relative url merged with the base url?")[0]["value"] == "_merge_url"
    assert top(r, "What is the client's default base url?")[0]["key"] == \
        "config:webclient/client.py:Client.base_url"


PROXIES = '''import os


def get_environment_proxies():
    """Gets proxy information from the environment."""
    return {key: os.environ[key] for key in ("HTTP_PROXY", "HTTPS_PROXY") if key in os.environ}


class Client:
    def __init__(self, proxy=None, trust_env=True):
        self._mounts = self._get_proxy_map(proxy, trust_env)

    def _get_proxy_map(self, proxy, allow_env_proxies):
        if proxy is None:
            if allow_env_proxies:
                return {key: url for key, url in get_environment_proxies().items()}
            return {}
        return {"all://": proxy}
'''
PROXY_TESTS = '''PROXY_URL = "http://[::1]"


def test_proxies_environ(monkeypatch):
    monkeypatch.setenv("HTTP_PROXY", PROXY_URL)
    client = Client()
    assert client._mounts == {"HTTP_PROXY": PROXY_URL}
'''


def test_a_tests_own_functions_answer_only_questions_about_tests(new_repo):
    # httpx: "how are proxies read from the environment?" gave test_proxies_environ among the
    # top 3, whose name says both words, before the method that reads them
    r = indexed(new_repo(), ("2024-01-10T10:00:00Z", {"webclient/client.py": PROXIES,
                                                      "tests/test_proxies.py": PROXY_TESTS}))
    got = [f["value"] for f in ask(r, "How are proxies read from the environment?")["facts"][:3]]
    assert "_get_proxy_map" in got and "test_proxies_environ" not in got
    got = [f["value"] for f in ask(r, "Which test sets proxies from the environment?")["facts"][:3]]
    assert "test_proxies_environ" in got


PROGRAM = '''import os
import sys

DATABASE_URL = os.environ.get("DATABASE_URL", "sqlite:///app.db")


class Command:
    name = "cli"


def _detect_program_name(path=None):
    """Determine the command used to run the program, for use in help text."""
    return os.path.basename(path or sys.argv[0])


def init_database(app):
    """Create the database tables when the app starts."""
    app.db.create_all()
'''


def test_how_something_is_done_asks_for_code_unless_it_is_configured(new_repo):
    # click: "how is the program name detected?" says "name", a setting's word; a verb that
    # says how code works asks for code, one that says how something is set up for a setting
    r = indexed(new_repo(), ("2024-01-10T10:00:00Z", {
        "cli/core.py": PROGRAM, "pyproject.toml": '[project]\nname = "cli"\nversion = "1.0"\n'}))
    assert top(r, "How is the program name detected?")[0]["value"] == "_detect_program_name"
    for question in ("How is the database configured?", "How is the database configured for production?"):
        assert top(r, question)[0]["key"] == "constant:cli/core.py:DATABASE_URL", question


def test_how_does_it_do_something_asks_for_code(new_repo):
    """"How does click find the program name?" gave the `name` attributes of click's types:
    "how does X <verb>" asks how the code does it, like "how is X detected?", unless the verb
    says how something is set up ("how does the app use the database?") or the asker does it
    ("how do I ..."); "how are proxies read from the environment?" ("read" is a participle)
    asks for code too."""
    from repomem.service.question import asks_how

    assert asks_how("how does the client follow redirects?")
    assert asks_how("how are proxies read from the environment?")
    assert not asks_how("how does the app use the database?")
    assert not asks_how("how do I run the tests?")
    r = indexed(new_repo(), ("2024-01-10T10:00:00Z", {
        "cli/core.py": PROGRAM, "pyproject.toml": '[project]\nname = "cli"\nversion = "1.0"\n'}))
    assert top(r, "How does cli find the program name?")[0]["value"] == "_detect_program_name"


EMAIL = '''from threading import Thread

from app import mail


def send_async_email(app, msg):
    with app.app_context():
        mail.send(msg)


def send_email(subject, recipients, text_body, sync=False):
    msg = Message(subject, recipients=recipients, body=text_body)
    if sync:
        mail.send(msg)
    else:
        Thread(target=send_async_email, args=(app, msg)).start()
'''
EMAIL_FORMS = '''class RegistrationForm:
    email = StringField("Email", validators=[DataRequired(), Email()])

    def validate_email(self, email):
        if User.query.filter_by(email=email.data).first() is not None:
            raise ValidationError("Please use a different email address.")


class User:
    messages_sent = relationship(foreign_keys="Message.sender_id", back_populates="author")
'''


def test_how_a_thing_is_done_with_an_irregular_verb_and_an_adverb(new_repo):
    # "how are emails sent asynchronously?" (microblog) asks how the code does it, as "how are
    # emails sent?" does: the functions whose bodies call mail.send, not the registration
    # form's email field and validator, nor the messages_sent relationship
    r = indexed(new_repo(), ("2024-01-10T10:00:00Z", {"app/email.py": EMAIL, "app/forms.py": EMAIL_FORMS}))
    for question in ("How are emails sent asynchronously?", "How are emails sent?"):
        got = [f["value"] for f in ask(r, question)["facts"][:2]]
        assert sorted(got) == ["send_async_email", "send_email"], question


SSL_CONFIG = '''import ssl

DEFAULT_TIMEOUT = 5.0
DEFAULT_MAX_REDIRECTS = 20


def create_ssl_context(verify=True, cert=None, trust_env=True):
    """Return an SSL context that verifies peers with certifi's bundle."""
    return ssl.create_default_context(cafile=certifi.where())


class Response:
    def __init__(self, status_code, default_encoding="utf-8"):
        self.default_encoding = default_encoding
'''


def test_where_a_thing_is_done_asks_for_the_code(new_repo):
    # "where is the default SSL context created?" (httpx) asks for the code that does it, as
    # "how is ... created?" does: create_ssl_context, not the settings that say "default"; where
    # something is configured is still a setting
    r = indexed(new_repo(), ("2024-01-10T10:00:00Z", {
        "webclient/_config.py": SSL_CONFIG, "webclient/settings.py": 'DATABASE_URL = "sqlite:///app.db"\n'}))
    got = ask(r, "where is the default ssl context created?")["facts"]
    assert got[0]["value"] == "create_ssl_context", [f["key"] for f in got]
    got = ask(r, "where is the database url configured?")["facts"]
    assert got[0]["key"] == "constant:webclient/settings.py:DATABASE_URL", [f["key"] for f in got]


LIMITS = '''class Timeout:
    """Timeout configuration."""

    def __init__(self, connect=5.0, read=5.0):
        self.connect = connect
        self.read = read


class Limits:
    """Configuration for limits to various client behaviors."""

    def __init__(self, max_connections=100, keepalive_expiry=5.0):
        self.max_connections = max_connections
        self.keepalive_expiry = keepalive_expiry


DEFAULT_TIMEOUT = Timeout(connect=5.0)
'''


def test_a_prompt_spelling_a_class_asks_for_that_class(new_repo):
    # "a field ... like Timeout has" asks for no class by its wording (its "timeout" asks for a
    # setting), but the capitalised names are the classes' own; said as the owner of what is
    # asked ("the maximum size in Limits"), a class is not what is asked
    root = new_repo()
    commit(root, "2024-01-10T10:00:00Z", "config", {"client/config.py": LIMITS})
    r = Repo.open(root)
    ingest(r, all_history=True, progress=False)
    got = [(f["kind"], f["value"]) for f in top(r, "Add a pool timeout field to Limits like Timeout has.", 2)]
    assert sorted(got) == [("class", "Limits"), ("class", "Timeout")], got
    assert top(r, "What is the default max connections of Limits?")[0]["kind"] != "class"


POM = """<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent>
    <groupId>org.springframework.boot</groupId>
    <artifactId>spring-boot-starter-parent</artifactId>
    <version>3.2.0</version>
  </parent>
  <groupId>com.example</groupId>
  <artifactId>shop</artifactId>
  <version>0.0.1-SNAPSHOT</version>
  <dependencies>
    <dependency>
      <groupId>org.springframework.boot</groupId>
      <artifactId>spring-boot-starter-web</artifactId>
    </dependency>
    <dependency>
      <groupId>org.springframework.boot</groupId>
      <artifactId>spring-boot-starter-data-jpa</artifactId>
    </dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin>
        <groupId>org.springframework.boot</groupId>
        <artifactId>spring-boot-maven-plugin</artifactId>
      </plugin>
    </plugins>
  </build>
</project>
"""


def test_an_upgrade_asks_for_the_pin_that_states_a_version(new_repo):
    # the starters' versions are managed by the parent: "upgrade Spring Boot" is the parent's pin
    root = new_repo()
    commit(root, "2024-01-10T10:00:00Z", "pom", {"pom.xml": POM})
    r = Repo.open(root)
    ingest(r, all_history=True, progress=False)
    got = top(r, "Upgrade Spring Boot to 3.3")[0]
    assert (got["kind"], got["value"]) == ("dependency", "3.2.0"), got
