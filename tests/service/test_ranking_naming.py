"""Names a question gives a fact beyond its own normalised names (repomem.service.naming): a Go
module by the last part of its path, a setting by its owner class, by the end of its dotted
name and by its name as spelled in code, and code by adjacent words run together."""

from __future__ import annotations

import pytest

from repomem.service.naming import package_tail
from repomem.service.query import ask
from tests.conftest import indexed

GO_MOD = """module github.com/acme/shop

go 1.21

require (
\tgithub.com/gin-gonic/gin v1.8.1
\tgithub.com/jinzhu/gorm v1.9.16
\tgithub.com/dgrijalva/jwt-go v3.2.0+incompatible
\tgithub.com/labstack/echo/v4 v4.11.0
)
"""
MAIN_GO = """package main

func main() {}
"""
CONFIG_PY = '''import click

__version__ = "0.35.0"


class Config:
    def __init__(self, ws_max_size=16777216, timeout_keep_alive=5):
        self.ws_max_size = ws_max_size


@click.option("--version", is_flag=True, is_eager=True)
@click.option("--ws-max-size", default=16777216)
def main(version, ws_max_size):
    pass
'''
POM = """<project>
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>demo</artifactId>
  <version>0.0.1</version>
  <properties>
    <java.version>17</java.version>
  </properties>
</project>
"""
CI = """name: build
on: push
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/setup-java@v3
        with:
          java-version: 11
"""
HANDLERS = """package articles

func ArticleCommentList(c int) int {
\treturn c
}

func ArticleList(c int) int {
\treturn c
}
""" + "".join(f"""
// {name} changes the article comment list: the comment endpoint of its method.
func {name}(c int) int {{
\treturn c
}}
""" for name in ("ArticleCommentCreate", "ArticleCommentDelete", "ArticleCommentUpdate",
                 "ArticleCommentCount"))

ROUTERS = """package articles

import "github.com/gin-gonic/gin"

func ArticlesRegister(router *gin.RouterGroup) {
\trouter.GET("/:slug/comments", ArticleCommentList)
\trouter.POST("/:slug/comments", ArticleCommentCreate)
\trouter.DELETE("/:slug/comments/:id", ArticleCommentDelete)
\trouter.PUT("/:slug/comments/:id", ArticleCommentUpdate)
\trouter.GET("/", ArticleList)
}
"""


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    return indexed(tmp_path_factory.mktemp("naming") / "repo", (
        "2024-03-01T10:00:00Z", {"go.mod": GO_MOD, "main.go": MAIN_GO, "app/config.py": CONFIG_PY,
                                 "pom.xml": POM, ".github/workflows/ci.yml": CI,
                                 "articles/handlers.go": HANDLERS,
                                 "articles/routers.go": ROUTERS}))


def first(r, question):
    got = ask(r, question)["facts"][0]
    return got["subject"], got["value"]


def test_the_last_part_of_a_package_path_names_it():
    assert package_tail("github.com/jinzhu/gorm") == "gorm"
    assert package_tail("github.com/dgrijalva/jwt-go") == "jwt_go"
    assert package_tail("github.com/labstack/echo/v4") == "echo"  # a major version suffix
    assert package_tail("gorm") == package_tail("src/gorm") == ""  # no host: no module path


def test_a_go_module_is_named_by_the_last_part_of_its_path(repo):
    # "gin" says a dependency too, but only as a plain word; the module asked for is named
    assert first(repo, "What version of gorm is the gin shop on?")[1] == "v1.9.16"
    assert first(repo, "Which version of jwt-go does the gin shop require?")[1] == "v3.2.0+incompatible"


def test_a_name_written_as_code_is_the_setting_spelled_so(repo):
    # `__version__` and main.version.is_flag both bear "version" once names are normalised
    assert first(repo, "What is the `__version__`?") == ("__version__ in app/config.py", "0.35.0")


def test_a_setting_of_the_class_the_question_names_comes_first(repo):
    subject, value = first(repo, "What is the default maximum websocket message size in Config?")
    assert subject.startswith("Config.ws_max_size") and value == "16777216", subject


def test_a_dotted_name_names_the_setting_it_ends(repo):
    assert first(repo, "What is `java.version` set to in pom.xml?")[1] == "17"


def test_words_run_together_name_a_function(repo):
    got = [f["value"] for f in ask(repo, "Add a comment endpoint next to the article comment list",
                                   k=16)["facts"]]
    # the routes asked for first, then the handler named, before its siblings
    assert got.index("ArticleCommentList") < min(got.index(f"ArticleComment{x}") for x in
                                                 ("Create", "Delete", "Update", "Count")), got


def test_a_go_module_is_named_by_its_whole_path(repo):
    # the path's parts are plain words one by one; "gin" names a package as much as "gorm" does
    assert first(repo, "Which version of github.com/jinzhu/gorm does the gin shop require?")[1] == "v1.9.16"
    assert first(repo, "What is the gin shop's requirement for github.com/jinzhu/gorm?")[1] == "v1.9.16"


SERVER_PY = '''import click


class Config:
    def __init__(self, host="127.0.0.1", port=8000, backlog=2048, root_path="", workers=None,
                 limit_concurrency=None, proxy_headers=True, server_header=True):
        self.host = host


@click.option("--host", type=str, default="127.0.0.1", help="Bind socket to this host.")
@click.option("--backlog", type=int, default=2048,
              help="Maximum number of connections to hold in backlog.")
def main(host, backlog):
    pass
'''


def test_an_options_help_ties_its_words_to_the_setting_of_its_name(new_repo):
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"server/config.py": SERVER_PY}))
    got = [f["subject"] for f in ask(r, "Change the address the server binds to", k=5)["facts"]]
    assert any(s.startswith("Config.host") for s in got), got


ROUTES_PY = '''from flask import Blueprint

bp = Blueprint("users", __name__, url_prefix="/api/users")


@bp.route("/login", methods=["POST"])
def authenticate():
    pass


@bp.route("/", methods=["POST"])
def register():
    pass


@bp.route("/<int:id>/posts", methods=["GET"])
def user_posts(id):
    pass


@bp.route("/ping", methods=["GET"])
def ping():
    pass
'''


def test_a_verb_and_its_particle_name_the_route_whose_path_ends_so(new_repo):
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"app/users.py": ROUTES_PY}))
    assert first(r, "What is the API path to log in to the app?")[1] == "POST /api/users/login"


PARAMS_PY = '''def Option(default=None, *, show_default=True, hidden=False):
    """Declare a command-line option."""
    return default
'''
CORE_PY = '''class TyperOption:
    def __init__(self, *, show_default=False, hidden=False):
        self.show_default = show_default
'''


def test_a_name_dotted_after_the_project_is_the_name_in_it(new_repo):
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {
        "pyproject.toml": '[project]\nname = "typer"\nversion = "1.0"\n',
        "typer/params.py": PARAMS_PY, "typer/core.py": CORE_PY}))
    # `typer.Option` is Option of typer, not the class TyperOption its words run together spell
    assert first(r, "Does `typer.Option` show the default in help unless told otherwise?") == \
        ("Option.show_default in typer/params.py", "True")
