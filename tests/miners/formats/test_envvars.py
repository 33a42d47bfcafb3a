"""Environment variables a program reads (repomem/miners/envvars.py), on real git repositories."""

from __future__ import annotations

from repomem.miners import mine_file
from repomem.service.query import ask, facts, history
from repomem.service.render import value_note
from tests.conftest import indexed

TOKEN_TS = """import jwt from 'jsonwebtoken';

export const generateToken = (id: number): string =>
  jwt.sign({{ user: {{ id }} }}, process.env.JWT_SECRET || 'q8Zr2LxT4vNw9Kp3', {{ expiresIn: '60d' }});

export const apiBase = import.meta.env.VITE_API_URL ?? "{api}";
const PORT = process.env.PORT || 3000;  // a constant: it says PORT already
process.env.TZ = 'UTC';  // a write, not a read
// process.env.COMMENTED_OUT
const dynamic = process.env[name];
"""
CONFIG_PY = """import os

basedir = os.path.abspath(os.path.dirname(__file__))


class Config:
    MAIL_SERVER = os.environ.get('MAIL_SERVER')
    SQLALCHEMY_DATABASE_URI = os.environ.get('DATABASE_URL', '').replace('postgres://', 'postgresql://')


def certificates():
    return os.getenv("SSL_CERT_FILE", default="{cafile}"), os.environ["API_KEY"]
"""
TEST_PY = """import os


def test_settings(monkeypatch):
    assert os.environ.get("ONLY_IN_TESTS", "x")
"""


def _reads(r, **kw) -> dict[str, dict]:
    return {f["key"]: f for f in facts(r, **kw)["facts"] if f["attrs"].get("read") == "true"}


def test_environment_variables_read_are_facts_with_a_history(tmp_path):
    """``process.env.JWT_SECRET || '...'`` and ``os.getenv("SSL_CERT_FILE", default=...)`` are
    facts of the file that reads them (``config:<path>:env.<NAME>``), worth their default; a new
    default supersedes.  A secret's default is redacted; a write, a comment, a computed name, a
    test file and a read that a setting of the file states already (``PORT``, ``MAIL_SERVER``) are
    not reads of their own; ``DATABASE_URL``, read inside a computed setting, is."""
    r = indexed(tmp_path / "repo",
                ("2024-03-01T10:00:00Z", {"src/auth/token.ts": TOKEN_TS.format(api="http://localhost:8080"),
                                          "config.py": CONFIG_PY.format(cafile="/etc/ssl/cert.pem"),
                                          "tests/test_config.py": TEST_PY}),
                ("2024-06-01T10:00:00Z", {"src/auth/token.ts": TOKEN_TS.format(api="https://api.example.org"),
                                          "config.py": CONFIG_PY.format(cafile="/etc/pki/ca.pem")}))
    now = _reads(r)
    assert {k: f["value"] for k, f in now.items() if not k.endswith("JWT_SECRET")} == {
        "config:src/auth/token.ts:env.VITE_API_URL": "https://api.example.org",
        "config:config.py:env.DATABASE_URL": "",
        "config:config.py:env.SSL_CERT_FILE": "/etc/pki/ca.pem",
        "config:config.py:env.API_KEY": "<required>",
    }
    secret = now["config:src/auth/token.ts:env.JWT_SECRET"]
    assert secret["value"].startswith("<redacted:") and secret["line"] == 4
    assert secret["subject"] == "environment variable JWT_SECRET read in src/auth/token.ts"
    assert all("q8Zr2LxT4vNw9Kp3" not in str(f) for f in facts(r)["facts"])
    key = "config:config.py:env.SSL_CERT_FILE"
    assert [v["value"] for v in history(r, key)["versions"]] == ["/etc/ssl/cert.pem", "/etc/pki/ca.pem"]
    assert _reads(r, as_of="2024-04-01")[key]["value"] == "/etc/ssl/cert.pem"
    got = ask(r, "which environment variable holds the jwt secret?")["facts"][0]
    assert got["key"] == "config:src/auth/token.ts:env.JWT_SECRET"
    got = ask(r, "which env var sets the ssl certificate file?")
    assert (got["facts"][0]["key"], got["answer"]) == (key, "/etc/pki/ca.pem")
    # the answer's line says the value is the variable's default, not that it overrides itself
    assert value_note(got["facts"][0]) == " (its default)"
    assert value_note(now["config:config.py:env.API_KEY"]) == ""
    assert value_note(now["config:config.py:env.DATABASE_URL"]) == " (empty by default)"


def test_odd_reads_state_nothing_wrong_and_break_nothing():
    """A name that is no identifier, a computed name, a default that is code, a read cut off at
    the end of a file: no fact or an honest one, and no error."""
    js = (b"const a = process.env['bad name'] || 'x';\nconst b = process.env[`T${x}`];\n"
          b"const port = process.env.PORT || config.port;\nconst c = process.env.C")
    got = [(f.key, f.value) for f in mine_file("src/a.js", js) if dict(f.attrs).get("read")]
    assert got == [("config:src/a.js:env.PORT", "<computed>"), ("config:src/a.js:env.C", "undefined")]
    py = (b"import os\nos.environ.get(NAME)\nos.getenv('X', make_default())\nos.environ['']\n"
          b"os.environ.get('bad name')\nos.environ.get('Y', 'y') or 'z'\n")
    got = [(f.key, f.value) for f in mine_file("a.py", py) if dict(f.attrs).get("read")]
    assert got == [("config:a.py:env.X", "<computed>"), ("config:a.py:env.Y", "y")]


def test_a_wsgi_environ_is_no_process_environment():
    """``environ.get("PATH_INFO")`` in a WSGI app reads a request; ``environ`` counts as the
    process's only where the module imports it from os."""
    wsgi = b"def app(environ, start_response):\n    return environ.get('PATH_INFO', '/')\n"
    assert [f for f in mine_file("app/wsgi.py", wsgi) if dict(f.attrs).get("read")] == []
    imported = b"from os import environ, getenv\n\nLEVEL = 3\n\n\ndef level():\n" \
               b"    return environ.get('LOG_LEVEL', 'info'), getenv('LOG_FILE')\n"
    got = [(f.key, f.value) for f in mine_file("app/log.py", imported) if dict(f.attrs).get("read")]
    assert got == [("config:app/log.py:env.LOG_LEVEL", "info"), ("config:app/log.py:env.LOG_FILE", "None")]
