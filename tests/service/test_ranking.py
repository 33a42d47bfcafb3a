"""Hybrid ranking on real git repositories: the identifier a question names beats common words,
the question's intent counts, and the order is deterministic (snapshot and Chroma alike)."""

from __future__ import annotations

import json
import time

import pytest

from repomem.service import columns, rank
from repomem.service.ingest import ingest
from repomem.service.query import ask, iso
from repomem.service.repo import Repo
from tests.conftest import commit

PYPROJECT = """[project]
name = "requests"
version = "2.32.0"
requires-python = ">=3.8"
dependencies = [
    "charset_normalizer>=2,<4",
    "idna>=2.5,<4",
    "urllib3>=1.21.1,<3",
    "certifi>=2017.4.17",
    "blinker>=1.9",
]

[project.optional-dependencies]
docs = ["blinker==1.6.2", "sphinx>=7"]
"""

COMPAT = '''"""Compatibility helpers: the urllib3 and chardet versions this requests supports."""


def check_compatibility(urllib3_version, chardet_version):
    """Check that the installed urllib3 version and chardet version are ones requests supports."""
    major, minor = urllib3_version.split(".")[:2]
    return int(major) >= 1 and chardet_version is not None


def _urllib3_request_context(request, verify, client_cert, pool_manager):
    """Build the urllib3 request context a requests session needs for this version."""
    return {"verify": verify, "cert": client_cert, "pool": pool_manager, "request": request}


def get_version(package):
    """Return the installed version of a package that requests requires."""
    return getattr(package, "__version__", "unknown")


def _get_werkzeug_version():
    """Which version of werkzeug the server requires."""
    return get_version("werkzeug")
'''

PACKAGE_JSON = """{
  "name": "frontend",
  "version": "0.0.0",
  "private": true,
  "dependencies": {
    "react": "^18.2.0",
    "react-dom": "^18.2.0",
    "axios": "^1.6.0"
  },
  "devDependencies": {
    "typescript": "^5.2.2",
    "vite": "^5.0.0"
  }
}
"""

CONFIG = '''"""Application settings."""
API_PREFIX = "/api/v1"
ACCESS_TOKEN_EXPIRE_MINUTES = 11520
SERVER_PORT = 8000


def access_token_lifetime(settings):
    """How many minutes an access token lives before it expires."""
    return settings.ACCESS_TOKEN_EXPIRE_MINUTES
'''


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    from tests.conftest import git

    repo = tmp_path_factory.mktemp("rank") / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "2024-01-10T10:00:00Z", "project", {
        "pyproject.toml": PYPROJECT, "src/requests/compat.py": COMPAT,
        "frontend/package.json": PACKAGE_JSON, "app/config.py": CONFIG})
    r = Repo.open(repo)
    ingest(r, all_history=True, progress=False)
    return r


@pytest.mark.parametrize("question, kind, subject_word, value", [
    ("Which version of urllib3 does requests require?", "dependency", "urllib3", "<3,>=1.21.1"),
    ("Which version of blinker does requests require?", "dependency", "blinker", ">=1.9"),
    ("Which version of react does the frontend use?", "dependency", "react", "^18.2.0"),
    ("What is ACCESS_TOKEN_EXPIRE_MINUTES?", None, "ACCESS_TOKEN_EXPIRE_MINUTES", "11520"),
])
def test_named_identifier_beats_common_words(store, question, kind, subject_word, value):
    res = ask(store, question, k=3)
    top = res["facts"][0]
    assert subject_word in top["subject"] and top["value"] == value, res["facts"]
    if kind:
        assert top["kind"] == kind
    # The same ranking over the versions valid at a time (the as-of path, read from Chroma).
    then = ask(store, question, as_of="2024-06-01", k=3)["facts"][0]
    assert (then["key"], then["value"]) == (top["key"], top["value"])


def test_root_runtime_group_preferred_over_docs_extra(store):
    facts = ask(store, "which version of blinker does requests require?", k=3)["facts"]
    assert [f["value"] for f in facts[:2]] == [">=1.9", "==1.6.2"]


def test_intent_picks_the_kind_asked_for(store):
    assert ask(store, "what port does the server listen on?", k=3)["answer"] == "8000"
    assert ask(store, "which Python version is required?", k=3)["facts"][0]["kind"] == "python"
    top = ask(store, "what is the function that checks urllib3 compatibility called?")["facts"][0]
    assert top["kind"] == "function" and top["value"] == "check_compatibility"


def test_frame_and_project_words_are_not_identifiers():
    names = [n for n, _, _ in rank.identifiers("Which version of blinker does flask require?")]
    assert names == ["blinker"]
    assert rank.intent("Which version of blinker does flask require?") >= {"dependency"}
    assert rank.intent("Which Python versions does click support?") == {"python"}
    # a class's name asks for no kind its words would ("option" asks for a setting)
    assert rank.intent("Refactor TyperOption and TyperArgument") == set()
    assert rank.intent("Which option hides the prompt input?") >= {"config"}
    assert ("access_token_expire_minutes", True, "ACCESS_TOKEN_EXPIRE_MINUTES") in rank.identifiers(
        "what is `ACCESS_TOKEN_EXPIRE_MINUTES` set to?")


def test_a_function_said_is_asked_for_beside_a_route():
    # "API" asks for a route; the word "function" for a function still ("method" may be HTTP's)
    assert rank.intent("Which RealWorld API service function returns the followed users' articles?") \
        >= {"function", "route"}
    assert "function" not in rank.intent("Which method and path edit the user's profile?")


def test_ranking_is_deterministic_and_snapshot_equals_chroma(store):
    q = "version of the dependencies requests requires"
    runs = [[(f["key"], f["score"]) for f in ask(store, q, k=8)["facts"]] for _ in range(3)]
    assert runs[0] == runs[1] == runs[2]
    slow = ask(store, q, as_of=iso(int(time.time())), k=8)["facts"]
    assert [(f["key"], f["score"]) for f in slow] == runs[0]


def test_fresh_process_scores_the_stored_index_without_bm25s_or_chroma(store):
    # The BM25 index is built when the snapshot is written; a reader needs numpy only.
    import subprocess
    import sys

    from tests.conftest import ROOT

    code = ("import sys, json; from repomem.service.repo import Repo; from repomem.service.query import ask; "
            f"res = ask(Repo.open({str(store.root)!r}), 'Which version of react does the "
            "frontend use?'); print(json.dumps([res['answer'], 'bm25s' in sys.modules, "
            "'chromadb' in sys.modules]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         check=True).stdout
    assert json.loads(out) == ["^18.2.0", False, False]


@pytest.mark.parametrize("key, attrs, path, root", [
    ("dependency:pypi:.:main:blinker", [["project", "."], ["group", "main"]], "pyproject.toml",
     True),
    ("dependency:pypi:examples/celery:main:blinker", [["project", "examples/celery"],
                                                      ["group", "main"]],
     "examples/celery/requirements.txt", False),
    ("dependency:pypi:.:docs:sphinx", [["project", "."], ["group", "docs"]],
     "docs/requirements.txt", False),
    ("dependency:pypi:main:blinker", [], "pyproject.toml", True),  # keys before scoping
])
def test_root_runtime_dependency_by_scoped_key(key, attrs, path, root):
    # SHARED_DECISIONS #1 keys (dependency:<eco>:<project>:<group>:<name>) and the older ones
    row = {"key": key, "attrs": json.dumps(attrs), "path": path, "kind": "dependency"}
    assert columns._root_dependency(row) is root
    names = [n for n, _, _ in rank.identifiers("What is flask's dependency on blinker?")]
    assert names == ["blinker"]
