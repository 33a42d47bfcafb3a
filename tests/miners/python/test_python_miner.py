import textwrap

import pytest

from repomem.core.model import CONSTANT, FUNCTION, ROUTE
from repomem.miners import MineError, mine_file
from repomem.miners.python import MINER


def mine(src: str, path: str = "pkg/mod.py"):
    return MINER.mine(path, textwrap.dedent(src))


def by_kind(facts, kind):
    return [f for f in facts if f.kind == kind]


def one_function(src: str, qualname: str):
    fs = [f for f in by_kind(mine(src), FUNCTION) if f.anchor == f"pkg/mod.py::{qualname}"]
    assert len(fs) == 1, fs
    return fs[0]


@pytest.mark.parametrize("path,ok", [("a.py", True), ("pkg/sub/b.py", True), ("a.pyc", False),
                                     ("a.pyi", False), ("README.md", False)])
def test_accepts(path, ok):
    assert MINER.name == "python"
    assert MINER.accepts(path) is ok


@pytest.mark.parametrize("src", ["", "\n\n", "# only a comment\n", '"""docstring only"""\n'])
def test_nothing_to_mine(src):
    assert MINER.mine("a.py", src) == []


def test_function_fields():
    f = one_function(
        """
        import os

        def get_user_by_id(user_id: int,
                           strict: bool = False) -> User:
            # look it up
            return db.get(user_id)
        """,
        "get_user_by_id",
    )
    assert f.key == "function"
    assert f.kind == FUNCTION
    assert f.subject == "function get_user_by_id"
    assert f.value == "get_user_by_id"
    assert f.path == "pkg/mod.py"
    assert f.line == 4
    assert f.text == "def get_user_by_id(user_id: int,\n                   strict: bool = False) -> User:"
    assert f.attrs == (("calls", "db.get"), ("notes", "look it up"), ("class", ""), ("location", "pkg/mod.py"),
                       ("signature", "def get_user_by_id(user_id: int, strict: bool = False) -> User"))
    assert f.purpose == "get user by id (user_id, strict) returns User"
    assert f.fingerprint == "return db . get ( user_id )"


def test_methods_and_nested_classes():
    facts = by_kind(mine(
        """
        class Outer:
            def run(self):
                return 1

            class Inner:
                async def fetch(self, url):
                    return url
        """), FUNCTION)
    got = {f.anchor: (f.subject, dict(f.attrs)["class"]) for f in facts}
    assert got == {
        "pkg/mod.py::Outer.run": ("method Outer.run", "Outer"),
        "pkg/mod.py::Outer.Inner.fetch": ("method Outer.Inner.fetch", "Outer.Inner"),
    }


def test_async_signature_and_line():
    f = one_function("x = 1\nasync def fetchAll(urls):\n    return await gather(urls)\n", "fetchAll")
    assert f.line == 2
    assert dict(f.attrs)["signature"] == "async def fetchAll(urls)"
    assert f.purpose == "fetch all (urls)"


def test_functions_nested_in_functions_are_skipped_but_fingerprinted():
    facts = by_kind(mine(
        """
        def outer():
            def helper():
                return 2
            return helper()
        """), FUNCTION)
    assert [f.anchor for f in facts] == ["pkg/mod.py::outer"]
    assert "helper" in facts[0].fingerprint


def test_decorators_in_text_and_def_line():
    f = one_function(
        """
        @functools.cache
        @other(1)
        def compute(n):
            return n
        """, "compute")
    assert f.line == 4
    assert f.text == "@functools.cache\n@other(1)\ndef compute(n):"


@pytest.mark.parametrize("doc,purpose", [
    ('"""Load the configuration."""', "Load the configuration."),
    ('"""\n    Summary on line two.\n\n    Details.\n    """', "Summary on line two."),
    ("r'''Raw doc.'''", "Raw doc."),
])
def test_docstring_purpose_wins_and_is_not_fingerprinted(doc, purpose):
    src = f"def load_config(path):\n    {doc}\n    return read(path)\n"
    f = one_function(src, "load_config")
    assert f.purpose == purpose
    assert f.fingerprint == "return read ( path )"


def test_signature_purpose_skips_self():
    f = one_function("class C:\n    def saveHTTPResponse(self, resp, *args, **kw):\n        pass\n",
                     "C.saveHTTPResponse")
    assert f.purpose == "save http response (resp, args, kw)"


def test_fingerprint_ignores_comments_whitespace_and_own_name():
    a = one_function("def fact(n):\n    # base\n    if n <= 1: return 1\n    return n * fact(n - 1)\n", "fact")
    b = one_function("def factorial(n):\n    if n   <= 1:\n        return 1\n\n    return n*factorial(n-1)\n",
                     "factorial")
    assert a.fingerprint == b.fingerprint
    assert "_SELF_" in a.fingerprint


def test_later_definition_wins_but_property_setter_does_not():
    facts = by_kind(mine(
        """
        def f():
            return 1
        def f():
            return 2

        class C:
            @property
            def p(self):
                return self._p
            @p.setter
            def p(self, v):
                self._p = v
        """), FUNCTION)
    got = {f.anchor: f.fingerprint for f in facts}
    assert got == {"pkg/mod.py::f": "return 2", "pkg/mod.py::C.p": "return self . _p"}


# ----------------------------------------------------------------------------- routes


@pytest.mark.parametrize("decorator,value", [
    ('@app.route("/x", methods=["POST"])', "POST /x"),
    ('@app.route("/x")', "GET /x"),
    ("@bp.route('/items/<int:id>', methods=['get', 'put'])", "GET,PUT /items/<int:id>"),
    ('@router.get("/api/v1/users")', "GET /api/v1/users"),
    ('@router.delete("/api/v1/users/{id}", status_code=204)', "DELETE /api/v1/users/{id}"),
    ('@app.websocket("/ws")', "WEBSOCKET /ws"),
    ('@router.api_route("/a", methods=["GET", "HEAD"])', "GET,HEAD /a"),
    ('@router.post(path="/kw")', "POST /kw"),
])
def test_route_decorators(decorator, value):
    facts = mine(f'{decorator}\ndef handle_it(req):\n    """Handle it."""\n    return req\n')
    routes = by_kind(facts, ROUTE)
    assert len(routes) == 1
    r = routes[0]
    assert r.key == "route"
    assert r.value == value
    assert r.anchor == "pkg/mod.py::handle_it"
    assert r.subject == "route of handle_it"
    assert r.attrs == (("handler", "handle_it"),)
    assert r.line == 1
    assert r.text == decorator
    assert r.purpose == "Handle it. (HTTP endpoint / API route / URL path)"


@pytest.mark.parametrize("decorator", [
    '@app.route(f"/x/{V}")', "@app.route(PATH)", '@app.get_thing("/x")', '@cache.get("k", 1)()',
    '@route("/x")', "@app.get",
])
def test_non_routes_ignored(decorator):
    facts = mine(f"{decorator}\ndef h():\n    return 1\n")
    assert by_kind(facts, ROUTE) == []
    assert len(by_kind(facts, FUNCTION)) == 1


def test_multiple_routes_numbered():
    facts = mine(
        """
        class Api:
            @router.get("/users")
            @router.post("/users")
            @router.put("/users")
            def users(self):
                return []
        """)
    routes = by_kind(facts, ROUTE)
    assert [(r.key, r.value, r.line) for r in routes] == [
        ("route", "GET /users", 3), ("route#2", "POST /users", 4), ("route#3", "PUT /users", 5)]
    assert {r.anchor for r in routes} == {"pkg/mod.py::Api.users"}
    assert all(r.purpose == "users (HTTP endpoint / API route / URL path)" for r in routes)


# ----------------------------------------------------------------------------- constants


@pytest.mark.parametrize("line,value", [
    ("PORT = 8080", "8080"),
    ("RATIO = 0.5", "0.5"),
    ("OFFSET = -3", "-3"),
    ("NAME = 'repomem'", "repomem"),
    ('GREETING = "héllo wörld"', "héllo wörld"),
    ("RAW = r'\\d+'", "\\d+"),
    ("DEBUG = True", "True"),
    ("OFF = False", "False"),
    ("NOTHING = None", "None"),
    ("HOSTS = ['a',   'b']", "['a', 'b']"),
    ("PAIR = (1, -2.5)", "(1, -2.5)"),
    ("ONE = (1,)", "(1,)"),
    ("TAGS = {'x', 'y'}", "{'x', 'y'}"),
    ("LIMITS = {'cpu': 2, 'mem': [1, None]}", "{'cpu': 2, 'mem': [1, None]}"),
    ("_PRIVATE_MAX = 10", "10"),
    ("TIMEOUT: int = 30", "30"),
    ("API_V2: str = 'v2'", "v2"),
    # built from values only: the call as written (httpx's default timeout and pool limits)
    ("DEFAULT_TIMEOUT_CONFIG = Timeout(timeout=5.0)", "Timeout(timeout=5.0)"),
    ("DEFAULT_LIMITS = Limits(max_connections=100,\n    max_keepalive_connections=20)",
     "Limits(max_connections=100, max_keepalive_connections=20)"),
    ("SESSION_LIFETIME = timedelta(days=7 * 2)", "timedelta(days=7 * 2)"),
    ("VERSION_RE = re.compile(r'^v\\d+$')", "re.compile(r'^v\\d+$')"),
    # a translatable message is its text where no translation is installed (typer's panels)
    ('OPTIONS_PANEL_TITLE = _("Options")', "Options"),
    ("LOGIN_MESSAGE = lazy_gettext('Please log in')", "Please log in"),
])
def test_constant_literals(line, value):
    facts = mine(line + "\n")
    c = facts[0]
    name = line.split("=")[0].split(":")[0].strip()
    # then a fact per keyword argument of a call given more than one (see test_python_shapes)
    assert [f.key for f in facts[1:]] == [f"{c.key}.{k}" for k in (
        ("max_connections", "max_keepalive_connections") if name == "DEFAULT_LIMITS" else ())]
    assert c.kind == CONSTANT
    assert c.key == f"constant:pkg/mod.py:{name}"
    assert c.subject == f"{name} in pkg/mod.py"
    assert c.value == value
    assert c.attrs == ()
    assert c.anchor is None
    assert c.line == 1
    assert c.text == line


@pytest.mark.parametrize("line", [
    "port = 8080", "Port = 1", "PORT = get_port()", "URL = f'plain'",
    "PATHS = [BASE, 'x']", "X = 'a' * 3", "X = 9 ** 9 ** 9", "X = 10 ** 100",
    "X = 1 / 0", "X = 2 ** 0.5 ** 2 + 1j", "__all__ = ['a']",
    "X = os.environ['KEY']", "A = B = f()", "self.X = 1", "X += 1", "X = -Y",
    "X = lambda: 1", "X, Y = 1, 2", "T = TypeVar('T')", "T = t.TypeVar('T', bound='Client')",
    "SENTINEL = object()",
])
def test_non_constants_ignored(line):
    assert by_kind(mine(line + "\n"), CONSTANT) == []


@pytest.mark.parametrize("line, value", [
    ("X = 1 + Y", "1 + Y"), ("X = make(Y)", "make(Y)"), ("X = Timeout(timeout=DEFAULT)", "Timeout(timeout=DEFAULT)"),
    ("X = os.getenv('A').split(',')", "os.getenv('A').split(',')"), ("SEP = os.sep", "os.sep"),
    ("X = os.environ.get(NAME, 1)", "os.environ.get(NAME, 1)"),
])
def test_constants_computed_by_code_stated_as_written(line, value):
    """A call given something, an attribute reference or arithmetic on names: what a reader of
    the module sees, not evaluated (attrs expression)."""
    [c] = by_kind(mine(line + "\n"), CONSTANT)
    assert (c.value, c.attrs) == (value, (("expression", "true"),))


def test_constant_expressions_fold():
    assert [(c.key, c.value) for c in by_kind(mine("MAX_BODY = 32 << 20\nMASK = 0xFF & 0x0F\n"), CONSTANT)] == \
        [("constant:pkg/mod.py:MAX_BODY", "33554432"), ("constant:pkg/mod.py:MASK", "15")]
    assert by_kind(mine("X = 1 << 10_000\n"), CONSTANT) == []  # bounded, as ** is


def test_constants_only_at_module_level():
    # a class or function body is not the module's; a module-level if/try block is (the
    # setting a condition chooses), marked conditional
    src = "class C:\n    LIMIT = 3\ndef f():\n    LIMIT = 4\nif X:\n    LIMIT = 5\n"
    assert [(c.value, c.attrs) for c in by_kind(mine(src), CONSTANT)] == \
        [("5", (("conditional", "true"),))]


def test_constant_purpose_and_multiline():
    facts = mine(
        """
        # Where the service listens.
        MAX_RETRIES = 5  # retries per request
        ALLOWED = [
            "a",  # first
            "b",
        ]
        """)
    retries, allowed = facts
    assert retries.purpose == "max retries - retries per request - Where the service listens."
    assert retries.line == 3
    assert allowed.value == '["a", "b"]'
    assert allowed.line == 4
    assert allowed.text.splitlines()[0] == "ALLOWED = ["
    assert allowed.purpose == "allowed"


# ----------------------------------------------------------------------------- robustness


@pytest.mark.parametrize("src,line", [
    ("def f(:\n    pass\n", 1),
    ("x = 1\ny = 2\ndef g(\n", 3),
    ("import os\n\ndef ok():\n    return 1\n\nx = [1, 2\n", 6),
    ("a = 1\nb = 2 +\nc = 3\n", 2),
])
def test_syntax_error_raises_with_line(src, line):
    with pytest.raises(MineError) as exc:
        MINER.mine("bad.py", src)
    assert str(exc.value) == f"syntax error near line {line}"
    assert "\n" not in str(exc.value)


def test_crlf_and_unicode():
    src = '# café\r\nNAME = "ünï"\r\n\r\ndef grüß(x):\r\n    """Grüße."""\r\n    return x\r\n'
    facts = MINER.mine("u/ü.py", src)
    fn = by_kind(facts, FUNCTION)[0]
    const = by_kind(facts, CONSTANT)[0]
    assert fn.anchor == "u/ü.py::grüß"
    assert fn.line == 4 and fn.text == "def grüß(x):"
    assert fn.purpose == "Grüße."
    assert const.value == "ünï" and const.text == 'NAME = "ünï"' and const.purpose == "name - café"


def test_deterministic_and_parser_reused():
    from repomem.miners.lang import LANGS, load

    src = "@app.get('/a')\ndef a():\n    return 1\nA = 1\n"
    first = MINER.mine("a.py", src)
    parser = load(LANGS["python"])[0]
    assert MINER.mine("a.py", src) == first
    assert load(LANGS["python"])[0] is parser is not None


# ----------------------------------------------------------------------------- values and settings


@pytest.mark.parametrize("line,value", [
    ("EXPIRE = 60 * 24 * 8", "11520"), ("X = (1 + 2) * -3", "-9"), ("X = 2 ** 10", "1024"),
    ("X = 7 // 2 % 3", "0"), ("X = 1 / 4", "0.25"), ("X = 1_000 * 60", "60000"),
    ("X = 0x10 + 1", "17"), ("__version__ = '2.3.0'", "2.3.0"), ("__version_info__ = (2, 3)", "(2, 3)"),
    ("PORT = int(os.environ.get('PORT', 8000))", "8000"),
    ("KEY = os.environ.get('APP_KEY') or 'dev'", "dev"),
    ("HOST = os.getenv('HOST', default='0.0.0.0')", "0.0.0.0"),
    ("MAIL_SERVER = os.environ.get('MAIL_SERVER')", "None"),
    ("ALLOWED_HOSTS = os.getenv('DJANGO_ALLOWED_HOSTS', '*').split(',')", '["*"]'),
    ("HOSTS = os.getenv('HOSTS', 'a.example,b.example').split(',')", '["a.example", "b.example"]'),
])
def test_folded_dunder_and_env_constants(line, value):
    facts = by_kind(mine(line + "\n"), CONSTANT)
    assert len(facts) == 1
    assert facts[0].value == value
    assert facts[0].text == line  # the source expression is kept as written
    env = dict(facts[0].attrs).get("env")
    assert (env is not None) == ("environ" in line or "getenv" in line)


def test_django_settings_dict_leaves():
    facts = {f.key: f for f in mine(
        """
        DEBUG = False
        ALLOWED_HOSTS = ["*"]
        DATABASES = {
            "default": {
                "ENGINE": "django.db.backends.postgresql",
                "NAME": os.path.join(BASE_DIR, "db.sqlite3"),
                "PORT": 5432,
            }
        }
        """, path="mysite/settings/base.py")}
    assert facts["constant:mysite/settings/base.py:DEBUG"].value == "False"
    assert facts["constant:mysite/settings/base.py:ALLOWED_HOSTS"].value == '["*"]'
    engine = facts["constant:mysite/settings/base.py:DATABASES.default.ENGINE"]
    assert (engine.value, engine.line) == ("django.db.backends.postgresql", 6)
    assert engine.text == '"ENGINE": "django.db.backends.postgresql",'
    assert facts["constant:mysite/settings/base.py:DATABASES.default.PORT"].value == "5432"
    # computed by code: stated as written, and marked so
    name = facts["constant:mysite/settings/base.py:DATABASES.default.NAME"]
    assert (name.value, name.attrs) == ('os.path.join(BASE_DIR, "db.sqlite3")', (("expression", "true"),))


PRODUCTION = """\
from .base import *  # noqa

STORAGES["staticfiles"]["BACKEND"] = "whitenoise.storage.CompressedManifestStaticFilesStorage"
if "AWS_STORAGE_BUCKET_NAME" in os.environ:
    STORAGES["default"]["BACKEND"] = "storages.backends.s3boto3.S3Boto3Storage"
CACHES[alias]["BACKEND"] = "django_redis.cache.RedisCache"
cache["timeout"] = 60
LOGGING["handlers"] = {"console": {"class": "logging.StreamHandler"}}
"""


def test_a_settings_module_changing_one_entry_of_a_dict():
    from repomem.service.render import value_note

    """bakerydemo's production settings change one entry of a dict the base module set:
    ``STORAGES["staticfiles"]["BACKEND"] = ...`` is the setting ``STORAGES.staticfiles.BACKEND``
    (under an ``if``: conditional).  Not a key computed by code, a lower-case name, nor outside a
    settings module."""
    facts = {f.key.split(":", 2)[2]: f for f in mine(PRODUCTION, path="mysite/settings/production.py")}
    assert {k: (f.value, f.attrs, f.line) for k, f in facts.items()} == {
        "STORAGES.staticfiles.BACKEND": ("whitenoise.storage.CompressedManifestStaticFilesStorage", (), 3),
        "STORAGES.default.BACKEND": ("storages.backends.s3boto3.S3Boto3Storage",
                                     (("conditional", "true"),), 5),
        "LOGGING.handlers": ('{"console": {"class": "logging.StreamHandler"}}', (), 8)}
    assert facts["STORAGES.default.BACKEND"].text.strip() == \
        'STORAGES["default"]["BACKEND"] = "storages.backends.s3boto3.S3Boto3Storage"'
    assert not mine(PRODUCTION, path="mysite/storage.py")
    # an answer says the value holds under a condition
    f = facts["STORAGES.default.BACKEND"]
    assert value_note({"attrs": dict(f.attrs), "value": f.value, "path": f.path}) == \
        " (set under a condition)"


DJANGO_SETTINGS = """\
import os

PROJECT_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STATIC_ROOT = os.path.join(PROJECT_DIR, "collect_static")
STATICFILES_DIRS = [
    os.path.join(PROJECT_DIR, "static"),  # the project's own assets
]
WAGTAIL_CONTENT_LANGUAGES = LANGUAGES = [("en", "English"), ("de", "German")]
SECURE_SSL_REDIRECT = os.environ.get("SECURE_SSL_REDIRECT", "True").lower() == "true"
CHECKS = [c for c in ALL if c]
HANDLER = lambda request: None
TABLE = make_table(ROWS, %s)
lowercase = os.getcwd()
"""


@pytest.mark.parametrize("path", ["mysite/settings.py", "mysite/settings/production.py",
                                  "app/config.py", "test_settings.py", "conf/local_settings.py"])
def test_settings_module_values_computed_by_code(path):
    facts = {f.key.rsplit(":", 1)[-1]: f for f in by_kind(mine(DJANGO_SETTINGS % ("1, " * 100), path), CONSTANT)}
    assert {k: f.value for k, f in facts.items()} == {
        "PROJECT_DIR": "os.path.dirname(os.path.dirname(os.path.abspath(__file__)))",
        "STATIC_ROOT": 'os.path.join(PROJECT_DIR, "collect_static")',
        "STATICFILES_DIRS": '[os.path.join(PROJECT_DIR, "static"),]',  # one line, no comment
        "WAGTAIL_CONTENT_LANGUAGES": '[("en", "English"), ("de", "German")]',
        "LANGUAGES": '[("en", "English"), ("de", "German")]',
        "SECURE_SSL_REDIRECT": 'os.environ.get("SECURE_SSL_REDIRECT", "True").lower() == "true"',
    }  # no comprehension, lambda, expression longer than 200 characters, or lower-case name
    assert facts["STATIC_ROOT"].attrs == (("expression", "true"),)
    assert facts["LANGUAGES"].attrs == ()  # a literal, evaluated as ever
    assert facts["LANGUAGES"].line == facts["WAGTAIL_CONTENT_LANGUAGES"].line == 8


def test_values_computed_by_code_are_stated_as_written():
    # an ordinary module's constant computed by a call is stated as written; its chained literals
    # are each a constant
    src = "BASE = os.path.dirname(__file__)\nA = B = 3\n"
    assert [(f.key, f.value, f.attrs) for f in by_kind(mine(src, "pkg/paths.py"), CONSTANT)] == [
        ("constant:pkg/paths.py:BASE", "os.path.dirname(__file__)", (("expression", "true"),)),
        ("constant:pkg/paths.py:A", "3", ()), ("constant:pkg/paths.py:B", "3", ())]


SETTINGS_CLASSES = """\
import os
from dataclasses import dataclass, field
from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env")
    API_V1_STR: str = "/api/v1"
    # 60 minutes * 24 hours * 8 days = 8 days
    ACCESS_TOKEN_EXPIRE_MINUTES: int = 60 * 24 * 8
    project_name: str
    pool_size: int = Field(10, ge=1)
    _private: int = 1


class Config:
    SECRET_KEY = os.environ.get('SECRET_KEY') or 'you-will-never-guess'
    SQLALCHEMY_DATABASE_URI = os.environ.get('DATABASE_URL', '').replace(
        'postgres://', 'postgresql://') or \\
        'sqlite:///' + os.path.join(basedir, 'app.db')
    POSTS_PER_PAGE = 25
    MAIL_PORT = int(os.environ.get('MAIL_PORT') or 25)
    lowercase = 1

    def helper(self):
        LOCAL = 3


class TestConfig(Config):
    TESTING = True


@dataclass(frozen=True)
class Limits:
    burst: int = 10 * 3
    names: list = field(default_factory=list)


class Plain:
    LIMIT = 3
"""


def test_settings_classes():
    facts = {f.key: f for f in by_kind(mine(SETTINGS_CLASSES, path="app/core/config.py"), "config")}
    p = "config:app/core/config.py:"
    expire = facts[p + "Settings.ACCESS_TOKEN_EXPIRE_MINUTES"]
    assert expire.value == "11520"
    assert expire.text == "    ACCESS_TOKEN_EXPIRE_MINUTES: int = 60 * 24 * 8"
    assert expire.line == 11
    assert expire.subject == "Settings.ACCESS_TOKEN_EXPIRE_MINUTES in app/core/config.py"
    assert expire.purpose == "access token expire minutes - 60 minutes * 24 hours * 8 days = 8 days"
    assert facts[p + "Settings.API_V1_STR"].value == "/api/v1"
    assert facts[p + "Settings.pool_size"].value == "10"
    secret = facts[p + "Config.SECRET_KEY"]
    assert secret.value == "you-will-never-guess" and dict(secret.attrs) == {"env": "SECRET_KEY"}
    assert (facts[p + "Config.MAIL_PORT"].value, facts[p + "Config.MAIL_PORT"].attrs) == (
        "25", (("env", "MAIL_PORT"),))
    assert facts[p + "Config.POSTS_PER_PAGE"].value == "25"
    assert facts[p + "TestConfig.TESTING"].value == "True"  # a subclass of a config class
    uri = facts[p + "Config.SQLALCHEMY_DATABASE_URI"]  # computed: as written, on one line
    assert (uri.value, uri.attrs) == ("os.environ.get('DATABASE_URL', '').replace('postgres://', "
                                      "'postgresql://') or 'sqlite:///' + os.path.join(basedir, 'app.db')",
                                      (("expression", "true"),))
    assert facts[p + "Limits.burst"].value == "30"
    # a plain class's attribute bound to a literal is what its instances have: attrs class
    plain = facts[p + "Plain.LIMIT"]
    assert (plain.value, plain.attrs) == ("3", (("class", "true"),))
    # a method's local is no setting of its class: a value its body binds (attrs local)
    assert facts[p + "Config.helper.LOCAL"].attrs == (("local", "true"),)
    # declared with a type and no value: required, the type is what it says
    name = facts[p + "Settings.project_name"]
    assert (name.value, name.attrs, name.line) == ("str", (("annotation", "true"),), 12)
    # a field's options, keyed by the field and the option
    ge = facts[p + "Settings.pool_size.ge"]
    assert (ge.value, ge.attrs) == ("1", (("option", "true"),))
    assert facts[p + "Limits.names"].value == "field(default_factory=list)"  # a call, as written
    assert set(facts) == {p + k for k in (
        "Settings.API_V1_STR", "Settings.ACCESS_TOKEN_EXPIRE_MINUTES", "Settings.pool_size",
        "Config.SECRET_KEY", "Config.SQLALCHEMY_DATABASE_URI", "Config.POSTS_PER_PAGE",
        "Config.MAIL_PORT", "TestConfig.TESTING", "Limits.burst", "Plain.LIMIT", "Config.helper.LOCAL",
        "Settings.project_name", "Settings.pool_size.ge", "Limits.names")}


def test_what_a_function_calls():
    """A function's attrs.calls: the names its body calls, once each, in order; not its
    docstring's, nor a string's, nor a keyword's or a builtin's (len, isinstance), nor a nested
    name twice."""
    src = (b'def save(user, raw):\n'
           b'    """Store it; see hash_password(raw) for how."""\n'
           b'    if len(raw) < 8 or not isinstance(raw, str):\n'
           b'        raise ValueError("short: call validate(raw) first")\n'
           b'    user.password = bcrypt.hashpw(raw.encode(), bcrypt.gensalt())\n'
           b'    db.session . commit()\n'
           b'    return bcrypt.hashpw(b"x", b"y")\n'
           b'def noop():\n    pass\n')
    got = _function_attrs("app/users.py", src)
    assert got["save"]["calls"] == "ValueError, bcrypt.hashpw, raw.encode, bcrypt.gensalt, db.session.commit"
    assert "calls" not in got["noop"]


def _function_attrs(path: str, src: bytes) -> dict:
    from repomem.miners import mine_file

    return {f.value: dict(f.attrs) for f in mine_file(path, src) if f.kind == "function"}


def test_what_a_function_catches():
    """A function's attrs.catches: the exception types its except clauses name, once each, in
    order (a tuple, ``as``, ``except*``); not a bare except's, not a string's, not the
    docstring's; a function that catches nothing has none."""
    src = (b'def main(argv):\n'
           b'    """Run; except KeyError: never raised here."""\n'
           b'    try:\n'
           b'        run(argv)\n'
           b'    except (EOFError, KeyboardInterrupt) as e:\n'
           b'        raise Abort() from e\n'
           b'    except click.ClickException:\n'
           b'        log("except ValueError: in a string")\n'
           b'    except* OSError:\n'
           b'        pass\n'
           b'    except:\n'
           b'        raise\n'
           b'def run(argv):\n    return argv\n')
    got = _function_attrs("cli.py", src)
    assert got["main"]["catches"] == "EOFError, KeyboardInterrupt, click.ClickException, OSError"
    assert "catches" not in got["run"]

MODELS = b'''from django.db import models
import sqlalchemy as sa
import sqlalchemy.orm as so


class BlogPage(Page):
    """A blog post."""

    subtitle = models.CharField(blank=True, max_length=255)  # shown under the title
    body = StreamField(BaseStreamBlock(), blank=True)
    _cache = models.CharField(max_length=10)
    template = "blog/page.html"


class User(db.Model):
    username: so.Mapped[str] = so.mapped_column(sa.String(64), index=True, unique=True)
    password_hash: so.Mapped[str] = so.mapped_column(sa.String(256))
    api_key = db.Column(db.String(40), default="Zq8rT4vW2yX6bN0m")
    secret = db.Column(db.String(8), default="a")
    posts = so.relationship(back_populates="author")

    def avatar(self, size):
        return size


@dataclass
class Limits:
    burst = field(default=3)
'''


def test_model_fields():
    """A data model's fields (Django, Wagtail, SQLAlchemy): class attributes bound to a field or
    column call, keyed by class: the field's ``default=`` when it has one, else the field as
    written; not a private attribute, nor a plain class attribute, nor a settings class's
    attribute twice.  A field named like a secret is defined by code: only a string literal in it
    (a default) is redacted.  Each option of a field is a fact of its own."""
    from repomem.miners import mine_file

    got = {f.key.split(":", 2)[2]: f for f in mine_file("blog/models.py", MODELS)
           if f.kind == "config"}
    assert {k: f.value for k, f in got.items() if ("field", "true") in f.attrs} == {
        "BlogPage.subtitle": "models.CharField(blank=True, max_length=255)",
        "BlogPage.body": "StreamField(BaseStreamBlock(), blank=True)",
        "User.username": "so.mapped_column(sa.String(64), index=True, unique=True)",
        "User.password_hash": "so.mapped_column(sa.String(256))",
        "User.api_key": got["User.api_key"].value,
        "User.secret": got["User.secret"].value,
        "User.posts": 'so.relationship(back_populates="author")'}
    assert got["User.api_key"].value.startswith("<redacted:")
    assert got["User.api_key"].attrs == (("default", "true"), ("field", "true"))
    # only the literal, quotes and all: not every "a" of the code around it
    assert got["User.secret"].text == \
        f'    secret = db.Column(db.String(8), default="{got["User.secret"].value}")'
    assert "Zq8rT4vW2yX6bN0m" not in got["User.api_key"].text
    assert (got["BlogPage.subtitle.max_length"].value, got["BlogPage.subtitle.max_length"].attrs) == \
        ("255", (("option", "true"),))
    assert got["BlogPage.subtitle"].line == 9
    assert got["BlogPage.subtitle"].purpose == "subtitle - shown under the title - a field of BlogPage"
    assert "Limits.burst" in got and ("field", "true") not in got["Limits.burst"].attrs


DEFAULTS = b'''UNSET = object()


class Client:
    def __init__(
        self,
        auth=None,
        *,
        timeout: float = DEFAULT_TIMEOUT,  # seconds
        follow_redirects: bool = False,
        max_redirects=20,
        pool=UNSET,
        cert=USE_CLIENT_DEFAULT,
        _private=1,
        base_url: str = "",
        limit=None,
        **kwargs,
    ):
        self.timeout = timeout
        if limit is None:
            limit = 100


class _Internal:
    def __init__(self, size=10):
        pass


@dataclass
class Limits:
    burst: int = 3

    def __init__(self, burst=5, expiry=5.0):
        pass
'''


def test_constructor_defaults():
    """What an object is made with unless told otherwise: a public class's __init__ defaults as
    written (a literal, a constant's name); not None or a sentinel ("not given": the body
    decides), nor a private parameter or class; a settings class's own field comes first."""
    from repomem.miners import mine_file

    got = {f.key.split(":", 2)[2]: f for f in mine_file("web/client.py", DEFAULTS)
           if f.kind == "config"}
    assert {k: f.value for k, f in got.items()} == {
        "Client.timeout": "DEFAULT_TIMEOUT", "Client.follow_redirects": "False",
        "Client.limit": "100",
        "Client.max_redirects": "20", "Client.base_url": "", "Limits.burst": "3",
        "Limits.expiry": "5.0"}
    assert ("default", "true") in got["Client.follow_redirects"].attrs
    assert ("default", "true") not in got["Limits.burst"].attrs
    assert got["Client.follow_redirects"].line == 10
    assert got["Client.follow_redirects"].text == "follow_redirects: bool = False,"
    assert got["Client.follow_redirects"].purpose == "follow redirects - the default Client is made with"


def test_a_configuration_class_states_its_none_defaults():
    """A configuration class's constructor signature is its configuration: None is a value
    there (uvicorn's Config(headers=None)), unless the body puts a literal in its place."""
    from repomem.miners import mine_file

    src = b"""class ServerConfig:
    def __init__(self, app, headers=None, workers: int | None = None, limit=None, port=8000):
        self.headers = headers or []
        if limit is None:
            limit = 100


class Server:
    def __init__(self, config=None, port=8000):
        pass
"""
    got = {f.key.split(":", 2)[2]: f.value for f in mine_file("srv/config.py", src) if f.kind == "config"}
    assert got == {"ServerConfig.headers": "None", "ServerConfig.workers": "None", "ServerConfig.port": "8000",
                   "ServerConfig.limit": "100", "Server.port": "8000"}


TERMUI = '''import typing as t

DEFAULT_TIMEOUT = 5.0


@t.overload
def prompt(text: str, prompt_suffix: str = ...) -> str: ...


def prompt(text, default=None, hide_input=False, prompt_suffix="{suffix}", err=False, _depth=0):
    """Prompts a user for input."""
    return input(text + prompt_suffix)


def get(url, *, timeout=DEFAULT_TIMEOUT, follow_redirects=False):
    return request("GET", url, timeout=timeout, follow_redirects=follow_redirects)


def _helper(width=80):
    return width


class Formatter:
    def write(self, text, indent=2):
        return text


class Client:
    def __init__(self, follow_redirects=True):
        self.follow_redirects = follow_redirects


def open_file(filename, mode="r", lazy=False, atomic=False):
    """Open a file, with extra behavior to handle '-' to indicate a standard stream, lazy
    open on write, and atomic write."""
    return LazyFile(filename, mode) if lazy else open(filename, mode)
'''


MAIL_CONFIG = """class Config:
    MAIL_SERVER = "localhost"
    ADMINS = ['your-email@example.com']
"""
EMAIL = """def send_async_email(app, msg):
    with app.app_context():
        mail.send(msg)


def send_email(subject, sender, recipients, text_body, html_body, attachments=None, sync=False):
    msg = Message(subject, sender=sender, recipients=recipients)
    if sync:
        mail.send(msg)
"""


def test_function_parameter_defaults(new_repo):
    """click's ``prompt(prompt_suffix=": ")``: a public module-level function's defaults are
    settings (``config:<path>:<function>.<parameter>``, attrs default and parameter) with a
    history; not None, an @overload stub's ``...``, a private function's or parameter's, nor a
    test's; a public method's are its class's (``Formatter.write.indent``).  They answer when
    the question names the function: "are redirects followed by default?" is the client's, not
    get()'s."""
    from repomem.service.query import ask, history
    from tests.conftest import indexed

    got = {f.key.split(":", 2)[2]: f for f in mine_file("src/termui.py", TERMUI.format(suffix=": ").encode())
           if f.kind == "config"}
    assert {k: f.value for k, f in got.items()} == {
        "prompt.hide_input": "False", "prompt.prompt_suffix": ": ", "prompt.err": "False",
        "get.timeout": "DEFAULT_TIMEOUT", "get.follow_redirects": "False",
        "Client.follow_redirects": "True", "open_file.mode": "r", "open_file.lazy": "False",
        "open_file.atomic": "False", "Formatter.write.indent": "2"}
    assert got["prompt.prompt_suffix"].attrs == (("default", "true"), ("parameter", "true"))
    assert got["prompt.prompt_suffix"].purpose == "prompt suffix - a default of prompt()"
    assert got["prompt.prompt_suffix"].line == 10
    assert not [f for f in mine_file("tests/test_termui.py", TERMUI.format(suffix=": ").encode())
                if f.kind == "config"]

    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"src/termui.py": TERMUI.format(suffix=": "),
                                                      "config.py": MAIL_CONFIG, "app/email.py": EMAIL}),
                ("2024-04-01T10:00:00Z", {"src/termui.py": TERMUI.format(suffix="> ")}))
    key = "config:src/termui.py:prompt.prompt_suffix"
    assert [v["value"] for v in history(r, key)["versions"]] == [": ", "> "]
    got = ask(r, "What is the default prompt suffix?")
    assert (got["facts"][0]["key"], got["answer"]) == (key, "> ")
    assert ask(r, "What is the default timeout?")["facts"][0]["key"] == \
        "constant:src/termui.py:DEFAULT_TIMEOUT"
    # microblog: send_email(..., sync=False) is no answer to "what is the admin email?"
    assert ask(r, "What is the admin email?")["facts"][0]["key"] == "config:config.py:Config.ADMINS"
    # "open files" is the function open_file, not its parameters (which bear its name as owner)
    assert ask(r, "How does it open files lazily?")["facts"][0]["key"].startswith("function:")
    for question in ("Are redirects followed by default?", "What is the default of follow_redirects?"):
        assert ask(r, question)["facts"][0]["key"] == "config:src/termui.py:Client.follow_redirects"


def test_an_f_string_constant_is_stated_as_written(new_repo):
    """httpx's ``USER_AGENT = f"python-httpx/{__version__}"``: a constant computed only from
    names, stated as written (attrs.expression) and answering "what is the user agent?", as a
    constant made by a call is (a logger)."""
    from repomem.service.query import ask
    from tests.conftest import indexed

    client = ('import logging\n\nfrom .__version__ import __version__\n\n'
              'LOGGER = logging.getLogger(__name__)\nURL = f\'http://{HOST}\'\n'
              'USER_AGENT = f"python-httpx/{__version__}"\n')
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"httpx/_client.py": client,
                                                      "httpx/__version__.py": '__version__ = "0.28.1"\n'}))
    got = ask(r, "What is the user agent string?")["facts"][0]
    assert (got["key"], got["value"], got["attrs"]) == (
        "constant:httpx/_client.py:USER_AGENT", 'f"python-httpx/{__version__}"', {"expression": "true"})
    values = {f.key: f.value for f in mine_file("httpx/_client.py", client.encode())}
    assert values["constant:httpx/_client.py:LOGGER"] == "logging.getLogger(__name__)"
    assert values["constant:httpx/_client.py:URL"] == "f'http://{HOST}'"


EXCEPTIONS_PY = '''class ClickException(Exception):
    #: The exit code for this exception.
    exit_code = 1


class UsageError(ClickException):
    """Signals a usage error; aborts further handling."""

    exit_code = {code}
    parent = None
    _hint = "try --help"


class _Internal:
    exit_code = 9
'''


def test_a_public_class_attribute_is_a_setting_with_a_history(tmp_path):
    """click's ``UsageError.exit_code = 2`` answers "which exit code is used for usage
    errors?"; a new value supersedes and as-of still says the old one.  ``None`` (unset) is a
    value too; a private attribute and a private class's attribute are no facts; a Sphinx ``#:``
    comment is the purpose, without its colon."""
    from repomem.service.query import ask, facts
    from tests.conftest import indexed

    r = indexed(tmp_path / "repo",
                ("2024-03-01T10:00:00Z", {"src/click/exceptions.py": EXCEPTIONS_PY.format(code=2)}),
                ("2024-06-01T10:00:00Z", {"src/click/exceptions.py": EXCEPTIONS_PY.format(code=3)}))
    now = {f["key"].rsplit(":", 1)[-1]: f for f in facts(r)["facts"] if f["kind"] == "config"}
    assert sorted(now) == ["ClickException.exit_code", "UsageError.exit_code", "UsageError.parent"]
    assert now["UsageError.parent"]["value"] == "None"
    assert now["UsageError.exit_code"]["attrs"] == {"class": "true"}
    assert now["ClickException.exit_code"]["purpose"].startswith("exit code - The exit code for")
    got = ask(r, "which exit code is used for usage errors?")
    assert (got["facts"][0]["key"], got["answer"]) == ("config:src/click/exceptions.py:UsageError.exit_code", "3")
    assert ask(r, "which exit code is used for usage errors?", as_of="2024-04-01")["answer"] == "2"
    # a test's class is a fixture: its attributes state nothing
    fixture = b"class ResponseBodyAuth:\n    requires_response_body = True\n"
    assert [f for f in mine_file("tests/client/test_auth.py", fixture) if f.kind == "config"] == []


APP_INIT = '''import logging
from logging.handlers import RotatingFileHandler

import click


def create_app(config_class=Config, timeout=Timeout(timeout=5.0)):
    app = Flask(__name__)
    if not app.debug:
        file_handler = RotatingFileHandler('logs/microblog.log',
                                           maxBytes=%d, backupCount=10)
        file_handler.setFormatter(logging.Formatter(fmt='%%(message)s', style='%%'))
        app.logger.addHandler(file_handler)
        self.session.mount(retries=60 * 2)
    return app


class Post(db.Model):
    body = sa.String(length=140)

    def expire(self):
        return timedelta(days=-1, hours=0.5)


@click.option("--count", default=1)
def cli(count):
    pass


app.run(port=5000)
'''


def test_numbers_functions_pass_by_name(new_repo):
    """microblog's log file size was in no fact: ``RotatingFileHandler(..., maxBytes=10240)`` in
    create_app.  A number (or a quantity) a function's body passes to a call by name is a
    setting keyed by the function, the callee and the name, with a history; not a label or a
    mode (a string), nor at a module's or a class's top, in a signature's default or a
    decorator, nor in a test or a schema migration."""
    from repomem.service.query import ask, history
    from tests.conftest import indexed

    got = {f.key.split(":", 2)[2]: f for f in mine_file("app/__init__.py", (APP_INIT % 10240).encode())
           if ("argument", "true") in f.attrs}
    assert {k: f.value for k, f in got.items()} == {
        "create_app.RotatingFileHandler.maxBytes": "10240",
        "create_app.RotatingFileHandler.backupCount": "10",
        "create_app.session.mount.retries": "120",
        "Post.expire.timedelta.days": "-1", "Post.expire.timedelta.hours": "0.5",
        "create_app.RotatingFileHandler": "logs/microblog.log"}  # the one path the call is given
    f = got["create_app.RotatingFileHandler.maxBytes"]
    assert (f.line, f.purpose) == (11, "max bytes - passed to RotatingFileHandler() by create_app()")
    assert [ln.strip() for ln in f.text.split("\n")] == [
        "file_handler = RotatingFileHandler('logs/microblog.log',", "maxBytes=10240, backupCount=10)"]
    for path in ("tests/test_app.py", "migrations/versions/1f2e_users.py"):
        assert not [f for f in mine_file(path, (APP_INIT % 10240).encode()) if ("argument", "true") in f.attrs]

    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"app/__init__.py": APP_INIT % 10240,
                                                      "config.py": MAIL_CONFIG}),
                ("2024-04-01T10:00:00Z", {"app/__init__.py": APP_INIT % 20480}))
    key = "config:app/__init__.py:create_app.RotatingFileHandler.maxBytes"
    assert [v["value"] for v in history(r, key)["versions"]] == ["10240", "20480"]
    got = ask(r, "what is the max size of a log file?")
    assert (got["facts"][0]["key"], got["answer"]) == (key, "20480"), [f["key"] for f in got["facts"]]


FORMATTING = '''FORCED_WIDTH = None


class HelpFormatter:
    def __init__(self, indent_increment=2, width=None, max_width=None):
        retries = 0
        if max_width is None:
            max_width = %d
        if width is None:
            width = max(min(80, max_width) - 2, 50)
        self.width = width
        step = -1


def wrap_text(text, width=78):
    limit = 1
    margin = 4
    return text[:width]
'''


STATUS_CODES = '''from enum import IntEnum


class codes(IntEnum):
    """HTTP status codes and reason phrases."""

    OK = 200, "OK"
    FOUND = 302, "Found"
    TEMPORARY_REDIRECT = 307, "Temporary Redirect"

    @classmethod
    def is_redirect(cls, value: int) -> bool:
        """Returns True for 3xx status codes."""
        return value in (301, 302, 303, 307, 308)
'''
ASGI = '''class ASGITransport:
    async def handle_async_request(self, request):
        status_code = None
        try:
            await self.app(scope, receive, send)
        except Exception:
            if status_code is None:
                status_code = 500
        return Response(status_code)
'''


def test_a_number_a_function_binds_a_local_to(new_repo):
    """click's help is at most 80 columns wide unless told otherwise (``max_width = 80`` in
    HelpFormatter.__init__): a number a function's body binds a local name to is a setting
    keyed by the function and the name (attrs local), with a history; not 0, 1 or -1 (a
    counter, a flag), nor an expression, nor at a module's top.  Its name alone does not name
    it: httpx's ``status_code = 500`` in ASGITransport answers for the ASGI transport, not
    "which status codes are redirects?" (the class codes, its is_redirect)."""
    from repomem.service.query import ask, history
    from tests.conftest import indexed

    facts = mine_file("src/click/formatting.py", (FORMATTING % 80).encode())
    got = {f.key.split(":", 2)[2]: f for f in facts if ("local", "true") in f.attrs}
    assert {k: f.value for k, f in got.items()} == {"wrap_text.margin": "4"}
    f = got["wrap_text.margin"]
    assert (f.line, f.text.strip(), f.purpose) == (17, "margin = 4", "margin - set in wrap_text()")
    # a parameter's None given a number is the parameter's default (attrs unset), not a local
    got = {f.key.split(":", 2)[2]: f for f in facts if ("unset", "None") in f.attrs}
    f = got["HelpFormatter.max_width"]
    assert (f.value, f.line, f.text.splitlines()[-1].strip(), f.purpose) == (
        "80", 8, "max_width = 80", "max width - the default HelpFormatter is made with, when given None")

    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"src/click/formatting.py": FORMATTING % 80}),
                ("2024-04-01T10:00:00Z", {"src/click/formatting.py": FORMATTING % 100}))
    key = "config:src/click/formatting.py:HelpFormatter.max_width"
    assert [v["value"] for v in history(r, key)["versions"]] == ["80", "100"]
    got = ask(r, "what is the default maximum width of the help output?")
    assert (got["facts"][0]["key"], got["answer"]) == (key, "100"), [f["key"] for f in got["facts"]]
    # a local's name alone does not name it: "status codes" is not ASGITransport's status_code
    r = indexed(new_repo("httpx"), ("2024-03-01T10:00:00Z", {"httpx/_status_codes.py": STATUS_CODES,
                                                             "httpx/_transports/asgi.py": ASGI}))
    assert ask(r, "which status codes are redirects?")["facts"][0]["value"] in ("codes", "is_redirect")
    got = ask(r, "what status code does the asgi transport return when the app fails?")
    assert got["answer"] == "500"


def test_values_in_function_bodies_are_bounded_per_file():
    """A generated table of numbers in function bodies gives at most MAX_PER_FILE such facts (in
    source order), so it cannot take the file past the miners' limit and lose its other facts."""
    from repomem.miners._arguments import MAX_PER_FILE

    src = "".join(f"def f{i}():\n    width = {i + 2}\n\n\n" for i in range(MAX_PER_FILE + 50))
    got = [f for f in mine_file("gen/table.py", src.encode()) if ("local", "true") in f.attrs]
    assert len(got) == MAX_PER_FILE and got[0].key == "config:gen/table.py:f0.width"
    assert len([f for f in mine_file("gen/table.py", src.encode()) if f.kind == FUNCTION]) == MAX_PER_FILE + 50


def test_an_attribute_set_on_an_object_the_module_made_is_a_setting():
    facts = mine_file("app/__init__.py", textwrap.dedent("""\
        from flask_login import LoginManager
        import sys

        login = LoginManager()
        login.login_view = 'auth.login'
        login.login_message = _l('Please log in to access this page.')
        login._hidden = 3
        login.refresh_view = make_view()
        sys.dont_write_bytecode = True
        """).encode())
    got = {f.key: (f.value, f.attrs, f.line) for f in facts if f.kind == "config"}
    assert got == {
        "config:app/__init__.py:login.login_view": ("auth.login", (("attribute", "true"),), 5),
        "config:app/__init__.py:login.login_message":
            ("Please log in to access this page.", (("attribute", "true"),), 6)}
    assert not [f for f in mine_file("tests/conftest.py", b"c = C()\nc.port = 8080\n")
                if f.kind == "config"]  # a test's objects are fixtures
