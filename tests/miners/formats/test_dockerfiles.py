"""The Dockerfile miner: base image per stage, EXPOSE as a set, ENV values, ARG defaults; and a
changed base image superseding the old one on a real git history."""

from __future__ import annotations

import pytest

from repomem.core.model import DOCKER
from repomem.miners import MineError, mine_file, wants
from repomem.miners.docker import MINER
from repomem.service.ingest import ingest
from repomem.service.query import facts, history
from repomem.service.repo import Repo
from tests.conftest import commit

DOCKERFILE = """\
# syntax=docker/dockerfile:1
ARG PYTHON_VERSION=3.12
ARG UNSET
FROM --platform=linux/amd64 python:${PYTHON_VERSION}-slim AS build
ENV PIP_NO_CACHE_DIR=1 \\
    APP_HOME="/srv/app"
RUN pip install -r requirements.txt

FROM nginx:1.25-alpine
ARG WORKERS=4
ENV PORT 8000
ENV PIP_NO_CACHE_DIR=0
EXPOSE 8000 443/tcp
EXPOSE 80 53/udp
CMD ["gunicorn"]
"""


def mine(text=DOCKERFILE, path="Dockerfile"):
    return {f.key: f for f in MINER.mine(path, text)}


def test_stages_ports_env_and_args():
    f = mine()
    build = f["docker:Dockerfile:from:build"]
    assert (build.kind, build.value, build.line) == (DOCKER, "python:3.12-slim", 4)
    assert build.text.startswith("FROM --platform=linux/amd64 python:${PYTHON_VERSION}-slim AS build")
    assert build.attrs == (("stage", "build"),)
    assert f["docker:Dockerfile:from:1"].value == "nginx:1.25-alpine"
    expose = f["docker:Dockerfile:expose"]
    assert expose.is_set and expose.value == "80, 443, 8000, 53/udp" and expose.line == 13
    assert f["docker:Dockerfile:env:APP_HOME"].value == "/srv/app"
    assert f["docker:Dockerfile:env:APP_HOME"].line == 5  # a continued instruction starts here
    assert f["docker:Dockerfile:env:PORT"].value == "8000"
    assert f["docker:Dockerfile:env:PIP_NO_CACHE_DIR"].value == "0"  # the final stage's value
    assert f["docker:Dockerfile:arg:PYTHON_VERSION"].value == "3.12"
    assert f["docker:Dockerfile:arg:WORKERS"].value == "4"
    assert "docker:Dockerfile:arg:UNSET" not in f
    assert (f["docker:Dockerfile:cmd"].value, f["docker:Dockerfile:cmd"].line) == ("gunicorn", 15)
    assert len(f) == 9


@pytest.mark.parametrize("path,ok", [
    ("Dockerfile", True), ("deploy/Dockerfile", True), ("Dockerfile.prod", True),
    ("web.Dockerfile", True), ("Containerfile", True), ("dockerfile.md", True),
    ("Dockerfile.md.txt", True), ("docker-compose.yml", False), ("Dockerfiles/readme.txt", False)])
def test_accepts(path, ok):
    assert MINER.accepts(path) is ok
    assert wants(path) or not ok


def test_empty_and_odd_files_do_not_fail():
    assert MINER.mine("Dockerfile", "") == []
    assert MINER.mine("Dockerfile", "# only a comment\n") == []
    assert list(mine("FROM\nEXPOSE\n")) == []


def test_secret_env_is_redacted():
    f = {x.key: x for x in mine_file("Dockerfile", b"FROM python:3.12\nENV SECRET_KEY=hunter2hunter2\n")}
    assert "hunter2" not in f["docker:Dockerfile:env:SECRET_KEY"].value


def test_not_utf8_is_a_mine_error():
    with pytest.raises(MineError):
        mine_file("Dockerfile", b"FROM python:3.12\nENV X=\xff\n")


def test_base_image_change_supersedes(new_repo):
    repo = new_repo()
    c1 = commit(repo, "2026-01-05T10:00:00+00:00", "docker",
                {"Dockerfile": "FROM python:3.11-slim\nEXPOSE 8000\n",
                 "worker/Dockerfile": "FROM python:3.11-slim\n"})
    c2 = commit(repo, "2026-02-05T10:00:00+00:00", "bump python",
                {"Dockerfile": "FROM python:3.12-slim\nEXPOSE 8000\nENV DEBUG=0\n"})
    r = Repo.open(repo)
    ingest(r, all_history=True, progress=False)
    now = {f["key"]: f for f in facts(r, kind="docker")["facts"]}
    assert now["docker:Dockerfile:from:0"]["value"] == "python:3.12-slim"
    assert now["docker:Dockerfile:from:0"]["commit"] == c2
    assert now["docker:worker/Dockerfile:from:0"]["value"] == "python:3.11-slim"  # its own key
    assert now["docker:Dockerfile:expose"]["commit"] == c1  # unchanged: no new version
    versions = history(r, "docker:Dockerfile:from:0")["versions"]
    assert [(v["value"], v["end_reason"]) for v in versions] == [
        ("python:3.11-slim", "superseded"), ("python:3.12-slim", None)]
    then = {f["key"]: f for f in facts(r, as_of="2026-01-20", kind="docker")["facts"]}
    assert then["docker:Dockerfile:from:0"]["value"] == "python:3.11-slim"
    assert "docker:Dockerfile:env:DEBUG" not in then


APP_DOCKERFILE = """FROM node:20 AS build
RUN npm ci && npm run build
CMD ["npm", "test"]

FROM node:20-slim
COPY --from=build /app/dist /app
ENTRYPOINT ["/app/docker-entrypoint.sh"]
CMD %s
"""


SEED_COMMAND_PY = '''class Command(BaseCommand):
    """Run the seed command: load the app's initial data."""

    def handle(self, **options):
        load_initial_data()
'''


def test_the_command_the_container_runs(new_repo):
    """"What command runs the app in the container?" (bakerydemo, node-express-realworld) found
    nothing: a Dockerfile's CMD and ENTRYPOINT were no facts.  The final stage's last ones are
    (an earlier stage's CMD is not the image's); an exec form reads as its command line, and a
    new command supersedes the old.  "The container" asks what a Dockerfile says, not for a
    management command (bakerydemo's `Command` classes)."""
    f = mine(APP_DOCKERFILE % '["node", "api", "--title", "my app"]')
    assert f["docker:Dockerfile:cmd"].value == "node api --title 'my app'"
    assert f["docker:Dockerfile:entrypoint"].value == "/app/docker-entrypoint.sh"
    assert f["docker:Dockerfile:cmd"].line == 8
    assert "docker:Dockerfile:cmd" not in mine("FROM node:20 AS build\nCMD npm test\nFROM node:20-slim\n")
    repo = new_repo()
    commit(repo, "2026-01-05T10:00:00+00:00", "docker", {"Dockerfile": APP_DOCKERFILE % '["node", "api"]',
                                                         "app/management/commands/seed.py": SEED_COMMAND_PY,
                                                         "package.json": '{"name": "api", "version": "1.0.0"}'})
    commit(repo, "2026-02-05T10:00:00+00:00", "cluster", {"Dockerfile": APP_DOCKERFILE % "pm2-runtime api.js"})
    r = Repo.open(repo)
    ingest(r, all_history=True, progress=False)
    assert [v["value"] for v in history(r, "docker:Dockerfile:cmd")["versions"]] == \
        ["node api", "pm2-runtime api.js"]
    from repomem.service.query import ask

    got = ask(r, "what command runs the app in the container?")["facts"]
    assert got[0]["key"] == "docker:Dockerfile:cmd" and got[0]["value"] == "pm2-runtime api.js", \
        [f["key"] for f in got]
