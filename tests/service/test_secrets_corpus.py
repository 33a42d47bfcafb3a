"""A secrets corpus through the whole pipeline: one sample per rule family, in every file format,
under neutral and telling names, in docstrings and function bodies.  After a real ingest, no
secret may appear in any file of the store (Chroma's database, the snapshot, the fold state) nor
in the output of any command (issue 9, case 4)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import cli, cli_proc, commit

PEM_BODY = "MIIEowIBAAKCAQEAx9QmT4vLp8KwR2sYb7NcH5dJf3GaE6uVq1Zz"
PEM = f"-----BEGIN RSA PRIVATE KEY-----\n{PEM_BODY}\n-----END RSA PRIVATE KEY-----"

# family -> (telling name, secret, substrings that must never appear)
FAMILIES = {
    "slack_webhook": ("SLACK_WEBHOOK_URL",
                      "https://hooks.slack.com/services/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",
                      ["Zx9QmT4vLp8KwR2sYb7NcH5d"]),
    "slack_token": ("SLACK_TOKEN", "xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUvWx",
                    ["AbCdEfGhIjKlMnOpQrStUvWx"]),
    "gitlab": ("GITLAB_TOKEN", "glpat-Ab3dEf6hIj9kLm2nOp5q", ["Ab3dEf6hIj9kLm2nOp5q"]),
    "github": ("GITHUB_TOKEN", "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", ["a1B2c3D4e5F6g7H8i9J0"]),
    "aws_key_id": ("AWS_ACCESS_KEY_ID", "AKIAZ7Q2M4X9C1V8B3N6", ["AKIAZ7Q2M4X9C1V8B3N6"]),
    "aws_secret": ("AWS_SECRET_ACCESS_KEY", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                   ["wJalrXUtnFEMI", "bPxRfiCYEXAMPLEKEY"]),
    "hex32": ("API_TOKEN", "3f9a1c7e5b2d4f608a1b9c3d7e5f1a2b", ["3f9a1c7e5b2d4f608a1b9c3d7e5f1a2b"]),
    "mailgun": ("MAILGUN_API_KEY", "key-3ax6xnjp29jd6fds4gc373sgvjxteol0",
                ["3ax6xnjp29jd6fds4gc373sgvjxteol0"]),
    "stripe_short": ("STRIPE_KEY", "sk_live_4eC39HqLyj", ["4eC39HqLyj"]),
    "discord": ("DISCORD_BOT_TOKEN",
                "MTA4NjQ0ODk5NzIzNTk4NjU2OA.GxYz12.AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ab",
                ["AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ab", "MTA4NjQ0ODk5NzIzNTk4NjU2OA"]),
    "openai": ("OPENAI_API_KEY", "sk-proj4aB7cD9eF1gH3iJ5kL7mN9", ["proj4aB7cD9eF1gH3iJ5kL7mN9"]),
    "jwt": ("SESSION_JWT", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_X",
            ["dozjgNryP4J3jVmNHl0w5N_X"]),
    "google": ("MAPS_KEY", "AIzaSyD31CT9P9KxvNUJOwDq2kcFEIG8ADgaFgw", ["D31CT9P9KxvNUJOwDq2kcF"]),
    "url_password": ("DATABASE_URL", "postgres://app:p@ss/w0rd!x@db.internal:5432/app",
                     ["p@ss/w0rd!x", "w0rd!x"]),
    "query_password": ("CALLBACK", "https://api.example.com/v1?user=bob&password=Qz7hunter42",
                       ["Qz7hunter42"]),
}
# shaped like nothing: only a telling name gives it away
NAMED = ("DB_PASSWORD", "Tr0ub4dor&3x", ["Tr0ub4dor&3x"])
ROTATED = {"slack_webhook": "https://hooks.slack.com/services/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",
           "gitlab": "glpat-Rotated6hIj9kLm2nOp5q"}


def _samples(fam: dict[str, str]) -> dict[str, str]:
    """Every family in every format, under its telling name and a neutral one."""
    items = [(k.lower(), n, s) for k, (n, s, _) in fam.items()]
    env = "".join(f"{n}={s}\nNEUTRAL_{k.upper()}={s}\n" for k, n, s in items)
    env += f"{NAMED[0]}={NAMED[1]}\nSIGNING_KEY=\"{PEM}\"\nPORT=8080\n"
    yml = "secrets:\n" + "".join(f"  {n.lower()}: '{s}'\n  neutral_{k}: '{s}'\n" for k, n, s in items)
    yml += f"  password: {NAMED[1]}\n  pem: |\n" + "".join(f"    {ln}\n" for ln in PEM.splitlines())
    yml += "server:\n  port: 8080\n"
    js = {"settings": {**{n.lower(): s for k, n, s in items}, **{f"neutral_{k}": s for k, n, s in items},
                       "password": NAMED[1], "pem": PEM, "port": 8080}}
    toml = "[secrets]\n" + "".join(f'{n.lower()} = "{s}"\nneutral_{k} = "{s}"\n' for k, n, s in items)
    toml += f'password = "{NAMED[1]}"\n[server]\nport = 8080\n'
    ini = "[secrets]\n" + "".join(f"{n.lower()} = {s}\nneutral_{k} = {s}\n" for k, n, s in items)
    ini += f"password = {NAMED[1]}\n[server]\nport = 8080\n"
    py = "".join(f'{n} = "{s}"\nNEUTRAL_{k.upper()} = "{s}"\n' for k, n, s in items)
    py += f'{NAMED[0]} = "{NAMED[1]}"\nSIGNING_KEY = """{PEM}"""\nPORT = 8080\n\n\n'
    for k, _n, s in items:
        py += (f"def notify_{k}(message):\n    \"\"\"Posts with {s} as credential.\"\"\"\n"
               f"    client = Client(\"{s}\", timeout=3)\n    return client.send(message)\n\n\n")
    py += ("def connect_db():\n    \"\"\"Connect with password: Tr0ub4dor&3x.\"\"\"\n"
           "    return connect(host=\"db\", password=\"Tr0ub4dor&3x\")\n")
    return {".env": env, "config/app.yaml": yml, "config/app.json": json.dumps(js, indent=2),
            "config/app.toml": toml, "setup.cfg": ini, "app/settings.py": py}


def _needles(fam) -> list[str]:
    out = [x for _, _, subs in fam.values() for x in subs] + NAMED[2] + [PEM_BODY]
    return out + [s.split("/")[-1] for s in ROTATED.values()] + ["Rotated6hIj9kLm2nOp5q"]


def _grep_store(store: Path, needles: list[str]) -> list[str]:
    """``grep -a -r``, in Python: every file of the store, read as bytes."""
    hits = []
    for f in store.rglob("*"):
        if f.is_file():
            data = f.read_bytes()
            hits += [f"{f.name}: {n}" for n in needles if n.encode() in data]
    return hits


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    import os

    root = tmp_path_factory.mktemp("corpus")
    repo, store = root / "repo", root / "store"
    repo.mkdir()
    os.environ.setdefault("GIT_CONFIG_NOSYSTEM", "1")
    from tests.conftest import git

    git(repo, "init", "-q", "-b", "main")
    commit(repo, "2026-01-05T10:00:00+00:00", "secrets", _samples(FAMILIES))
    rotated = {k: (v[0], ROTATED.get(k, v[1]), v[2]) for k, v in FAMILIES.items()}
    commit(repo, "2026-02-05T10:00:00+00:00", "rotate", _samples(rotated))
    # Built by a process of its own, as a user builds it: the store's bytes are the subject, and
    # chroma's HNSW files carry leftovers of the writing process's heap in their unused slots.
    cli_proc("init", "--no-hooks", "--repo", repo, "--store", store)
    return repo, store


def test_no_secret_in_any_store_file(corpus):
    repo, store = corpus
    assert _grep_store(store, _needles(FAMILIES)) == []
    assert any(store.rglob("chroma.sqlite3")) and (store / "records.sqlite3").exists()


def _run(*args) -> str:
    """The command line in this process (a subprocess per command would take minutes here)."""
    import contextlib
    import io

    from repomem.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        main([str(a) for a in args])
    return out.getvalue()


def test_no_secret_in_any_command_output(corpus):
    repo, store = corpus
    common = ["--repo", repo, "--store", store]
    outs = [cli_proc("facts", *common)[1],  # one real subprocess: the console entry point
            _run("facts", "--json", *common),
            _run("changes", "--since", "2026-01-01", "--json", *common),
            _run("check", "--json", *common)]
    for q in ("slack webhook url", "gitlab token", "database url password", "signing key",
              "aws secret access key", "notify discord"):
        outs += [_run("ask", q, "--json", "-k", "20", *common),
                 _run("ask", q, "--as-of", "2026-01-10", "--json", *common),
                 _run("context", q, "--budget", "4000", *common)]
    facts = json.loads(outs[1])
    keys = [f["key"] for f in (facts["facts"] if isinstance(facts, dict) else facts)]
    assert len(keys) > 100
    for key in keys:
        outs.append(_run("history", key, "--json", *common))
    dump = "\n".join(outs)
    leaks = [n for n in _needles(FAMILIES) if n in dump]
    assert leaks == []
    assert "<redacted:" in dump and "8080" in dump  # redacted, and ordinary settings kept


def test_rotation_still_supersedes(corpus):
    repo, store = corpus
    hist = json.loads(cli("history", "config:.env:SLACK_WEBHOOK_URL", "--json",
                          "--repo", repo, "--store", store)[1])
    versions = hist["versions"] if isinstance(hist, dict) else hist
    values = [v["value"] for v in versions]
    assert len(values) == 2 and values[0] != values[1]
    assert all(v.startswith("<redacted:") for v in values)


def test_no_secret_in_mcp_tool_output(corpus):
    pytest.importorskip("mcp.server.mcpserver")
    import sys

    import anyio
    from mcp import ClientSession, StdioServerParameters, stdio_client

    from tests.conftest import ROOT

    repo, store = corpus
    params = StdioServerParameters(command=sys.executable, cwd=str(ROOT), args=[
        "-m", "repomem", "mcp", "--repo", str(repo), "--store", str(store)])

    async def main():
        with anyio.fail_after(60):
            async with stdio_client(params) as (read, write):
                async with ClientSession(read, write) as s:
                    await s.initialize()
                    calls = [("list_facts", {}), ("changes_since", {"since": "2026-01-01"}),
                             ("key_history", {"key": "config:.env:SLACK_WEBHOOK_URL"}),
                             ("ask", {"question": "slack webhook url", "k": 20}),
                             ("context", {"question": "database password", "budget": 4000})]
                    return [await s.call_tool(name, args) for name, args in calls]

    results = anyio.run(main)
    dump = "\n".join(c.text for res in results for c in res.content if hasattr(c, "text"))
    assert [n for n in _needles(FAMILIES) if n in dump] == []
    assert "<redacted:" in dump and "8080" in dump
