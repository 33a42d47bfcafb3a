"""A secret given as a literal inside a secret-named default's expression: a call's argument
(``def f(password=get("..."))``, ``constructor(secret = getSecret("..."))``) or a fallback
(``apiKey = process.env.KEY || "..."``, ``os.environ.get("X") or "..."``).  The redactor finds it
in the whole file before any miner reads it, so no fact holds it: not a function's signature or
text, not a parameter's or a setting's value, not an environment variable's default.  A
non-secret name's literal (``timeout=get("30")``) stays."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from repomem.core.secrets import redact_blob, redact_text
from repomem.miners import mine_file
from tests.conftest import cli, cli_proc, commit, git

TOKEN = "<redacted:"


@pytest.mark.parametrize("code, secret", [
    ('def login(password=get("hunter2-real-pass")):\n', "hunter2-real-pass"),
    ('def connect(token=os.getenv("SERVICE_VAR", "Zq81xLw3Pr9")):\n', "Zq81xLw3Pr9"),
    ('def fetch(api_key=os.environ.get("BASE") or "superSecret"):\n', "superSecret"),
    ('def make(*, secret=load(default="opensesame")):\n', "opensesame"),
    ('client = Client(auth_token=load_token("tok-9f8a7b6c"), retries=3)\n', "tok-9f8a7b6c"),
    ('secret = jwt.encode(payload, "mysecretkey123", algorithm="HS256")\n', "mysecretkey123"),
    ("function f(apiKey = process.env.KEY || 'abcXYZ123key') {}\n", "abcXYZ123key"),
    ('class A { constructor(secret = getSecret("s3cr3t-value-x")) {} }\n', "s3cr3t-value-x"),
    ("const g = (authToken = cfg.token ?? `tok123ABCdef`) => authToken;\n", "tok123ABCdef"),
    ('function f(apiKey: string = getKey("k3y-9f8a7b6c")) {}\n', "k3y-9f8a7b6c"),
    ("const auth = {\n  secret: process.env.SIGNING || 'plainword',\n};\n", "plainword"),
    ('def f(password=get(\n        "multi-line-pa55",\n)):\n', "multi-line-pa55"),
    # a passphrase is words too (express-session's example secret)
    ('const secret = process.env.SECRET || "keyboard cat";\n', "keyboard cat"),
    ("app.use(session({ secret: 'keyboard cat', resave: false }));\n", "keyboard cat"),
])
def test_a_literal_in_a_secret_named_default_is_redacted(code, secret):
    out = redact_blob(code, code=True)
    assert secret not in out and TOKEN in out
    assert out.count("\n") == code.count("\n")  # line numbers unchanged
    assert secret not in redact_text(code)  # a stored fact's text, redacted once more


@pytest.mark.parametrize("code", [
    'def connect(token=None, timeout=get("30"), region=get("eu-west-2")):\n',  # non-secret names
    'token = request.headers.get("X-Auth-Token")\n',  # a header's name
    'password = password.encode("latin1")\n',  # a codec
    'digest = new("sha256", password=secret)\n',
    'token = jwt.New(jwt.GetSigningMethod("HS256"))\n',  # a JWT algorithm
    'token = cfg["x9-key-name2"]\n',  # a key
    'auth = {"type": "basic2", "user": "bob"}\n',  # another key's value
    'secret_key = settings.get("SECRET_KEY", "dev")\n',  # an environment variable's name
    'password = getpass.getpass("Password: ")\n',  # a prompt
    'token = header.split("Bearer ")[1]\n',
    'token = re.compile(r"[A-Za-z0-9]+2")\n',  # a pattern
    'token = f"{prefix}-abc123"\n',  # a template filled in by the code
    'token = os.path.join(base, "keys/token2.txt")\n',  # a path
    'token = urlopen("https://auth.example.com/v2/token")\n',  # a URL
    'if token == "abc123xyz":\n',  # compared with
    "token => fetch('abc123XYZ')\n",  # an arrow function's parameter
    'const secret = process.env.SECRET || "Enter the session secret";\n',  # a prompt's words
    'password = os.environ.get("PW") or "Type the shared password:"\n',
    'token = Client(scope="read2", timeout=get("30"))\n',  # other keywords' values
])
def test_a_literal_that_is_no_secret_is_kept(code):
    assert redact_blob(code, code=True) == code


PY = '''import os

from pydantic import Field
from pydantic_settings import BaseSettings


class Settings(BaseSettings):
    api_token: str = Field(default=vault("{s1}"))
    region: str = Field(default="eu-west-2")


def connect(token=os.getenv("SERVICE_VAR", "{s2}"), timeout=get("30")):
    """Open a connection to the billing service."""
    return Client(token, timeout)


def login(password=get("{s3}"), user=get("deploy-bot")):
    """Log in as the deploy user."""
    return session(user, password.encode("latin1"))


def fetch(api_key=os.environ.get("BILLING_URL") or "{s4}"):
    """Fetch the invoices."""
    return Client(auth_token=load_token("{s5}")).get("/invoices", api_key)


DEFAULT_CLIENT = Client(auth_token=load_token("{s5}"), retries=get("5"))
'''
TS = '''export class Billing {
  constructor(secret = getSecret("{s6}"), region = getRegion("eu-west-2")) {}
}

export function charge(apiKey = process.env.BILLING_KEY || "{s7}", timeout = get("30")) {
  return post("/charge", apiKey, timeout);
}

export const refund = (authToken: string = cfg.token ?? "{s8}") => post("/refund", authToken);
'''


def _secrets(version: int) -> dict[str, str]:
    return {f"{{s{i}}}": f"Zq{i}x-v{version}-Kp83mTw{i}" for i in range(1, 9)}


def _files(version: int) -> dict[str, str]:
    def fill(text: str) -> str:
        for k, v in _secrets(version).items():
            text = text.replace(k, v)
        return text
    return {"app/billing.py": fill(PY), "src/billing.ts": fill(TS)}


NEEDLES = [*_secrets(1).values(), *_secrets(2).values()]
KEPT = ['get("30")', "eu-west-2", 'get("deploy-bot")']


def test_mine_file_states_no_secret_and_keeps_the_rest():
    for path, text in _files(1).items():
        facts = mine_file(path, text.encode())
        dump = json.dumps([f.to_dict() for f in facts])
        assert [n for n in NEEDLES if n in dump] == [], path
        assert 'get(\\"30\\")' in dump and "eu-west-2" in dump
    funcs = {f.value: f for f in mine_file("app/billing.py", _files(1)["app/billing.py"].encode())
             if f.kind == "function"}
    assert dict(funcs["connect"].attrs)["signature"].startswith(
        'def connect(token=os.getenv("SERVICE_VAR", "<redacted:')


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    root = tmp_path_factory.mktemp("defaults")
    repo, store = root / "repo", root / "store"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "2026-01-05T10:00:00+00:00", "billing client", _files(1))
    commit(repo, "2026-02-05T10:00:00+00:00", "rotate the dev credentials", _files(2))
    # a process of its own, as a user builds it: the store's bytes are the subject
    cli_proc("init", "--no-hooks", "--repo", repo, "--store", store)
    return repo, store


def _rows(store: Path) -> str:
    """Every document and metadata of every Chroma collection of the store, JSON's escapes
    (of a payload written as JSON in a metadata) taken out."""
    import chromadb
    from chromadb.config import Settings

    client = chromadb.PersistentClient(path=str(store), settings=Settings(anonymized_telemetry=False))
    out = []
    for c in client.list_collections():
        col = client.get_collection(c if isinstance(c, str) else c.name)
        got = col.get(include=["documents", "metadatas"])
        out += [json.dumps([d, m]) for d, m in zip(got["documents"] or [], got["metadatas"] or [])]
    return "\n".join(out).replace("\\", "")


def test_no_secret_in_any_stored_row_or_store_file(store):
    _repo, path = store
    rows = _rows(path)
    assert [n for n in NEEDLES if n in rows] == []
    assert all(k in rows for k in KEPT) and TOKEN in rows
    files = [f for f in path.rglob("*") if f.is_file()]
    assert any(f.name == "chroma.sqlite3" for f in files)
    assert [(f.name, n) for f in files for n in NEEDLES if n.encode() in f.read_bytes()] == []


def test_each_path_to_the_store_was_taken_and_redacted(store):
    """The facts the secrets reached: a function's signature, a parameter's default, a
    setting's value, a constant's expression, an environment variable's default."""
    repo, path = store
    facts = {f["key"]: f for f in json.loads(cli("facts", "--json", "--repo", repo, "--store", path)[1])["facts"]}
    by_subject = {f["subject"]: f for f in facts.values()}
    assert 'token=os.getenv("SERVICE_VAR", "<redacted:' in by_subject["function connect"]["attrs"]["signature"]
    assert 'timeout=get("30")' in by_subject["function connect"]["attrs"]["signature"]
    assert 'constructor(secret = getSecret("<redacted:' in by_subject["method Billing.constructor"]["text"]
    assert facts["config:app/billing.py:login.password"]["value"].startswith(TOKEN)
    assert facts["config:app/billing.py:login.user"]["value"] == 'get("deploy-bot")'
    assert facts["config:app/billing.py:Settings.api_token"]["value"].startswith(TOKEN)
    assert facts["config:app/billing.py:Settings.region"]["value"] == "eu-west-2"
    client = facts["constant:app/billing.py:DEFAULT_CLIENT"]["value"]
    assert client.startswith('Client(auth_token=load_token("<redacted:') and client.endswith('retries=get("5"))')
    [env] = [f for f in facts.values() if f["subject"].startswith("environment variable BILLING_KEY")]
    assert env["value"].startswith(TOKEN)


def test_no_secret_in_ask_or_context(store):
    repo, path = store
    common = ["--repo", repo, "--store", path]
    outs = [cli("facts", "--json", *common)[1]]
    for q in ("connect token default", "login password", "billing api key", "charge apiKey",
              "Billing constructor secret", "refund authToken", "settings api_token"):
        outs += [cli("ask", q, "--json", "-k", "20", *common)[1],
                 cli("ask", q, "--as-of", "2026-01-10", "--json", *common)[1],
                 cli("context", q, "--budget", "4000", *common)[1]]
    dump = "\n".join(outs)
    assert [n for n in NEEDLES if n in dump] == []
    assert TOKEN in dump and 'get(\\"30\\")' in dump and "eu-west-2" in dump


def test_a_hostile_nest_of_secret_named_calls_costs_bounded_work():
    """Each expression is read at most _EXPR_MAX characters: a megabyte of ``token=a(`` that
    never closes is read in linear time (unbounded, each of its 125,000 expressions would run to
    the end of the file), and holds no literal to redact."""
    import resource

    from repomem.core import secrets

    text = "token=a(" * 125_000
    before = resource.getrusage(resource.RUSAGE_SELF).ru_utime
    assert secrets.redact_blob(text, code=True) == text
    assert resource.getrusage(resource.RUSAGE_SELF).ru_utime - before < 20  # ~1 s measured
    assert len(secrets._expression_literals('f(x, "abcd1234")' + "x" * 1000, 0)) == 1
    assert secrets._expression_literals("f(" + "x" * secrets._EXPR_MAX + ', "abcd1234")', 0) == []
