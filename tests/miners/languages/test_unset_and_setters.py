"""A parameter's effective default given by the None idiom (click's ``Context(help_option_names=
None)`` is ``["--help"]``; repomem/miners/_pyunset.py, lang/unset.py), and a setter given a
setting's name and a literal (``viper.SetDefault("port", 8080)``, ``System.setProperty``,
``kwargs.setdefault("is_flag", True)``; repomem/miners/_arguments.py)."""

from __future__ import annotations

from repomem.miners import mine_file
from repomem.service.query import history
from tests.conftest import indexed

CONTEXT_PY = """CONFIG_SOURCE = "env"
FORCED = None


class Context:
    def __init__(self, parent=None, help_option_names=None, terminal_width=None, color=None,
                 max_width=None, debug=None, names=None, source=None, width=None):
        \"\"\"A command's context.\"\"\"
        if help_option_names is None:
            if parent is not None:
                help_option_names = parent.help_option_names
            else:
                help_option_names = %s
        if terminal_width is None:
            terminal_width = parent.terminal_width
        self.color = color or "auto"
        max_width = 80 if max_width is None else max_width
        if verbose:
            debug = True
        if names is None:
            names = []
        source = source if source is not None else CONFIG_SOURCE
        if width is None:
            width = FORCED


class HelpFormatter:
    def __init__(self, max_width=None):
        if max_width is None:
            max_width = 80
        self.max_width = max_width


def prompt(text, suffix=None, retries=None, required=None):
    if not suffix:
        suffix = ": "
    retries = retries or 3
    if required is None:
        if text:
            required = True
        else:
            required = False
"""
POOL_JS = """class Pool {
  constructor(size, opts) {
    this.size = size || 10;
    this.idle = opts.idle ?? 3000;
  }
}

function paginate(query, limit, offset = null, order, page, options = {}, size = 3) {
  const depth = options.depth || 4;
  size = size || 5;
  limit = limit || 20;
  if (offset === null) { offset = 5; }
  if (page === undefined) page = 2;
  if (debug) { order = 'asc'; }
  other = other || 'x';
  query = query || '';
}
"""
RETRY_TS = """export function retry(attempts?: number, name: string = undefined) {
  attempts ??= 3;
  if (typeof name === 'undefined') name = 'job';
}
"""
CONFIG_GO = """package config

func initConfig(c *gin.Context, name string) {
	viper.SetDefault("port", %d)
	viper.SetDefault("log.level", "info")
	c.Set("user", "admin")
	viper.Set("name", name)
	cache.Set("k", "v")
}
"""
MAIN_JAVA = """package a;

class Main {
    void main() {
        System.setProperty("java.awt.headless", "true");
        props.put("mail.smtp.port", 587);
        map.put("a", 1);
        response.setHeader("X-Frame-Options", "DENY");
        config.set(key, "x");
    }
}
"""
SERVER_JS = """function configure(config) {
  config.set('port', 3000);
  res.set('Content-Type', 'text/html');
  cache.set(key, value);
  settings.enable('trust proxy');
  settings.set('x', compute());
}

res.send = function send(body) {
  this.set('etag', 'weak');
};

app.defaultConfiguration = function defaultConfiguration() {
  this.set('etag', 'weak');
};
"""
DECORATORS_PY = """import os


def help_option(*param_decls, **kwargs):
    kwargs.setdefault("is_flag", True)
    kwargs.setdefault("help", _("Show this message and exit."))
    kwargs.setdefault("callback", show_help)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "site.settings")


class Loader:
    def load(self, key, value):
        self.headers.setdefault(key, value)
        self.config.set("port", 8080)
        self.config.set("Content-Type", "text/html")
"""
MAIN_KT = """package a

fun main() {
    System.setProperty("spring.profiles.active", "dev")
}
"""
BUILD_RS = """fn build() -> Config {
    Config::builder().set_default("port", 8080).unwrap().build()
}
"""


def _config(path: str, text: str) -> dict[str, tuple[str, dict]]:
    return {f.key: (f.value, dict(f.attrs)) for f in mine_file(path, text.encode()) if f.kind == "config"}


def _unset(got: dict) -> dict:
    return {k: v for k, v in got.items() if "unset" in v[1]}


def test_python_none_idiom_states_the_parameters_effective_default():
    facts = {f.key: f for f in mine_file("src/cli/core.py", (CONTEXT_PY % '["--help"]').encode())}
    f = facts["config:src/cli/core.py:Context.help_option_names"]
    assert (f.value, dict(f.attrs)) == ('["--help"]', {"default": "true", "unset": "None"})
    assert f.purpose == "help option names - the default Context is made with, when given None"
    assert f.text.splitlines() == [
        "def __init__(self, parent=None, help_option_names=None, terminal_width=None, color=None,",
                                   "        if help_option_names is None:",
                                   '                help_option_names = ["--help"]']
    got = _unset(_config("src/cli/core.py", CONTEXT_PY % '["--help"]'))
    assert got == {
        "config:src/cli/core.py:Context.help_option_names": ('["--help"]', {"default": "true", "unset": "None"}),
        "config:src/cli/core.py:Context.color": ("auto", {"default": "true", "unset": "None"}),
        "config:src/cli/core.py:Context.max_width": ("80", {"default": "true", "unset": "None"}),
        "config:src/cli/core.py:Context.source": ("CONFIG_SOURCE", {"default": "true", "unset": "None"}),
        "config:src/cli/core.py:HelpFormatter.max_width": ("80", {"default": "true", "unset": "None"}),
        "config:src/cli/core.py:prompt.suffix": (": ", {"default": "true", "parameter": "true", "unset": "None"}),
        "config:src/cli/core.py:prompt.retries": ("3", {"default": "true", "parameter": "true", "unset": "None"}),
    }  # not terminal_width (another parameter's), debug (an unrelated if), names (empty), width
    # (a constant that is None), required (a branch on text, not on a source given)
    every = _config("src/cli/core.py", CONTEXT_PY % '["--help"]')
    assert "config:src/cli/core.py:HelpFormatter.__init__.max_width" not in every  # the parameter states it
    assert _unset(_config("tests/test_core.py", CONTEXT_PY % '["--help"]')) == {}


def test_js_and_ts_body_defaults_of_parameters_passed_nothing():
    got = {k: v for k, v in _config("lib/pool.js", POOL_JS).items() if v[1].get("default")}
    assert got == {
        "config:lib/pool.js:Pool.size": ("10", {"default": "true", "unset": "undefined"}),
        "config:lib/pool.js:Pool.opts.idle": ("3000", {"default": "true"}),
        "config:lib/pool.js:paginate.limit": ("20", {"default": "true", "parameter": "true", "unset": "undefined"}),
        "config:lib/pool.js:paginate.offset": ("5", {"default": "true", "parameter": "true", "unset": "null"}),
        "config:lib/pool.js:paginate.page": ("2", {"default": "true", "parameter": "true", "unset": "undefined"}),
        "config:lib/pool.js:paginate.options.depth": ("4", {"default": "true", "parameter": "true"}),
        "config:lib/pool.js:paginate.size": ("3", {"default": "true", "parameter": "true"}),
    }  # not order (an unrelated if), other (no parameter), query (empty), size's fallback (a default is given)
    ts = {k: v[0] for k, v in _config("src/retry.ts", RETRY_TS).items() if v[1].get("unset")}
    assert ts == {"config:src/retry.ts:retry.attempts": "3", "config:src/retry.ts:retry.name": "job"}
    assert _config("lib/pool.test.js", POOL_JS) == {}


def test_a_setter_given_a_settings_name_and_a_literal():
    go = _config("config/config.go", CONFIG_GO % 8080)
    assert go == {
        "config:config/config.go:initConfig.viper.port": ("8080", {"default": "true", "setter": "SetDefault"}),
        "config:config/config.go:initConfig.viper.log.level": ("info", {"default": "true", "setter": "SetDefault"}),
    }  # not a gin context's value, a name, a cache's entry
    java = _config("src/main/java/a/Main.java", MAIN_JAVA)
    assert java == {
        "config:src/main/java/a/Main.java:Main.main.System.java.awt.headless": ("true", {"setter": "setProperty"}),
        "config:src/main/java/a/Main.java:Main.main.props.mail.smtp.port": ("587", {"setter": "put"}),
    }  # not a map's put, a header, a name not written
    js = {k: v for k, v in _config("lib/server.js", SERVER_JS).items() if "setter" in v[1]}
    assert js == {"config:lib/server.js:configure.config.port": ("3000", {"setter": "set"}),
                  "config:lib/server.js:configure.settings.trust proxy": ("true", {"setter": "enable"})}
    py = {k: v for k, v in _config("src/cli/decorators.py", DECORATORS_PY).items() if "setter" in v[1]}
    assert py == {
        "config:src/cli/decorators.py:help_option.kwargs.is_flag": ("True",
                                                                    {"default": "true", "setter": "setdefault"}),
        "config:src/cli/decorators.py:help_option.kwargs.help": ("Show this message and exit.",
                                                                 {"default": "true", "setter": "setdefault"}),
        "config:src/cli/decorators.py:Loader.load.config.port": ("8080", {"setter": "set"}),
    }
    env = _config("src/cli/decorators.py", DECORATORS_PY)["config:src/cli/decorators.py:env.DJANGO_SETTINGS_MODULE"]
    assert env[0] == "site.settings"  # the environment's default is its variable's fact, once
    assert _config("src/main/kotlin/a/Main.kt", MAIN_KT) == {
        "config:src/main/kotlin/a/Main.kt:main.System.spring.profiles.active": ("dev", {"setter": "setProperty"})}
    assert _config("src/build.rs", BUILD_RS)["config:src/build.rs:build.Config.builder.port"] \
        == ("8080", {"default": "true", "setter": "set_default"})
    assert _config("config/config_test.go", CONFIG_GO % 8080) == {}


def test_express_app_settings_are_not_stated_twice():
    facts = {f.key: f for f in mine_file("lib/application.js", SERVER_JS.encode())}
    assert facts["config:lib/application.js:app.etag"].value == "weak"  # the app setting
    # not again as a setter of app.defaultConfiguration's this, nor a response's this.set
    assert not [k for k in facts if k.endswith("defaultConfiguration.etag") or k.endswith("send.etag")]


def test_effective_defaults_and_setters_have_a_history(tmp_path):
    secret = "Zq8rT2vLx9Wk4Np7"
    db_go = f'package config\n\nfunc db() {{\n\tviper.SetDefault("db_password", "{secret}")\n}}\n'
    r = indexed(tmp_path / "repo",
                ("2026-02-01T10:00:00+00:00", {"src/cli/core.py": CONTEXT_PY % '["--help"]',
                                                  "config/config.go": CONFIG_GO % 8080, "config/db.go": db_go}),
                ("2026-03-01T10:00:00+00:00", {"src/cli/core.py": CONTEXT_PY % '["-h", "--help"]',
                                                  "config/config.go": CONFIG_GO % 9090}))
    versions = {k: [v["value"] for v in history(r, k)["versions"]] for k in (
        "config:src/cli/core.py:Context.help_option_names", "config:config/config.go:initConfig.viper.port")}
    assert versions == {"config:src/cli/core.py:Context.help_option_names": ['["--help"]', '["-h", "--help"]'],
                        "config:config/config.go:initConfig.viper.port": ["8080", "9090"]}
    password = history(r, "config:config/db.go:db.viper.db_password")["versions"]
    assert password and secret not in str(password)  # redacted before it is mined
