"""The config miner: one fact per setting, keyed by file and key path, with line and purpose."""

from __future__ import annotations

import pytest

from repomem.core.model import CONFIG, PYTHON, set_value
from repomem.miners import MineError, mine_file
from repomem.miners.config import MINER


def by_key(path: str, text: str) -> dict:
    facts = MINER.mine(path, text)
    keys = [f.key for f in facts]
    assert len(keys) == len(set(keys)), "a key appears twice in one file"
    return {f.key: f for f in facts}


TOML = """\
title = "demo"

[server]
# the port nginx proxies to
port = 8080
host = "0.0.0.0"  # all interfaces
ratio = 1.50
debug = false

[[servers]]
host = "a.example"

[[servers]]
host = "b.example"
tags = ["blue", "green"]
"""

YAML = """\
server:
  # the port nginx proxies to
  port: 8080
  host: 0.0.0.0  # all interfaces
  ratio: 1.50
  debug: no
  nothing: ~
servers:
  - host: a.example
  - host: b.example
    tags: [blue, green]
"""

JSON = """\
{
  "server": {
    "port": 8080,
    "host": "0.0.0.0",
    "ratio": 1.50,
    "debug": false,
    "nothing": null
  },
  "servers": [
    {"host": "a.example"},
    {
      "host": "b.example",
      "tags": ["blue", "green"]
    }
  ]
}
"""

INI = """\
[server]
# the port nginx proxies to
port = 8080
host = 0.0.0.0 # all interfaces
debug = false
tags =
    blue
    green
"""


@pytest.mark.parametrize("path,text,expected", [
    ("config/app.toml", TOML, {"server.port": ("8080", 5), "server.host": ("0.0.0.0", 6),
                               "server.ratio": ("1.50", 7), "server.debug": ("false", 8),
                               "servers.0.host": ("a.example", 11), "servers.1.host": ("b.example", 14),
                               "servers.1.tags": ("blue, green", 15), "title": ("demo", 1)}),
    ("config/app.yaml", YAML, {"server.port": ("8080", 3), "server.host": ("0.0.0.0", 4),
                               "server.ratio": ("1.50", 5), "server.debug": ("false", 6),
                               "server.nothing": ("null", 7), "servers.0.host": ("a.example", 9),
                               "servers.1.host": ("b.example", 10), "servers.1.tags": ("blue, green", 11)}),
    ("config/app.json", JSON, {"server.port": ("8080", 3), "server.host": ("0.0.0.0", 4),
                               "server.ratio": ("1.50", 5), "server.debug": ("false", 6),
                               "server.nothing": ("null", 7), "servers.0.host": ("a.example", 10),
                               "servers.1.host": ("b.example", 12), "servers.1.tags": ("blue, green", 13)}),
    ("config/app.ini", INI, {"server.port": ("8080", 3), "server.host": ("0.0.0.0", 4),
                             "server.debug": ("false", 5), "server.tags": ("blue, green", 6)}),
])
def test_formats_values_and_lines(path, text, expected):
    facts = by_key(path, text)
    assert set(facts) == {f"config:{path}:{k}" for k in expected}
    lines = text.splitlines()
    for k, (value, line) in expected.items():
        f = facts[f"config:{path}:{k}"]
        assert (f.value, f.line) == (value, line), k
        assert f.kind == CONFIG and f.path == path and not f.is_set
        assert f.subject == f"{k} in {path}"
        assert f.text == lines[line - 1]


@pytest.mark.parametrize("path,text", [
    ("config/app.toml", TOML), ("config/app.yaml", YAML), ("config/app.ini", INI)])
def test_comments_go_into_purpose(path, text):
    facts = by_key(path, text)
    port = facts[f"config:{path}:server.port"]
    assert port.purpose == "server port (config app): the port nginx proxies to"
    assert facts[f"config:{path}:server.host"].purpose.endswith(": all interfaces")


def test_purpose_words_split_identifiers():
    f = by_key("deploy/prod/settings.json", '{"db": {"maxConnections": 5}}')
    assert f["config:deploy/prod/settings.json:db.maxConnections"].purpose == \
        "db max connections (deploy prod settings)"


def test_same_key_in_two_files_gives_two_keys():
    staging = MINER.mine("config/staging.toml", "[server]\nport = 8000\n")
    production = MINER.mine("config/production.toml", "[server]\nport = 443\n")
    assert staging[0].key == "config:config/staging.toml:server.port"
    assert production[0].key == "config:config/production.toml:server.port"
    assert "staging" in staging[0].purpose and "production" in production[0].purpose


def test_toml_dotted_keys_and_inline_tables():
    text = 'a.b = 1\n[tool.x]\nopts = {level = 3, name = "n"}\n'
    facts = by_key("t.toml", text)
    assert facts["config:t.toml:a.b"].line == 1
    assert facts["config:t.toml:tool.x.opts.level"].value == "3"
    assert facts["config:t.toml:tool.x.opts.level"].line == 3  # the inline table's line


def test_yaml_multi_document_and_merge_keys():
    text = "base: &b\n  retries: 3\nsvc:\n  <<: *b\n  name: api\n---\nkind: Service\n"
    facts = by_key("k8s.yaml", text)
    assert facts["config:k8s.yaml:0.svc.retries"].value == "3"
    assert facts["config:k8s.yaml:0.svc.name"].line == 5
    assert facts["config:k8s.yaml:1.kind"].value == "Service"


@pytest.mark.parametrize("path", [".env", ".env.production", "deploy/prod.env"])
def test_env_files(path):
    text = ('# database\nexport DB_HOST=db.internal\nDB_PORT="5432"\n'
            "DB_NAME='app'  # the schema\nnot a setting\nEMPTY=\nWITH_HASH=a#b # c\n")
    facts = by_key(path, text)
    got = {k.rsplit(":", 1)[1]: (f.value, f.line) for k, f in facts.items()}
    assert got == {"DB_HOST": ("db.internal", 2), "DB_PORT": ("5432", 3), "DB_NAME": ("app", 4),
                   "EMPTY": ("", 6), "WITH_HASH": ("a#b", 7)}
    assert facts[f"config:{path}:DB_HOST"].purpose.endswith(": database")
    assert facts[f"config:{path}:DB_NAME"].purpose.endswith(": the schema")


@pytest.mark.parametrize("path,accepted", [
    ("config.toml", True), ("a/b.yml", True), ("a/b.yaml", True), ("x.json", True),
    ("setup.cfg", True), ("tox.ini", True), (".env", True), (".env.local", True), ("prod.env", True),
    ("poetry.lock", False), ("package-lock.json", False), ("yarn.lock", False),
    ("Pipfile.lock", False), ("web/node_modules/x/package.json", False), ("main.py", False),
    ("README.md", False), (".flaskenv", True), (".npmrc", True), (".editorconfig", True),
    (".prettierrc", True), ("web/.babelrc", True), ("Procfile", True), ("prisma/schema.prisma", True),
    (".nvmrc", True), (".tool-versions", True), (".gitignore", False), ("Makefile", False),
    (".dockerignore", False)])
def test_accepts(path, accepted):
    assert MINER.accepts(path) is accepted


@pytest.mark.parametrize("path,text", [
    ("a.toml", "[server\nport = 1\n"), ("a.json", '{"a": 1,}'), ("a.yaml", "a: [1, 2\nb: c\n"),
    ("a.ini", "no section header\n"), (".prettierrc", '{"semi": false,'),
    ("schema.prisma", "model User {\n  id Int @id\n"),
    ("schema.prisma", "datasource db {\n}\nprovider = \"sqlite\"\n"),
    (".tool-versions", "nodejs\n")])
def test_broken_files_raise_mine_error(path, text):
    with pytest.raises(MineError) as e:
        MINER.mine(path, text)
    assert "\n" not in str(e.value)


def test_pyproject_skips_what_the_dependency_miner_owns():
    text = """\
[project]
name = "x"
requires-python = ">=3.10"
dependencies = ["requests"]
classifiers = ["Programming Language :: Python :: 3.11"]
[project.optional-dependencies]
dev = ["pytest"]
[tool.poetry.dependencies]
python = "^3.10"
[tool.poetry.dev-dependencies]
black = "*"
[tool.poetry.group.test.dependencies]
pytest = "*"
[tool.ruff]
line-length = 100
"""
    assert set(by_key("pyproject.toml", text)) == {
        "config:pyproject.toml:project.name", "config:pyproject.toml:tool.ruff.line-length"}


def test_package_json_and_setup_cfg_skip_dependency_parts():
    pj = '{"name": "w", "dependencies": {"a": "1"}, "devDependencies": {"b": "2"},' \
         ' "engines": {"node": ">=18"}, "scripts": {"test": "jest"}}'
    assert set(by_key("package.json", pj)) == {"config:package.json:name",
                                               "config:package.json:scripts.test"}
    cfg = ("[metadata]\nname = x\nclassifiers =\n    A :: B\n[options]\npython_requires = >=3.8\n"
           "install_requires =\n    requests\n[options.extras_require]\ndev = pytest\n"
           "[flake8]\nmax-line-length = 100\n")
    assert set(by_key("setup.cfg", cfg)) == {"config:setup.cfg:metadata.name",
                                             "config:setup.cfg:flake8.max-line-length"}


WORKFLOW = """\
on: [push]
jobs:
  test:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        python-version: ["3.12", "3.10", 3.11]
        os: [ubuntu-latest]
  legacy:
    strategy:
      matrix:
        include:
          - python-version: "3.8"
          - python-version: "3.9"
  dynamic:
    strategy:
      matrix:
        python-version: ${{ fromJson(needs.setup.outputs.versions) }}
"""


def test_ci_matrix_is_a_set_fact():
    facts = by_key(".github/workflows/ci.yml", WORKFLOW)
    test = facts["python:ci-matrix:.github/workflows/ci.yml:test"]
    assert test.kind == PYTHON and test.is_set
    assert test.value == set_value(["3.10", "3.11", "3.12"]) == "3.10, 3.11, 3.12"  # 3.10 not 3.1
    assert test.subject == "Python versions tested in CI (test)"
    assert test.line == 7 and "python-version" in test.text
    assert facts["python:ci-matrix:.github/workflows/ci.yml:legacy"].value == "3.8, 3.9"
    assert "config:.github/workflows/ci.yml:jobs.test.strategy.matrix.python-version" not in facts
    assert facts["config:.github/workflows/ci.yml:jobs.test.strategy.matrix.os"].value == "ubuntu-latest"
    # an expression is not a list of versions: it stays an ordinary setting
    assert "python:ci-matrix:.github/workflows/ci.yml:dynamic" not in facts
    assert "config:.github/workflows/ci.yml:jobs.dynamic.strategy.matrix.python-version" in facts


def test_ci_matrix_order_insensitive():
    a = by_key(".github/workflows/ci.yml", WORKFLOW)
    b = by_key(".github/workflows/ci.yml", WORKFLOW.replace('["3.12", "3.10", 3.11]', '[3.11, "3.12", "3.10"]'))
    key = "python:ci-matrix:.github/workflows/ci.yml:test"
    assert a[key].value_id() == b[key].value_id()


def test_matrix_outside_workflows_is_plain_config():
    facts = by_key("ci/other.yml", WORKFLOW)
    assert not any(k.startswith("python:") for k in facts)


@pytest.mark.parametrize("envlist,expected", [
    ("py39, py310, lint", {"py39", "py310", "lint"}),
    ("py{39,310,311}-django{4,5}", {f"py{p}-django{d}" for p in (39, 310, 311) for d in (4, 5)}),
    ("\n    py311\n    py312\n", {"py311", "py312"}),
])
def test_tox_envlist_is_a_set_fact(envlist, expected):
    facts = by_key("tox.ini", f"[tox]\nenvlist = {envlist}\n[testenv]\ncommands = pytest\n")
    f = facts["python:tox-envlist:tox.ini"]
    assert f.kind == PYTHON and f.is_set and f.line == 2
    assert set(f.value.split(", ")) == expected
    assert f.value == set_value(expected)
    assert "config:tox.ini:tox.envlist" not in facts
    assert facts["config:tox.ini:testenv.commands"].value == "pytest"


def test_mine_file_for_config_files():
    facts = mine_file("config/production.toml", TOML.encode())
    assert {f.key for f in facts} >= {"config:config/production.toml:server.port"}
    with pytest.raises(MineError):
        mine_file("config/production.toml", b"[broken\n")


def test_config_files_known_by_name():
    """Files with no extension to tell their format: Flask's .flaskenv (dotenv), npm's .npmrc
    (INI, keys with colons, options before any section), .editorconfig (INI, ``root`` first), a
    tool's rc file (JSON, or YAML), a Procfile's process types."""
    got = {f.key: (f.value, f.line) for f in MINER.mine(".flaskenv", "FLASK_APP=microblog.py\n")}
    assert got == {"config:.flaskenv:FLASK_APP": ("microblog.py", 1)}
    got = {f.key: (f.value, f.line) for f in MINER.mine(
        ".npmrc", "; npm settings\nsave-exact=true\n@acme:registry=https://npm.acme.dev/\n"
                  "[cache]\nmax-age = 30\n")}
    assert got == {"config:.npmrc:save-exact": ("true", 2),
                   "config:.npmrc:@acme:registry": ("https://npm.acme.dev/", 3),
                   "config:.npmrc:cache.max-age": ("30", 5)}
    got = {f.key: (f.value, f.line) for f in MINER.mine(
        ".editorconfig", "# top-most\nroot = true\n\n[*.py]\nindent_size = 4\n")}
    assert got == {"config:.editorconfig:root": ("true", 2),
                   "config:.editorconfig:*.py.indent_size": ("4", 5)}
    for text in ('{\n  "singleQuote": true,\n  "printWidth": 100\n}\n',
                 "singleQuote: true\nprintWidth: 100\n"):
        got = {f.key: f.value for f in MINER.mine(".prettierrc", text)}
        assert got == {"config:.prettierrc:singleQuote": "true",
                       "config:.prettierrc:printWidth": "100"}
    got = {f.key: (f.value, f.line) for f in MINER.mine(
        "Procfile", "# processes\nweb: gunicorn app:app --workers 3\n\nworker:celery -A app worker\n")}
    assert got == {"config:Procfile:web": ("gunicorn app:app --workers 3", 2),
                   "config:Procfile:worker": ("celery -A app worker", 4)}


def test_runtime_version_files():
    assert [(f.key, f.value, f.line) for f in MINER.mine(".nvmrc", "# LTS\nlts/iron\n")] == \
        [("config:.nvmrc:node", "lts/iron", 2)]
    assert [(f.key, f.value) for f in MINER.mine("api/.python-version", "3.12.1\n3.11.7\n")] == \
        [("config:api/.python-version:python", "3.12.1, 3.11.7")]
    assert {f.key: f.value for f in MINER.mine(".tool-versions", "nodejs 20.11.0\npython 3.12.1\n")} \
        == {"config:.tool-versions:nodejs": "20.11.0", "config:.tool-versions:python": "3.12.1"}
    assert MINER.mine(".nvmrc", "\n") == []


def test_an_npmrc_token_is_redacted():
    facts = {f.key: f for f in mine_file(
        ".npmrc", b"//registry.npmjs.org/:_authToken=npm_Zq8rT4vW2yX6bN0mK3pL7sD9fG1hJ5cV8eR2\n")}
    fact = facts["config:.npmrc://registry.npmjs.org/:_authToken"]
    assert fact.value.startswith("<redacted:") and "npm_Zq8" not in fact.text


PRISMA = """// the database
datasource db {
  provider = "postgresql" // or "sqlite" in tests
  url      = env("DATABASE_URL")
}

generator client {
  provider = "prisma-client-js"
}

/// A registered account.
model User {
  id       Int      @id @default(autoincrement())
  /// The sign-in address.
  email    String   @unique
  role     Role     @default(USER)
  site     String?  @default("https://example.dev//home") // "//" in a string is no comment
  @@index([email])
}

enum Role {
  USER
  ADMIN // may delete
}
"""


def test_prisma_schema():
    facts = by_key("prisma/schema.prisma", PRISMA)
    got = {k.split(":", 2)[2]: (f.value, f.line) for k, f in facts.items()}
    assert got == {"datasource.db.provider": ("postgresql", 3),
                   "datasource.db.url": ('env("DATABASE_URL")', 4),
                   "generator.client.provider": ("prisma-client-js", 8),
                   "model.User.id": ("Int @id @default(autoincrement())", 13),
                   "model.User.email": ("String @unique", 15),
                   "model.User.role": ("Role @default(USER)", 16),
                   "model.User.site": ('String? @default("https://example.dev//home")', 17),
                   "enum.Role": ("USER, ADMIN", 21)}
    assert facts["config:prisma/schema.prisma:datasource.db.provider"].purpose.endswith(
        ': or "sqlite" in tests')
    assert facts["config:prisma/schema.prisma:model.User.email"].purpose.endswith(
        ": The sign-in address.")
    assert ("field", "true") in facts["config:prisma/schema.prisma:model.User.email"].attrs
    # a field named like a secret is defined by its type: only a literal in it is redacted
    got = {f.key.rsplit(".", 1)[-1]: f.value for f in mine_file("schema.prisma", (
        b'model User {\n  password String\n  apiToken String @default("Zq8rT4vW2yX6bN0mK3pL")\n}\n'))}
    assert got["password"] == "String"
    assert got["apiToken"].startswith('String @default("<redacted:') and "Zq8r" not in got["apiToken"]


def test_prisma_settings_have_a_history(tmp_path):
    """A Prisma datasource's provider is a key with a history (sqlite, then postgresql), found by
    "which database"; a schema broken mid-edit keeps the facts of its last good version."""
    from repomem.service.query import ask, facts, history
    from tests.conftest import indexed

    schema = PRISMA.replace('"postgresql" // or "sqlite" in tests', '"sqlite"')
    r = indexed(tmp_path / "repo",
                ("2026-02-01T10:00:00+00:00", {"prisma/schema.prisma": schema,
                                                "package.json": '{"name": "api"}\n'}),
                ("2026-03-01T10:00:00+00:00", {"prisma/schema.prisma": PRISMA}),
                ("2026-04-01T10:00:00+00:00", {"prisma/schema.prisma": PRISMA.replace("}", "", 1)}))
    key = "config:prisma/schema.prisma:datasource.db.provider"
    assert [v["value"] for v in history(r, key)["versions"]] == ["sqlite", "postgresql"]
    assert "config:prisma/schema.prisma:model.User.email" in {f["key"] for f in facts(r)["facts"]}
    got = ask(r, "which database provider does prisma use?")
    assert (got["facts"][0]["key"], got["answer"]) == (key, "postgresql")
    assert ask(r, "which database provider does prisma use?", as_of="2026-02-15")["answer"] == "sqlite"


def test_a_parser_recursing_too_deep_is_a_mine_error():
    """tomllib recurses per nesting level: `a = [[[[...` was a RecursionError out of mine_file
    (the ingest caught it; the overlay and the fuzz harness did not)."""
    depth = 100_000
    with pytest.raises(MineError) as e:
        mine_file("a.toml", b"a = " + b"[" * depth + b"]" * depth + b"\n")
    assert str(e.value) == "too deeply nested to parse"


TSCONFIG = """{
  // the compiler of the API
  "extends": "./tsconfig.base.json",
  "compilerOptions": {
    "target": "es2015", /* node 18 would take es2022 */
    "baseUrl": "http://example.com//api",
    "lib": ["es2020", "dom",],
  },
  /* "strict": true, */
}
"""


def test_tsconfig_and_other_jsonc_files_allow_comments_and_trailing_commas():
    """tsconfig.json, devcontainer.json, .vscode's files and *.jsonc are JSON with comments and
    trailing commas (node-express-realworld's tsconfig.app.json ends a list with a comma: it
    was skipped as broken).  Lines stay right, a comment's text is the purpose, "//" inside a
    string is no comment, a commented-out setting is none; a TypeScript setting's purpose says
    TypeScript.  A package.json with a trailing comma is still broken."""
    for path in ("tsconfig.app.json", "web/tsconfig.json", ".devcontainer/devcontainer.json",
                 ".vscode/settings.json", "api/config.jsonc"):
        facts = {k.split(":", 2)[2]: f for k, f in by_key(path, TSCONFIG).items()}
        assert {k: (f.value, f.line) for k, f in facts.items()} == {
            "extends": ("./tsconfig.base.json", 3), "compilerOptions.target": ("es2015", 5),
            "compilerOptions.baseUrl": ("http://example.com//api", 6),
            "compilerOptions.lib": ("es2020, dom", 7)}, path
        assert facts["compilerOptions.target"].purpose.endswith(": node 18 would take es2022")
        assert facts["extends"].purpose.endswith(": the compiler of the API")
    assert "typescript setting" in by_key("tsconfig.app.json", TSCONFIG)[
        "config:tsconfig.app.json:compilerOptions.target"].purpose
    with pytest.raises(MineError):
        MINER.mine("package.json", '{"name": "x", "private": true,}\n')


def test_a_typescript_setting_is_asked_for_by_the_tool(tmp_path):
    """"What is the typescript target?": the target of tsconfig.json, not an Nx build target."""
    from repomem.service.query import ask
    from tests.conftest import indexed

    project = '{"targets": {"serve": {"options": {"buildTarget": "api:build"}}}}\n'
    r = indexed(tmp_path / "repo", ("2024-01-10T10:00:00Z", {
        "tsconfig.json": TSCONFIG, "project.json": project,
        "package.json": '{"devDependencies": {"typescript": "~5.2.2"}}\n'}))
    assert ask(r, "What is the typescript target?")["facts"][0]["key"] == \
        "config:tsconfig.json:compilerOptions.target"


@pytest.mark.parametrize("path,text", [
    ("pyproject.toml", '[tool.tox.env_run_base]\ncommands = [["pytest"]]\ndefault = []\n'),
    ("config.json", '{"tool": {"tox": {"env_run_base": {"default": []}}}}\n'),
    ("config.yaml", "tool:\n  tox:\n    env_run_base:\n      default: []\n"),
])
def test_an_empty_list_is_a_value(path, text):
    """An empty list is the value "[]": stored as "" it read as an empty string, and facts with
    nothing in their value topped questions about separators and defaults."""
    got = {k.rsplit(":", 1)[-1]: f.value for k, f in by_key(path, text).items()}
    assert got["tool.tox.env_run_base.default"] == "[]"
