"""The Python value shapes beyond literals, each on the edge of what it takes (the contract
fixture, tests/miners/contract/python, has one of each)."""

from __future__ import annotations

import textwrap

from repomem.miners import mine_file


def configs(src: str, path: str = "app/main.py") -> dict[str, tuple[str, dict]]:
    return {f.key.split(":", 2)[2]: (f.value, dict(f.attrs))
            for f in mine_file(path, textwrap.dedent(src).encode()) if f.kind in ("config", "constant")}


def test_a_cli_option_is_named_as_click_names_its_parameter():
    got = configs('''
        @click.command()
        @click.option("--reload-dir", "reload_dirs", multiple=True)
        @click.option("-v", "--log-level", default="info")
        @click.option("-w", default=1)
        @click.option("--help-me", help="Not a value", default=None)
        def main(reload_dirs, log_level, w, help_me):
            pass
        ''')
    assert got["main.reload_dirs.multiple"] == ("True", {"option": "true"})
    assert got["main.log_level.default"][0] == "info"
    assert got["main.w.default"][0] == "1"
    assert got["main.help_me.default"][0] == "None"
    assert not any(k.endswith(".help") for k in got)  # prose


def test_a_typer_option_without_a_default_states_none():
    got = configs('''
        def main(name: str = typer.Option(..., "--name"), port: int = typer.Option(default=8000)):
            pass
        ''')
    assert "main.name.default" not in got
    assert got["main.port.default"] == ("8000", {"option": "true"})


def test_options_of_tests_are_no_facts():
    src = '@click.option("--port", default=1)\ndef main(port):\n    pass\n'
    assert not any(k.startswith("main.port.") for k in configs(src, "tests/test_cli.py"))


def test_of_two_middleware_of_one_class_the_first():
    got = configs('''
        app.add_middleware(CORSMiddleware, allow_origins=["a"])
        app.add_middleware(CORSMiddleware, allow_origins=["b"])
        ''')
    assert got["CORSMiddleware.allow_origins"][0] == '["a"]'


def test_a_literal_return_only_of_a_plain_function_returning_only_a_value():
    got = configs('''
        import os

        def port():
            """The port."""
            return 8080

        def computed():
            return words(4, common=False)

        def unset():
            return None

        def twice(x):
            if x:
                return 1
            return 2

        def _private():
            return 3

        @app.get("/")
        def index():
            return "hello"

        @property
        def host():
            return os.getenv("HOST", "localhost")
        ''')
    returns = {k: v for k, v in got.items() if k.endswith(".return")}
    assert returns == {"port.return": ("8080", {"returns": "true"}),
                       "host.return": ("localhost", {"env": "HOST", "returns": "true"})}


def test_a_default_passed_to_a_function_that_reads_the_environment():
    got = configs('''
        import os

        def number(name, fallback):
            return int(os.environ.get(name, fallback))

        def label(name, fallback):
            return name.title() or fallback

        TIMEOUT = number("TIMEOUT", "30")
        RETRIES = env_int("RETRIES", 5)
        TITLE = label("TITLE", "x")
        ''', "app/settings.py")
    assert got["TIMEOUT"] == ("30", {"env": "TIMEOUT"})
    assert got["RETRIES"] == ("5", {"env": "RETRIES"})
    assert got["TITLE"] == ('label("TITLE", "x")', {})  # reads no environment: the call as written


def test_an_annotation_only_setting_but_not_a_class_variable():
    got = configs('''
        class Settings(BaseSettings):
            DATABASE_URL: PostgresDsn
            registry: ClassVar[dict]
            _cache: dict
        ''')
    assert got == {"Settings.DATABASE_URL": ("PostgresDsn", {"annotation": "true"})}


def test_secrets_in_the_new_shapes_are_redacted():
    secret = "Zq8rT4vW2yX6bN0mPq"
    got = configs(f'''
        @click.option("--api-token", default="{secret}")
        def main(api_token):
            pass

        def secret_key():
            return "{secret}"

        app.add_middleware(SessionMiddleware, secret_key="{secret}")

        class Flask:
            default_config = ImmutableDict({{"SECRET_KEY": "{secret}", "AGE": timedelta(days=AGE)}})
        ''')
    for key in ("main.api_token.default", "secret_key.return", "SessionMiddleware.secret_key",
                "Flask.default_config.SECRET_KEY"):
        assert got[key][0].startswith("<redacted:"), key
    assert secret not in repr(got)


def test_an_include_of_a_list_nests_its_prefixes():
    facts = mine_file("site/urls.py", textwrap.dedent('''
        inner = [path("pause/", views.pause, name="pause")]
        checks = [path("checks/", include(inner))]
        urlpatterns = [path("api/v1/", include(checks))]
        ''').encode())
    assert {f.key: f.value for f in facts if f.kind == "route"} == {
        "route:site/urls.py:pause": "ANY /api/v1/checks/pause/"}


TYPES_PY = '''import typing as t


class StringParamType:
    name = "text"


#: A unicode string parameter type which is the implicit default.  This
#: can also be selected by using ``str`` as type.
#:
#: .. versionadded:: 2.0
STRING{annotation} = {made}

INT = IntParamType()
_MISSING = object()
NOW = now()
lower_case = StringParamType()
'''


def test_a_module_constant_made_by_a_class_without_arguments_has_a_history(tmp_path):
    """``STRING: t.Final[StringParamType] = StringParamType()`` (click's parameter types) is a
    constant, the call as written, whether annotated or not (one key: the annotation coming
    and going is no new fact); its purpose is the whole first paragraph of its ``#:`` comment.
    A sentinel (``object()``), a function's result (``now()``) and a lower-case name are not."""
    from repomem.service.query import ask, facts, history
    from tests.conftest import indexed

    r = indexed(tmp_path / "repo",
                ("2026-02-01T10:00:00+00:00", {"src/types.py": TYPES_PY.format(annotation="",
                                                                               made="StringParamType()")}),
                ("2026-03-01T10:00:00+00:00", {"src/types.py": TYPES_PY.format(
                    annotation=": t.Final[StringParamType]", made="StringParamType()")}),
                ("2026-04-01T10:00:00+00:00", {"src/types.py": TYPES_PY.format(
                    annotation=": t.Final[TextParamType]", made="TextParamType()")}))
    now = {f["key"]: f for f in facts(r)["facts"] if f["kind"] == "constant"}
    assert {k: (f["value"], f["attrs"]) for k, f in now.items()} == {
        "constant:src/types.py:STRING": ("TextParamType()", {}),
        "constant:src/types.py:INT": ("IntParamType()", {}),
    }
    key = "constant:src/types.py:STRING"
    assert [v["value"] for v in history(r, key)["versions"]] == ["StringParamType()", "TextParamType()"]
    assert now[key]["purpose"] == ("string - A unicode string parameter type which is the implicit "
                                   "default.  This can also be selected by using ``str`` as type.")
    assert ask(r, "which parameter type is the implicit default?")["facts"][0]["key"] == key


def test_a_constant_made_by_a_call_gives_a_fact_per_literal_keyword():
    """httpx's ``DEFAULT_LIMITS = Limits(max_connections=100, ...)``: the call as written, and
    ``DEFAULT_LIMITS.max_connections`` = ``100`` beside it; folded arithmetic and literal
    containers count, positional arguments, names, nested calls and prose do not; neither does
    a call given one argument (its own fact says as much), a call the value is read through
    from the environment, a constant of a function body, a lower-case name, nor a test's
    constant."""
    src = '''
        DEFAULT_LIMITS = Limits(max_connections=100, max_keepalive_connections=20)
        BUFFER = Buffer(
            "positional",
            size=16 * 1024 * 1024,  # sixteen MiB
            names=("a", "b"),
            made=make(size=2),
            given=OTHER,
            help="what it is for",
        )
        ONLY_NAMES = Pool(size=SIZE, timeout=make())
        DEFAULT_TIMEOUT = Timeout(timeout=5.0)
        HAS_RICH = parse_boolean_env_var(os.getenv("USE_RICH"), default=True)
        PORT = Server(port=os.getenv("PORT", 80), debug=False)
        T = TypeVar("T", bound=int)
        HOST = os.getenv("HOST", default="0.0.0.0")
        pool = Limits(max_connections=3)

        def build():
            INNER = Limits(max_connections=7)
            return INNER

        class Client:
            POOL = Limits(max_connections=9, max_keepalive_connections=5)
        '''
    got = {k: v for k, (v, _) in configs(src, "pkg/_config.py").items()
           if "." in k and not k.startswith("env.")}  # an environment variable's read is its own fact
    assert got == {
        "DEFAULT_LIMITS.max_connections": "100",
        "DEFAULT_LIMITS.max_keepalive_connections": "20",
        "BUFFER.size": "16777216",
        "BUFFER.names": '("a", "b")',
        "PORT.debug": "False",
        "Client.POOL": "Limits(max_connections=9, max_keepalive_connections=5)",
        "Client.POOL.max_connections": "9",
        "Client.POOL.max_keepalive_connections": "5",
        # the argument miner's local and call argument, not a constant's keyword
        "build.INNER": "Limits(max_connections=7)",
        "build.Limits.max_connections": "7",
    }
    facts = {f.key: f for f in mine_file("pkg/_config.py", textwrap.dedent(src).encode())}
    size = facts["constant:pkg/_config.py:BUFFER.size"]
    assert (size.kind, size.subject, size.line, size.text) == (
        "constant", "BUFFER.size in pkg/_config.py", 5, "size=16 * 1024 * 1024,  # sixteen MiB")
    assert facts["constant:pkg/_config.py:DEFAULT_LIMITS.max_connections"].purpose == \
        "default limits max connections - default limits"
    assert facts["constant:pkg/_config.py:DEFAULT_LIMITS"].value == \
        "Limits(max_connections=100, max_keepalive_connections=20)"  # the whole call stays
    in_test = configs(src, "tests/test_config.py")
    assert "DEFAULT_LIMITS" in in_test and "DEFAULT_LIMITS.max_connections" not in in_test


def test_a_secret_keyword_of_a_constant_call_is_redacted():
    secret = "Zq8rT4vW2yX6bN0mPq"
    got = configs(f'''
        DATABASE = Database(host="db.internal", password="{secret}", api_token="{secret}")
        ''')
    assert got["DATABASE.host"][0] == "db.internal"
    for key in ("DATABASE.password", "DATABASE.api_token", "DATABASE"):
        assert "<redacted:" in got[key][0], key
    assert secret not in repr(mine_file("app/main.py", f'DATABASE = Database(password="{secret}")\n'.encode()))


CONFIG_PY = '''DEFAULT_LIMITS = Limits(max_connections={max}, {keepalive}=20)
'''


def test_a_constant_call_keyword_has_a_history_and_a_broken_version_is_a_logged_skip(tmp_path, caplog):
    """A keyword's new value supersedes the old one, a renamed keyword closes the old key, and a
    version that does not parse is skipped with its reason logged, its facts kept."""
    import logging

    from repomem.service.query import facts, history
    from tests.conftest import indexed

    caplog.set_level(logging.INFO, logger="repomem")
    r = indexed(tmp_path / "repo",
                ("2026-02-01T10:00:00+00:00", {"httpx/_config.py": CONFIG_PY.format(
                    max=100, keepalive="max_keepalive_connections")}),
                ("2026-03-01T10:00:00+00:00", {"httpx/_config.py": CONFIG_PY.format(
                    max=200, keepalive="max_idle_connections")}),
                ("2026-04-01T10:00:00+00:00", {"httpx/_config.py": "DEFAULT_LIMITS = Limits(max_connections=(\n"}))
    now = {f["key"]: f["value"] for f in facts(r)["facts"] if f["kind"] == "constant"}
    base = "constant:httpx/_config.py:DEFAULT_LIMITS"
    assert now == {base: "Limits(max_connections=200, max_idle_connections=20)",
                   f"{base}.max_connections": "200", f"{base}.max_idle_connections": "20"}
    assert [v["value"] for v in history(r, f"{base}.max_connections")["versions"]] == ["100", "200"]
    closed = history(r, f"{base}.max_keepalive_connections")["versions"]
    assert [v["value"] for v in closed] == ["20"]
    assert closed[0]["valid_to"].startswith("2026-03-01")
    assert any("skip httpx/_config.py" in m and "syntax error near line 1" in m for m in caplog.messages)
