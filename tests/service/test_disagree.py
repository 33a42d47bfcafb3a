"""Sources that disagree (repomem/service/disagree.py): two current facts in different files
about one setting -- an environment variable, or the port the app is published on -- with
different values are both shown, each saying the other disagrees.  Real repositories, real
commits; the controls are a superseded value, the same name where nothing reads it as the
setting, a test fixture, another environment's dotenv file and another program's port."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import cli, cli_json, commit, git

SETTINGS = '''from pydantic_settings import BaseSettings


class Settings(BaseSettings):
    smtp_port: int = 587
    smtp_host: str = "localhost"
    debug: bool = False


class AppSettings(Settings):
    WORKERS: int = 4
'''
MAILER = '''SMTP_PORT = 25  # a module constant: nothing reads it from the environment


def send(msg):
    return msg
'''
FIXTURE = '''import os

SMTP_PORT = os.environ.get("SMTP_PORT", "2500")
'''
MAIN = '''import os

PORT = int(os.environ.get("PORT", 8080))
DB_PORT = 5432
'''
COMPOSE = '''services:
  web:
    build: .
    ports:
      - "80:8000"
    environment:
      SMTP_PORT: "${SMTP_PORT:-1025}"
      DEBUG: "${DEBUG}"
  db:
    image: postgres
    ports:
      - "5433:5432"
'''


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    repo = tmp_path_factory.mktemp("disagree") / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "2026-01-01T10:00:00+00:00", "settings and env", {
        "app/settings.py": SETTINGS, "app/mailer.py": MAILER, "app/main.py": MAIN,
        "tests/conftest.py": FIXTURE,
        ".env": "SMTP_PORT=2525\nSMTP_HOST=localhost\nWORKERS=8\n",
        ".env.test": "SMTP_PORT=1\n",
        "Dockerfile": "FROM python:3.12\nEXPOSE 8080\n", "docker-compose.yml": COMPOSE,
        "config.yaml": "smtp:\n  port: 465\n"})
    git(repo, "add", "-A")
    # the .env moves to 1025 (2525 is superseded: never a side); the image now exposes 8000
    commit(repo, "2026-02-01T10:00:00+00:00", "mailcatcher port, image port", {
        ".env": "SMTP_PORT=1025\nSMTP_HOST=localhost\nWORKERS=8\n",
        "Dockerfile": "FROM python:3.12\nEXPOSE 8000\n"})
    git(repo, "add", "-A")
    cli("init", "--repo", repo, "--no-hooks")
    return repo


def _fact(res: dict, key: str) -> dict:
    found = [f for f in res["facts"] if f["key"] == key]
    assert found, f"{key} not among {[f['key'] for f in res['facts']]}"
    return found[0]


def _sides(f: dict) -> dict[str, str]:
    return {d["key"]: d["value"] for d in f.get("disagrees_with", ())}


def test_env_file_against_the_settings_class(repo):
    res = cli_json("ask", "--repo", repo, "-k", "10", "what is the smtp port?")
    setting = _fact(res, "config:app/settings.py:Settings.smtp_port")
    # the .env's current value only; not the module constant nor the test fixture of the same
    # name, nor the .env.test's value... which is another environment, but still disagrees with
    # the class's default
    # compose passes the variable through with a default: the default is what it gives
    assert _sides(setting) == {"config:.env:SMTP_PORT": "1025", "config:.env.test:SMTP_PORT": "1",
                               "config:docker-compose.yml:services.web.environment.SMTP_PORT": "1025"}
    side = setting["disagrees_with"][0]
    assert side == {"setting": "SMTP_PORT", "says": "set", "value": "1025",
                    "key": "config:.env:SMTP_PORT", "subject": "SMTP_PORT in .env",
                    "path": ".env", "line": 1, "commit": side["commit"],
                    "valid_from": "2026-02-01T10:00:00+00:00"}
    assert side["commit"] == git(repo, "rev-parse", "HEAD")
    env = _fact(res, "config:.env:SMTP_PORT")
    # two dotenv files are two environments, not a conflict
    assert _sides(env) == {"config:app/settings.py:Settings.smtp_port": "587"}
    for f in res["facts"]:
        assert "2525" not in json.dumps(f.get("disagrees_with", [])), "a superseded value counted"
        if f["key"] in ("constant:app/mailer.py:SMTP_PORT", "config:config.yaml:smtp.port"):
            assert "disagrees_with" not in f, f


def test_agreeing_and_inherited_fields(repo):
    res = cli_json("ask", "--repo", repo, "-k", "10", "what is the smtp host?")
    assert "disagrees_with" not in _fact(res, "config:app/settings.py:Settings.smtp_host")
    # compose's "${DEBUG}" states no value of its own
    res = cli_json("ask", "--repo", repo, "-k", "10", "is debug on?")
    assert "disagrees_with" not in _fact(res, "config:app/settings.py:Settings.debug")
    res = cli_json("ask", "--repo", repo, "-k", "10", "how many workers?")
    # a class deriving from a settings class of the same file reads the environment too
    assert _sides(_fact(res, "config:app/settings.py:AppSettings.WORKERS")) == \
        {"config:.env:WORKERS": "8"}


def test_dockerfile_and_compose_against_the_app_port(repo):
    res = cli_json("ask", "--repo", repo, "-k", "10", "which port does the app listen on?")
    port = _fact(res, "constant:app/main.py:PORT")
    # the image exposes 8000 now (it exposed 8080, the app's port, before: superseded), and the
    # service built from the repository publishes container port 8000; the postgres service's
    # 5432 is another program's, and DB_PORT is not the app's port
    assert _sides(port) == {"docker:Dockerfile:expose": "8000",
                            "config:docker-compose.yml:services.web.ports": "80:8000"}
    assert {d["says"] for d in port["disagrees_with"]} == {"exposes", "publishes"}
    res = cli_json("ask", "--repo", repo, "-k", "10", "which ports does the docker image expose?")
    assert _sides(_fact(res, "docker:Dockerfile:expose")) == {"constant:app/main.py:PORT": "8080"}
    for f in res["facts"]:
        if f["key"] in ("constant:app/main.py:DB_PORT", "config:docker-compose.yml:services.db.ports"):
            assert "disagrees_with" not in f, f


def test_as_of_a_past_day(repo):
    """Only facts valid at the asked time are sides: on 2026-01-15 the image exposed the app's
    8080 (the compose service published 8000 already) and the .env said 2525."""
    res = cli_json("ask", "--repo", repo, "-k", "10", "--as-of", "2026-01-15",
                   "which port does the app listen on?")
    assert _sides(_fact(res, "constant:app/main.py:PORT")) == \
        {"config:docker-compose.yml:services.web.ports": "80:8000"}
    res = cli_json("ask", "--repo", repo, "-k", "10", "--as-of", "2026-01-15", "what is the smtp port?")
    assert _sides(_fact(res, "config:app/settings.py:Settings.smtp_port"))["config:.env:SMTP_PORT"] == "2525"


def test_plain_ask_context_and_the_hook_say_so(repo):
    out = cli("ask", "--repo", repo, "-k", "10", "what is the smtp port?")[1]
    assert "   disagrees: `.env`:1 sets `SMTP_PORT` to `1025` (commit " in out, out
    assert "disagrees: `app/settings.py`:5 defaults `SMTP_PORT` to `587`" in out
    out = cli("context", "--repo", repo, "--budget", "1000", "change the port the app listens on")[1]
    assert "  disagrees: `Dockerfile`:2 exposes port `8000` (commit " in out, out
    out = cli("context", "--repo", repo, "--budget", "1000", "which ports does the docker image expose?")[1]
    assert "  disagrees: `app/main.py`:3 says the app's port is `8080`" in out, out
    ev = json.dumps({"prompt": "what is the smtp port?", "cwd": str(repo),
                     "hook_event_name": "UserPromptSubmit"})
    got = subprocess.run([sys.executable, "-m", "repomem", "hook", "claude-code"], input=ev,
                         capture_output=True, text=True, timeout=60)
    block = json.loads(got.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "disagrees: `app/settings.py`:5 defaults `SMTP_PORT` to `587`" in block, block


def test_the_hook_path_imports_no_chromadb(repo):
    code = ("import sys, json; from repomem.service.repo import Repo; "
            "from repomem.service.agents import prompt_context; "
            f"out = prompt_context(Repo.open({str(repo)!r}), 'what is the smtp port?', "
            "snapshot_only=True); "
            "print(json.dumps(['disagrees:' in out, 'chromadb' in sys.modules]))")
    got = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert json.loads(got.stdout) == [True, False], got.stderr
