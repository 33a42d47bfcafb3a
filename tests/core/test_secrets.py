"""Secrets never reach the store in clear text; ordinary settings stay readable."""

from __future__ import annotations

import hashlib
import re

import pytest

from repomem.core.model import CONFIG, CONSTANT, DEPENDENCY, Fact
from repomem.core.secrets import redact_blob, redact_fact, redact_text, secret_name
from repomem.miners import mine_file

TOKEN = re.compile(r"<redacted:[0-9a-f]{6}>")


def tok(secret: str) -> str:
    return "<redacted:" + hashlib.sha256(("repomem-redact\0" + secret).encode()).hexdigest()[:6] + ">"


def fact(key: str, value: str, text: str, kind: str = CONFIG, purpose: str = "", attrs=()) -> Fact:
    path = key.split(":")[1]
    return Fact(key=key, kind=kind, subject=key, value=value, path=path, line=1, text=text,
                purpose=purpose, attrs=attrs)


def everywhere(facts) -> str:
    return "\n".join(f"{f.value}\n{f.text}\n{f.purpose}\n{f.subject}\n{f.attrs}" for f in facts)


AWS = "AKIAIOSFODNN7EXAMPLE"
GHP = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
SLACK = "xoxb-123456789012-abcdefghijklmnop"
OPENAI = "sk-proj4aB7cD9eF1gH3iJ5kL7mN9"
JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
RANDOM = "Zx9QmT4vLp8KwR2sYb7NcH5dJf3GaE6uVq1"
PEM = "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7\n-----END RSA PRIVATE KEY-----"


@pytest.mark.parametrize("secret", [AWS, GHP, SLACK, OPENAI, JWT, RANDOM, PEM])
def test_credential_shaped_values_are_redacted_in_any_setting(secret):
    f = redact_fact(fact("config:app.yaml:upstream.value", secret, f"  value: {secret}",
                         purpose=f"note {secret}"))
    assert f.value == tok(secret)
    assert secret not in everywhere([f])
    assert f.text.startswith("  value: ")


@pytest.mark.parametrize("name", [
    "password", "DB_PASSWORD", "dbPassword", "passwd", "PWD", "client_secret", "SECRET_KEY", "apiKey",
    "API_KEY", "apikey", "private_key", "auth_token", "GITHUB_TOKEN", "credentials", "AWS_ACCESS_KEY",
    "sentry_dsn", "auth"])
def test_secret_names(name):
    assert secret_name(name)


@pytest.mark.parametrize("name", [
    "TOKEN_TTL", "token_timeout", "password_min_length", "AUTH_URL", "author", "port", "tokenizer",
    "PASSWORD_FILE", "session_expiry", "api_version", "username",
    # Django's lists of validator and hasher classes, and the hosts a basic-auth gate lets in
    "AUTH_PASSWORD_VALIDATORS", "PASSWORD_HASHERS", "BASIC_AUTH_WHITELISTED_HTTP_HOSTS"])
def test_not_secret_names(name):
    assert not secret_name(name)


@pytest.mark.parametrize("key,value,text", [
    ("config:.env:DB_PASSWORD", "hunter2!x", 'DB_PASSWORD="hunter2!x"  # prod'),
    ("config:config/app.yaml:database.password", "pa55word", "  password: pa55word"),
    ("config:config/app.toml:api.token", "t0k3n-value", 'token = "t0k3n-value"'),
    ("config:app.json:auth.clientSecret", "abc123secret", '    "clientSecret": "abc123secret",'),
    ("constant:app/settings.py:SECRET_KEY", "django-insecure-abc123", 'SECRET_KEY = "django-insecure-abc123"'),
])
def test_named_secrets_redacted_keep_rest_of_line(key, value, text):
    f = redact_fact(fact(key, value, text, kind=CONSTANT if key.startswith("constant") else CONFIG,
                         purpose=f"the secret {value}"))
    assert f.value == tok(value)
    assert value not in everywhere([f])
    assert f.text == text.replace(value, tok(value))  # only the secret replaced
    assert f.key == key


def test_same_secret_same_token_rotated_secret_new_token():
    a = redact_fact(fact("config:.env:API_KEY", "first-key-123", "API_KEY=first-key-123"))
    b = redact_fact(fact("config:.env:API_KEY", "first-key-123", "API_KEY=first-key-123"))
    c = redact_fact(fact("config:.env:API_KEY", "second-key-456", "API_KEY=second-key-456"))
    assert a.value_id() == b.value_id() != c.value_id()


@pytest.mark.parametrize("key,value,text", [
    ("config:.env:TOKEN_TTL", "3600", "TOKEN_TTL=3600"),
    ("config:config/app.toml:server.port", "8080", "port = 8080"),
    ("config:.env:API_KEY", "changeme", "API_KEY=changeme"),
    ("config:.env:DB_PASSWORD", "${DB_PASSWORD}", "DB_PASSWORD=${DB_PASSWORD}"),
    ("config:.env:SECRET", "<your secret here>", "SECRET=<your secret here>"),
    ("config:.env:SECRET", "", "SECRET="),
    ("config:a.yaml:auth.enabled", "true", "  enabled: true"),
    ("config:a.yaml:auth", "false", "auth: false"),
    ("config:a.yaml:auth.url", "https://auth.example.com/login", "  url: https://auth.example.com/login"),
    ("config:a.yaml:jobs.build.steps.0.uses", "actions/checkout@8e5e7e5ab8b370d6c329ec480221332ada57f0ab",
     "      - uses: actions/checkout@8e5e7e5ab8b370d6c329ec480221332ada57f0ab"),
    ("constant:pkg/consts.py:MAX_TOKEN_LENGTH", "4096", "MAX_TOKEN_LENGTH = 4096"),
])
def test_non_secrets_untouched(key, value, text):
    f = fact(key, value, text, kind=CONSTANT if key.startswith("constant") else CONFIG)
    assert redact_fact(f) == f


def test_url_password_only():
    url = "postgres://app:s3cretPW@db.internal:5432/app"
    f = redact_fact(fact("config:.env:DATABASE_URL", url, f"DATABASE_URL={url}"))
    assert f.value == f"postgres://app:{tok('s3cretPW')}@db.internal:5432/app"
    assert f.text == f"DATABASE_URL={f.value}"


def test_dependency_facts_are_not_name_checked():
    # "authlib" contains "auth": a package name is not a setting name
    f = Fact(key="dependency:pypi:main:authlib", kind=DEPENDENCY, subject="authlib", value=">=1.2",
             path="requirements.txt", line=1, text="authlib>=1.2", purpose="authlib")
    assert redact_fact(f) == f


def test_attrs_redacted():
    url = "https://user:tok3nABC@git.example.com/x.git"
    f = redact_fact(Fact(key="dependency:pypi:main:x", kind=DEPENDENCY, subject="x", value=f"@ {url}",
                         path="requirements.txt", line=1, text=f"x @ {url}", purpose="x",
                         attrs=(("source", url),)))
    assert "tok3nABC" not in everywhere([f])


@pytest.mark.parametrize("text,secret", [
    ('connect(password="hunter22", user=bob)', "hunter22"),
    ("export GITHUB_TOKEN=abc123def456", "abc123def456"),
    (f"the key is {AWS} ok", AWS),
    ("redis://:p4ssw0rd@cache:6379/0", "p4ssw0rd"),
])
def test_redact_text(text, secret):
    out = redact_text(text)
    assert secret not in out and TOKEN.search(out)


@pytest.mark.parametrize("text", [
    "def login(self, password: str, token: Optional[str] = None):",
    "TOKEN_TTL = 3600", "port = 8080", "password = os.environ['DB_PASSWORD']",
    "see https://example.com/docs and git sha 8e5e7e5ab8b370d6c329ec480221332ada57f0ab",
])
def test_redact_text_leaves_code_and_prose(text):
    assert redact_text(text) == text


ENV = f"""\
DB_PASSWORD="hunter2!x"  # prod pw hunter2!x
TOKEN_TTL=3600
DATABASE_URL=postgres://app:s3cretPW@db.internal/app
AWS_ACCESS_KEY_ID={AWS}
PRIVATE_KEY="-----BEGIN RSA PRIVATE KEY-----
MIIEpAIBAAKCAQEA7
-----END RSA PRIVATE KEY-----"
"""
YAML = "database:\n  password: pa55word  # rotate pa55word monthly\n  port: 5432\n"
TOML = '[api]\ntoken = "t0k3n-value"\ntoken_ttl = 3600\n'
PY_SETTINGS = 'SECRET_KEY = "django-insecure-abc123"\nDEBUG = False\n'
# packages named like secrets: their pins are versions, not secrets (express pins pbkdf2-password)
PACKAGE_JSON = """{
  "name": "app",
  "dependencies": {"pbkdf2-password": "1.2.1", "secret-handshake": ">=1.0.0 <2", "jsonwebtoken": "^9.0.0"},
  "config": {"apiToken": "q8Zr2LxT4vNw9Kp3mY"}
}
"""


@pytest.mark.parametrize("path,text,secrets,kept", [
    (".env", ENV, ["hunter2!x", "s3cretPW", AWS, "MIIEpAIBAAKCAQEA7"], {"config:.env:TOKEN_TTL": "3600"}),
    ("config/app.yaml", YAML, ["pa55word"], {"config:config/app.yaml:database.port": "5432"}),
    ("config/app.toml", TOML, ["t0k3n-value"], {"config:config/app.toml:api.token_ttl": "3600"}),
    ("package.json", PACKAGE_JSON, ["q8Zr2LxT4vNw9Kp3mY"],
     {"dependency:npm:.:main:pbkdf2-password": "1.2.1",
      "dependency:npm:.:main:secret-handshake": ">=1.0.0 <2",
      "dependency:npm:.:main:jsonwebtoken": "^9.0.0"}),
])
def test_mine_file_never_returns_clear_secrets(path, text, secrets, kept):
    facts = mine_file(path, text.encode())
    dump = everywhere(facts)
    for s in secrets:
        assert s not in dump
    values = {f.key: f.value for f in facts}
    for k, v in kept.items():
        assert values[k] == v
    assert TOKEN.search(dump)


def test_mine_file_redacts_python_constants():
    try:
        facts = mine_file("app/settings.py", PY_SETTINGS.encode())
    except ImportError:  # the Python miner is written separately
        pytest.skip("python miner unavailable")
    assert "django-insecure-abc123" not in everywhere(facts)
    secret = [f for f in facts if f.key.endswith(":SECRET_KEY")]
    if secret:
        assert secret[0].value == tok("django-insecure-abc123")


def test_redaction_is_idempotent():
    f = redact_fact(fact("config:.env:DB_PASSWORD", "hunter2!x", 'DB_PASSWORD="hunter2!x"'))
    assert redact_fact(f) == f


WORKFLOW = """name: publish
on: push
permissions:
  id-token: write
  contents: read
jobs:
  publish:
    runs-on: ubuntu-latest
    steps:
      - run: twine upload dist/*
        env:
          TWINE_PASSWORD: ${{ secrets.PYPI_TOKEN }}
          GH_TOKEN: ${{ github.token }}
"""
SETTINGS_COMPUTED = '''import os

if "DJANGO_SECRET_KEY" in os.environ:
    SECRET_KEY = os.environ["DJANGO_SECRET_KEY"]
API_TOKEN = os.environ.get("API_TOKEN") or "tok-" + "Zq81xLw3Pr9Ks2Vn"
UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
'''
FORMS = '''from wtforms import PasswordField


class ResetForm:
    password2 = PasswordField("Repeat Password", default="Zq81xLw3Pr9Ks2Vn")
'''


@pytest.mark.parametrize("path, text, kept, secret", [
    # a permission and a reference to a GitHub secret say which, and are no secret
    (".github/workflows/publish.yml", WORKFLOW,
     {"config:.github/workflows/publish.yml:permissions.id-token": "write",
      "config:.github/workflows/publish.yml:jobs.publish.steps.0.env.TWINE_PASSWORD": "${{ secrets.PYPI_TOKEN }}",
      "config:.github/workflows/publish.yml:jobs.publish.steps.0.env.GH_TOKEN": "${{ github.token }}"}, None),
    # code that reads the secret from the environment says where it comes from; a literal in
    # it is redacted; an alphabet written out is no random key
    ("app/settings.py", SETTINGS_COMPUTED,
     {"constant:app/settings.py:SECRET_KEY": 'os.environ["DJANGO_SECRET_KEY"]',
      "constant:app/settings.py:UNRESERVED": "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"},
     "Zq81xLw3Pr9Ks2Vn"),
    # a secret-named field's label is prose; its default is the secret
    ("app/forms.py", FORMS, {}, "Zq81xLw3Pr9Ks2Vn"),
])
def test_what_names_or_reads_a_secret_is_no_secret(path, text, kept, secret):
    facts = mine_file(path, text.encode())
    values = {f.key: f.value for f in facts}
    for k, v in kept.items():
        assert values[k] == v
    if secret is not None:
        dump = everywhere(facts)
        assert secret not in dump and TOKEN.search(dump)
    if path == "app/forms.py":  # the field's value is its default, redacted; its label stays
        [field] = [f for f in facts if f.key == "config:app/forms.py:ResetForm.password2"]
        assert '"Repeat Password"' in field.text and field.value.startswith("<redacted:")


@pytest.mark.parametrize("path, code, secret", [
    ("src/auth/token.ts", "export const sign = (id) =>\n  jwt.sign({ id }, process.env.JWT_SECRET || '{s}');\n",
     "superSecret9"),
    ("src/auth/auth.ts", "const auth = {\n  secret: process.env['SESSION_SECRET'] ?? \"{s}\",\n};\n", "kT7pQ2wXz"),
    ("app/keys.py", "import os\n\n\ndef key():\n    return os.environ.get('SECRET_KEY') or '{s}'\n",
     "dev-key-123"),
    ("app/client.py",
     "import os\n\n\ndef client():\n    return Client(token=os.getenv(\"API_TOKEN\", default=\"{s}\"))\n",
     "abcd1234"),
])
def test_a_secret_named_environment_variables_default_is_redacted_in_code(path, code, secret):
    """The literal default of a secret-named environment variable, read in a function body (no
    ``NAME = value`` to show it), is a secret: in no fact of the file, the function's own text
    included (node-express-realworld's ``process.env.JWT_SECRET || 'superSecret'`` was in
    ``generateToken``'s text)."""
    facts = mine_file(path, code.replace("{s}", secret).encode())
    assert facts and all(secret not in str(f) for f in facts)


def test_a_plain_environment_variables_default_is_kept():
    facts = mine_file("app/config.py", b"import os\n\n\ndef paths():\n"
                                       b"    return os.getenv('SSL_CERT_FILE', '/etc/ssl/cert.pem'), "
                                       b"os.environ.get('LOG_LEVEL', 'warning')\n")
    assert "/etc/ssl/cert.pem" in str(facts) and "'warning'" in str(facts)


def test_a_key_beside_a_secret_read_is_no_secret():
    """bakerydemo's ``{"TOKEN": os.environ["FRONTEND_CACHE_CLOUDFLARE_TOKEN"]}``: the read of a
    secret-named variable is stated, and the dict key "TOKEN" beside it is a key, not a value."""
    src = (b"import os\n\n\ndef cache():\n    return {\n"
           b"        \"TOKEN\": os.environ[\"FRONTEND_CACHE_CLOUDFLARE_TOKEN\"],\n    }\n")
    read = next(f for f in mine_file("site/settings/production.py", src) if dict(f.attrs).get("read"))
    assert (read.value, read.text) == ("<required>", '"TOKEN": os.environ["FRONTEND_CACHE_CLOUDFLARE_TOKEN"],')


@pytest.mark.parametrize("text", [
    "Log in with password Tr0ub4dor3xyzzyQ.", "xpassword Tr0ub4dor3xyzzyQ", "PASSWORD is Tr0ub4dor3xyzzyQ",
    "the password is Tr0ub4dor3xyzzyQ. token ab12-CD34-ef56", "passwordpassword Ab12345678",
    "café: the API key is AbCd1234EfGh5678", "pa\u017fsword Tr0ub4dor3xyzzyQ",  # re.I folds ſ onto s
    "\u0130\u0130 Token Ab12cd34EFgh and secret Zq8#vL2pMx9!", "\u212aey api\u212aey Ab12cd34EFgh",
])
def test_prose_secret_found_as_the_case_blind_pattern_finds_it(text):
    """The search by lower-cased text finds each secret the pattern finds scanning case-blind."""
    from repomem.core import secrets

    expected = []
    for m in secrets._PROSE_SECRET.finditer(text):
        v = m.group("v").rstrip(".!?")
        if secrets._credential_word(v):
            expected.append((m.start("v"), m.start("v") + len(v)))
    assert secrets._prose_spans(text) == expected
    assert bool(expected) != text.startswith(("xpassword", "passwordpassword"))


def test_a_raw_string_beside_a_secret_name_keeps_its_file():
    """A Go raw string (or a JS template literal) after a secret-shaped name is quoted, not an
    unquoted value: redacting from its opening backtick broke the file's syntax and every fact
    of it was skipped.  A secret in backticks is still redacted, quotes kept."""
    go = (b'package middleware\n\nimport "testing"\n\nfunc TestBasicAuth(t *testing.T) {\n'
          b'\ttests := []struct{ expectedAuth string }{\n'
          b'\t\t{expectedAuth: `basic realm="Restricted"`},\n\t}\n\t_ = tests\n}\n')
    facts = mine_file("middleware/basic_auth_test.go", go)
    assert any(f.value == "TestBasicAuth" for f in facts), facts
    js = b"export const apiToken = `abcDEF123456ghiJKL789`;\n"
    (token,) = [f for f in mine_file("src/keys.js", js) if "apiToken" in f.key]
    assert "abcDEF123456ghiJKL789" not in everywhere([token])
    assert tok("abcDEF123456ghiJKL789") in token.value


def test_a_text_redacted_again_as_code_or_not_gets_its_own_redaction():
    """redact_blob keeps the last few texts' results (one file version mined at two paths):
    the same text as a config file and as Python source is redacted each its own way (in code
    an unquoted value is an expression, not a secret), however often and in whichever order."""
    from repomem.core.secrets import redact_blob

    text = "DB_PASSWORD = hX93kLmq2Vz7x\n"
    for _ in range(2):
        assert redact_blob(text, code=True) == text
        config = redact_blob(text)
        assert "hX93kLmq2Vz7x" not in config and config.startswith("DB_PASSWORD = <redacted:")
    many = [f"TOKEN_{i} = 'tok-{i:04d}-Zq8vLm3Xk9'\n" for i in range(40)]  # past the kept few
    assert all("Zq8vLm3Xk9" not in redact_blob(t) for t in many + many[:3])


# A type annotation between a secret's name and its "=": a typed parameter default or a typed
# class attribute, in each language that writes one.  Every fact of the file (a function's
# signature and source text, a setting's value) must come out without the secret.
@pytest.mark.parametrize("path,text", [
    ("src/client.ts", "export class Client {\n"
                      "  constructor(apiToken: string = 'tok_9f8a7b6c5d4e3f') {}\n}\n"),
    ("src/client.ts", "export function connect(authKey: string | null = 'k3y_9f8a7b6c5d') {\n"
                      "  return authKey;\n}\n"),
    ("app/settings.py", "class Settings:\n    password: str = 'hunter2hunter2'\n"),
    ("app/client.py", "def connect(api_token: Optional[str] = 'tok_9f8a7b6c5d4e3f'):\n"
                      "    return api_token\n"),
    ("app/consts.py", "API_KEY: Final[str] = 'k3y_9f8a7b6c5d4e3f'\n"),
])
def test_a_secret_behind_a_type_annotation_is_redacted_everywhere(path, text):
    secret = text.split("= '")[1].split("'")[0]
    facts = mine_file(path, text.encode())
    assert facts and secret not in everywhere(facts)
    assert secret not in redact_blob(text, code=True) and secret not in redact_text(text)


@pytest.mark.parametrize("text", [
    "def check(token: str, mode='production'):\n",  # another parameter's default
    "if token == 'abcdef12345':\n",  # a comparison, not an assignment
    "PASSWORD_PROMPT: str = 'Enter your password'\n",  # prose
])
def test_an_annotation_does_not_make_other_values_secrets(text):
    assert redact_blob(text, code=True) == text
