"""Scoped dependency keys on a real git history: a project's manifests share keys, other projects
(examples/) and other groups (docs/) never supersede them, and the documented manifest precedence
decides which of two manifests of one project states the current value."""

from __future__ import annotations

from repomem.service.ingest import ingest
from repomem.service.query import facts, history
from repomem.service.repo import Repo
from tests.conftest import commit


def current(repo, as_of=None) -> dict:
    return {f["key"]: f for f in facts(Repo.open(repo), as_of=as_of, kind="dependency")["facts"]}


def setup_cfg(blinker: str | None) -> str:
    deps = ["click>=8.1"] + ([f"blinker{blinker}"] if blinker else [])
    return "[metadata]\nname = flaskish\n\n[options]\ninstall_requires =\n" + \
        "".join(f"    {d}\n" for d in deps)


ROOT_KEY = "dependency:pypi:.:main:blinker"
EXAMPLE_KEY = "dependency:pypi:examples/celery:main:blinker"
DOCS_KEY = "dependency:pypi:.:docs:blinker"


def test_scopes_and_precedence(new_repo):
    repo = new_repo()
    c1 = commit(repo, "2026-01-05T10:00:00+00:00", "manifests", {
        "setup.cfg": setup_cfg(">=1.6.2"),
        "requirements.txt": "blinker==1.6.0\nclick==8.1.3\n",
        "examples/celery/requirements.txt": "blinker==1.6.2\n",
        "docs/requirements.txt": "blinker==1.5\nsphinx==7.2\n",
    })
    ingest(Repo.open(repo), all_history=True, progress=False)
    now = current(repo)
    # setup.cfg outranks requirements.txt in the same project, though it sorts after it
    assert now[ROOT_KEY]["value"] == ">=1.6.2" and now[ROOT_KEY]["path"] == "setup.cfg"
    assert now[ROOT_KEY]["attrs"] == {"group": "main", "project": "."}
    assert now[EXAMPLE_KEY]["value"] == "==1.6.2"
    assert now[EXAMPLE_KEY]["attrs"]["project"] == "examples/celery"
    assert now[DOCS_KEY]["value"] == "==1.5"
    assert "dependency:pypi:.:docs:sphinx" in now

    # the example's pin moves: only the example's key gets a new version
    c2 = commit(repo, "2026-02-05T10:00:00+00:00", "example pin",
                {"examples/celery/requirements.txt": "blinker==1.7.0\n"})
    # the requirements.txt pin changes, but setup.cfg still states the key: no new version
    commit(repo, "2026-03-05T10:00:00+00:00", "reqs pin", {"requirements.txt": "blinker==1.8.0\n"})
    # setup.cfg drops blinker: the requirements.txt pin becomes the project's value
    c4 = commit(repo, "2026-04-05T10:00:00+00:00", "drop from setup.cfg",
                {"setup.cfg": setup_cfg(None)})
    ingest(Repo.open(repo), all_history=True, progress=False)
    now = current(repo)
    assert now[EXAMPLE_KEY]["value"] == "==1.7.0" and now[EXAMPLE_KEY]["commit"] == c2
    assert now[ROOT_KEY]["value"] == "==1.8.0" and now[ROOT_KEY]["path"] == "requirements.txt"
    assert now[ROOT_KEY]["commit"] == c4
    assert now[DOCS_KEY]["value"] == "==1.5"  # the docs pin never moved
    root = [(v["value"], v["commit"]) for v in history(Repo.open(repo), ROOT_KEY)["versions"]]
    assert root == [(">=1.6.2", c1), ("==1.8.0", c4)]
    assert current(repo, as_of="2026-03-10")[ROOT_KEY]["value"] == ">=1.6.2"


def test_package_json_projects_and_dev_group(new_repo):
    repo = new_repo()
    pkg = '{"dependencies": {"react": "^18.2.0"}, "devDependencies": {"vite": "^%s"}}'
    commit(repo, "2026-01-05T10:00:00+00:00", "frontend",
           {"frontend/package.json": pkg % "5.0.0", "package.json": '{"devDependencies": {"vite": "^4"}}'})
    commit(repo, "2026-01-06T10:00:00+00:00", "vite", {"frontend/package.json": pkg % "5.2.0"})
    ingest(Repo.open(repo), all_history=True, progress=False)
    now = current(repo)
    assert now["dependency:npm:frontend:dev:vite"]["value"] == "^5.2.0"
    assert now["dependency:npm:frontend:main:react"]["value"] == "^18.2.0"
    assert now["dependency:npm:.:dev:vite"]["value"] == "^4"


def test_the_python_requirement_is_one_history_across_manifests(new_repo):
    """click's minimum Python lived in setup.py, then setup.cfg, then pyproject.toml: three keys
    (python:requires:<file>), each history starting or ending at a move.  Keyed by project like
    a dependency, it is one history; the file ranked first gives the value while two state it,
    and an example project keeps its own."""
    from tests.conftest import indexed

    setup_py = "from setuptools import setup\nsetup(name='cli', python_requires='>=3.6')\n"
    setup_cfg_ = "[metadata]\nname = cli\n[options]\npython_requires = >=3.7\n"
    pyproject = '[project]\nname = "cli"\nrequires-python = ">=3.8"\n'
    example = '[project]\nname = "demo"\nrequires-python = ">=3.9"\n'
    r = indexed(new_repo(), ("2019-01-01T10:00:00Z", {"setup.py": setup_py}),
                ("2020-01-01T10:00:00Z", {"setup.cfg": setup_cfg_}),  # setup.py still states >=3.6
                ("2023-01-01T10:00:00Z", {"setup.py": None, "setup.cfg": None, "pyproject.toml": pyproject,
                                          "examples/demo/pyproject.toml": example}))
    got = history(r, "python:requires:.")["versions"]
    assert [(v["value"], v["path"], v["end_reason"]) for v in got] == [
        (">=3.6", "setup.py", "superseded"), (">=3.7", "setup.cfg", "superseded"),
        (">=3.8", "pyproject.toml", None)]
    assert history(r, "python:requires:examples/demo")["versions"][0]["value"] == ">=3.9"
