"""The dependency miner: every source, group, normalisation, required Python, classifiers."""

from __future__ import annotations

import pytest

from repomem.core.model import DEPENDENCY, PYTHON, set_value
from repomem.miners import MineError, mine_file
from repomem.miners.deps import MINER


def by_key(path: str, text: str) -> dict:
    facts = MINER.mine(path, text)
    keys = [f.key for f in facts]
    assert len(keys) == len(set(keys))
    return {f.key: f for f in facts}


PEP621 = """\
[project]
name = "demo"
requires-python = ">= 3.10"
classifiers = [
    "Programming Language :: Python :: 3",
    "Programming Language :: Python :: 3.12",
    "Programming Language :: Python :: 3.10",
    "Programming Language :: Python :: 3.11",
]
dependencies = [
    "Requests_OAuthlib>=1.3,<2",
    "uvicorn[standard]>=0.20",
    "tomli>=2; python_version < '3.11'",
    "click",
    "not a valid requirement!!",
]

[project.optional-dependencies]
test = ["pytest>=8"]
docs = ["sphinx==7.*"]
"""


def test_pep621():
    facts = by_key("pyproject.toml", PEP621)
    oauth = facts["dependency:pypi:.:main:requests-oauthlib"]
    assert oauth.kind == DEPENDENCY
    assert oauth.value == "<2,>=1.3"
    assert oauth.subject == "Requests_OAuthlib dependency (pypi, main)"
    assert oauth.purpose == "Requests_OAuthlib package dependency version requirement pin (main, pypi)"
    assert (oauth.line, oauth.text) == (11, '    "Requests_OAuthlib>=1.3,<2",')
    assert oauth.attrs == (("group", "main"), ("project", "."))
    assert dict(facts["dependency:pypi:.:main:uvicorn"].attrs)["extras"] == "standard"
    assert dict(facts["dependency:pypi:.:main:tomli"].attrs)["markers"] == 'python_version < "3.11"'
    assert facts["dependency:pypi:.:main:click"].value == "*"
    assert facts["dependency:pypi:.:test:pytest"].value == ">=8"
    assert facts["dependency:pypi:.:test:pytest"].line == 19
    assert facts["dependency:pypi:.:docs:sphinx"].value == "==7.*"
    # the invalid line is skipped; everything else is still there
    assert sum(k.startswith("dependency:") for k in facts) == 6


def test_pep621_requires_python_and_classifiers():
    facts = by_key("pyproject.toml", PEP621)
    rp = facts["python:requires:."]
    assert (rp.kind, rp.value, rp.line) == (PYTHON, ">=3.10", 3)
    assert rp.subject == "required Python version (pyproject.toml)"
    cl = facts["python:classifiers:."]
    assert cl.kind == PYTHON and cl.is_set
    assert cl.value == "3.10, 3.11, 3.12"  # only X.Y entries, sorted numerically
    assert cl.subject == "supported Python versions (pyproject.toml)"
    assert cl.line == 6


def test_classifiers_order_insensitive():
    reordered = PEP621.replace('    "Programming Language :: Python :: 3.12",\n', "").replace(
        '    "Programming Language :: Python :: 3.11",\n',
        '    "Programming Language :: Python :: 3.11",\n    "Programming Language :: Python :: 3.12",\n')
    a = by_key("pyproject.toml", PEP621)["python:classifiers:."]
    b = by_key("pyproject.toml", reordered)["python:classifiers:."]
    assert a.value_id() == b.value_id()


POETRY = """\
[tool.poetry]
name = "demo"

[tool.poetry.dependencies]
python = "^3.9"
Requests_OAuthlib = "^2.0"
numpy = { version = "~1.26", extras = ["blas"] }
mylib = { git = "https://github.com/example/mylib.git" }

[tool.poetry.dev-dependencies]
black = "^24.1"

[tool.poetry.group.test.dependencies]
pytest = "^8.0"
"""


def test_poetry():
    facts = by_key("pyproject.toml", POETRY)
    caret = facts["dependency:pypi:.:main:requests-oauthlib"]
    assert caret.value == "^2.0"  # kept as written
    assert (caret.line, caret.text) == (6, 'Requests_OAuthlib = "^2.0"')
    numpy = facts["dependency:pypi:.:main:numpy"]
    assert (numpy.value, dict(numpy.attrs)["extras"]) == ("~1.26", "blas")
    assert facts["dependency:pypi:.:main:mylib"].value.startswith("git https://github.com/")
    assert facts["dependency:pypi:.:dev:black"].value == "^24.1"
    assert facts["dependency:pypi:.:test:pytest"].value == "^8.0"
    assert facts["dependency:pypi:.:test:pytest"].line == 14
    rp = facts["python:requires:."]
    assert (rp.value, rp.line) == ("^3.9", 5)
    assert "dependency:pypi:.:main:python" not in facts


REQUIREMENTS = """\
# pinned for production
-r base.txt
-c constraints.txt
-e ./plugins/auth
--index-url https://pypi.example/simple

Django>=4.2,<5  # web
gunicorn \\
    ==21.2.0 \\
    --hash=sha256:0123456789abcdef
Requests_OAuthlib
numpy>=1.24; python_version >= "3.9"
this is !! not a requirement
"""


@pytest.mark.parametrize("path,project,group", [
    ("requirements.txt", ".", "main"), ("requirements-dev.txt", ".", "dev"),
    ("requirements_test.txt", ".", "test"), ("requirements-tests.txt", ".", "test"),
    ("requirements/test.txt", ".", "test"), ("requirements/tests.txt", ".", "test"),
    ("requirements/base.txt", ".", "main"), ("requirements/production.txt", ".", "production"),
    ("requirements/development.txt", ".", "dev"), ("requirements/requirements.txt", ".", "main"),
    ("dev-requirements.txt", ".", "dev"), ("backend/requirements.txt", "backend", "main"),
    ("docs/requirements.txt", ".", "docs"), ("doc/requirements.txt", ".", "docs"),
    ("docs/requirements-dev.txt", ".", "dev"), ("ci/requirements.txt", ".", "ci"),
    ("tests/requirements.txt", ".", "test"), ("backend/requirements/dev.txt", "backend", "dev"),
    ("examples/celery/requirements.txt", "examples/celery", "main"),
    ("examples/celery/docs/requirements.txt", "examples/celery", "docs")])
def test_requirements_scope(path, project, group):
    facts = by_key(path, REQUIREMENTS)
    assert set(facts) == {f"dependency:pypi:{project}:{group}:{n}"
                          for n in ("django", "gunicorn", "requests-oauthlib", "numpy")}
    assert {dict(f.attrs)["project"] for f in facts.values()} == {project}
    assert {dict(f.attrs)["group"] for f in facts.values()} == {group}
    assert all(f.subject.endswith(f"(pypi, {group})") for f in facts.values())


@pytest.mark.parametrize("path,project", [
    ("pyproject.toml", "."), ("examples/celery/pyproject.toml", "examples/celery"),
    ("docs/pyproject.toml", "docs"), ("requirements/setup.py", "requirements")])
def test_manifests_belong_to_their_own_directory(path, project):
    text = SETUP_PY if path.endswith("setup.py") else PEP621
    keys = set(by_key(path, text))
    assert f"dependency:pypi:{project}:main:click" in keys


def test_extras_and_dependency_groups_by_name():
    facts = by_key("pyproject.toml", """\
[project]
name = "demo"
dependencies = ["httpx>=0.27"]

[project.optional-dependencies]
Socks_Proxy = ["socksio==1.*"]

[dependency-groups]
tests = ["pytest>=8", {include-group = "lint"}]
lint = ["ruff==0.6.0"]

[tool.uv]
dev-dependencies = ["mypy>=1.10"]

[tool.pdm.dev-dependencies]
typing = ["pyright"]

[tool.poetry.group.Docs.dependencies]
sphinx = "^7"
""")
    assert facts["dependency:pypi:.:socks-proxy:socksio"].value == "==1.*"
    assert facts["dependency:pypi:.:tests:pytest"].line == 9
    assert facts["dependency:pypi:.:lint:ruff"].value == "==0.6.0"
    assert facts["dependency:pypi:.:dev:mypy"].line == 13
    assert facts["dependency:pypi:.:typing:pyright"].value == "*"
    assert facts["dependency:pypi:.:docs:sphinx"].value == "^7"
    assert sum(k.startswith("dependency:") for k in facts) == 7


def test_requirements_values_lines_and_continuations():
    facts = by_key("requirements.txt", REQUIREMENTS)
    django = facts["dependency:pypi:.:main:django"]
    assert (django.value, django.line, django.text) == ("<5,>=4.2", 7, "Django>=4.2,<5  # web")
    gunicorn = facts["dependency:pypi:.:main:gunicorn"]
    assert (gunicorn.value, gunicorn.line) == ("==21.2.0", 8)
    assert facts["dependency:pypi:.:main:requests-oauthlib"].value == "*"
    assert dict(facts["dependency:pypi:.:main:numpy"].attrs)["markers"] == 'python_version >= "3.9"'


SETUP_CFG = """\
[metadata]
name = demo
classifiers =
    Programming Language :: Python :: 3.9
    Programming Language :: Python :: 3.10

[options]
python_requires = >=3.9
install_requires =
    attrs>=22
    # a comment
    tomli; python_version < "3.11"

[options.extras_require]
yaml =
    PyYAML>=6
"""


def test_setup_cfg():
    facts = by_key("setup.cfg", SETUP_CFG)
    assert facts["dependency:pypi:.:main:attrs"].value == ">=22"
    assert facts["dependency:pypi:.:main:attrs"].line == 10
    assert dict(facts["dependency:pypi:.:main:tomli"].attrs)["markers"] == 'python_version < "3.11"'
    assert facts["dependency:pypi:.:yaml:pyyaml"].value == ">=6"
    assert facts["dependency:pypi:.:yaml:pyyaml"].line == 16
    assert facts["python:requires:."].value == ">=3.9"
    assert facts["python:classifiers:."].value == set_value(["3.10", "3.9"]) == "3.9, 3.10"


SETUP_PY = """\
from setuptools import setup

REQUIRES = ["click>=8", "rich"]

setup(
    name="demo",
    install_requires=REQUIRES,
    extras_require={
        "dev": ["pytest>=7", "Black"],
    },
    python_requires=">=3.8",
    classifiers=[
        "Programming Language :: Python :: 3.8",
        "Programming Language :: Python :: 3.12",
    ],
    version=compute_version(),
)
"""


def test_setup_py():
    facts = by_key("setup.py", SETUP_PY)
    assert facts["dependency:pypi:.:main:click"].value == ">=8"
    assert facts["dependency:pypi:.:main:click"].line == 3
    assert facts["dependency:pypi:.:main:rich"].value == "*"
    assert facts["dependency:pypi:.:dev:black"].line == 9
    rp = facts["python:requires:."]
    assert (rp.value, rp.line, rp.text) == (">=3.8", 11, '    python_requires=">=3.8",')
    assert facts["python:classifiers:."].value == "3.8, 3.12"


PACKAGE_JSON = """\
{
  "name": "web",
  "engines": { "node": ">=18.0.0" },
  "dependencies": {
    "React": "^18.2.0",
    "@types/Node": "20.x"
  },
  "devDependencies": { "jest": "~29.7.0" },
  "peerDependencies": { "react-dom": ">=17" },
  "optionalDependencies": { "fsevents": "*" }
}
"""


def test_package_json():
    facts = by_key("web/package.json", PACKAGE_JSON)
    react = facts["dependency:npm:web:main:react"]
    assert (react.value, react.line, react.subject) == ("^18.2.0", 5, "React dependency (npm, main)")
    assert facts["dependency:npm:web:main:@types/node"].value == "20.x"
    assert facts["dependency:npm:web:dev:jest"].value == "~29.7.0"
    assert facts["dependency:npm:web:peer:react-dom"].value == ">=17"
    assert facts["dependency:npm:web:optional:fsevents"].value == "*"
    node = facts["dependency:npm:web:engines:node"]
    assert (node.value, node.line, node.kind) == (">=18.0.0", 3, DEPENDENCY)


@pytest.mark.parametrize("path,text", [
    ("pyproject.toml", "[project\n"), ("setup.py", "setup(\n"), ("package.json", "{"),
    ("setup.cfg", "install_requires = x\n")])
def test_broken_files_raise_mine_error(path, text):
    with pytest.raises(MineError) as e:
        MINER.mine(path, text)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("path,accepted", [
    ("pyproject.toml", True), ("sub/setup.py", True), ("setup.cfg", True), ("package.json", True),
    ("requirements.txt", True), ("requirements-dev.txt", True), ("requirements/prod.txt", True),
    ("node_modules/x/package.json", False), ("notes.txt", False), ("tsconfig.json", False)])
def test_accepts(path, accepted):
    assert MINER.accepts(path) is accepted


def test_same_package_twice_in_one_group_is_one_fact():
    facts = by_key("requirements.txt", 'numpy<2; python_version<"3.9"\nnumpy>=2; python_version>="3.9"\n')
    f = facts["dependency:pypi:.:main:numpy"]
    assert f.value == "<2 || >=2" and f.line == 1


def test_mine_file_concatenates_config_and_deps():
    facts = mine_file("pyproject.toml", (PEP621 + "[tool.ruff]\nline-length = 100\n").encode())
    keys = {f.key for f in facts}
    assert "dependency:pypi:.:main:requests-oauthlib" in keys
    assert "config:pyproject.toml:tool.ruff.line-length" in keys
    assert "config:pyproject.toml:project.dependencies" not in keys


@pytest.mark.parametrize("first", ["-e .[standard]", "-e .", ".", "--editable .", "-e file:.#egg=app"])
def test_a_requirements_file_that_installs_its_project_pins_the_dev_environment(first):
    # uvicorn's and httpx's requirements.txt: the project itself, then a tested set of tools
    # and dependencies -- not what the project requires of its users (its pyproject says that)
    got = by_key("requirements.txt", f"{first}\n\n# Core dependencies\nh11==0.16.0\n")
    assert set(got) == {"dependency:pypi:.:dev:h11"}
    assert got["dependency:pypi:.:dev:h11"].value == "==0.16.0"


def test_a_requirements_file_of_the_project_itself_stays_main():
    # another project installed editable, or an include, does not make the file a dev set
    text = "-e ./plugins/auth\n-r base.txt\nflask==3.0.2\n"
    assert set(by_key("requirements.txt", text)) == {"dependency:pypi:.:main:flask"}
    assert set(by_key("requirements/dev.txt", "-e .\npytest==8\n")) == {"dependency:pypi:.:dev:pytest"}


def _pyproject(requires: str, backend: str) -> str:
    return (f'[build-system]\nrequires = [{requires}]\nbuild-backend = "{backend}"\n\n'
            '[project]\nname = "tool"\nversion = "1.0"\ndependencies = ["click>=8"]\n\n'
            '[dependency-groups]\ndev = ["pytest"]\n')


def test_build_system_requires_are_build_dependencies_with_a_history(tmp_path):
    """``[build-system] requires`` (click's ``flit_core>=3.11,<4``) is what building the project
    needs: a dependency each, group ``build``, with a history as any pin's (a backend switched
    from setuptools to flit ends setuptools' and begins flit_core's); the table's config facts
    stay.  "Which flit_core does the build need?" is answered by the pin."""
    from repomem.service.query import ask, facts, history
    from tests.conftest import indexed

    r = indexed(tmp_path / "repo",
                ("2023-01-20T10:00:00Z", {"pyproject.toml": _pyproject('"setuptools>=61", "wheel"',
                                                                       "setuptools.build_meta")}),
                ("2023-06-28T10:00:00Z", {"pyproject.toml": _pyproject('"flit_core>=3.2,<4"', "flit_core.buildapi")}),
                ("2024-02-01T10:00:00Z", {"pyproject.toml": _pyproject('"flit_core>=3.11,<4"',
                                                                       "flit_core.buildapi")}))
    now = {f["key"]: f for f in facts(r)["facts"]}
    deps = {k: f["value"] for k, f in now.items() if f["kind"] == DEPENDENCY}
    assert deps == {"dependency:pypi:.:build:flit-core": "<4,>=3.11", "dependency:pypi:.:main:click": ">=8",
                    "dependency:pypi:.:dev:pytest": "*"}
    flit = now["dependency:pypi:.:build:flit-core"]
    assert (flit["line"], flit["attrs"]["group"], flit["subject"]) == (2, "build", "flit_core dependency (pypi, build)")
    assert [v["value"] for v in history(r, "dependency:pypi:.:build:flit-core")["versions"]] == \
        ["<4,>=3.2", "<4,>=3.11"]
    assert [v["value"] for v in history(r, "dependency:pypi:.:build:setuptools")["versions"]] == [">=61"]
    assert now["config:pyproject.toml:build-system.requires"]["value"] == "flit_core>=3.11,<4"
    got = ask(r, "which flit_core version does the build need?")
    assert got["facts"][0]["key"] == "dependency:pypi:.:build:flit-core", got["facts"][0]
