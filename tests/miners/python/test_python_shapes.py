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
