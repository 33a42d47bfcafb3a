"""Words of a question that spell the project's own name (rowindex.spelled_project): "the gin
RealWorld app", "mini-redis's" name the repository asking, so they are no evidence of which fact
answers (a setting whose value is the project's URL says them all).  One word of a longer name
alone may be the fact asked about ("which gin version")."""

from __future__ import annotations

from repomem.service.columns import project_name, project_names
from repomem.service.query import ask
from repomem.service.rowindex import spelled_project
from tests.conftest import indexed

APP = "golang_gin_realworld_example_app"


def test_two_words_of_a_long_name_spell_it():
    got = spelled_project("How long until a JWT issued by the gin RealWorld app expires?", {APP})
    assert {"gin", "realworld", "real", "world", "app"} <= got
    assert not got & {"jwt", "long", "expir"}


def test_one_word_of_a_long_name_is_no_spelling():
    assert spelled_project("Which gin version does it pin?", {APP}) == set()
    assert spelled_project("What does click.echo print?", {"click"}) == set()  # single-word names:
    # facts_columns' project set itself


def test_the_rest_of_a_hyphenated_word_stays():
    got = spelled_project("Which host does mini-redis-cli connect to?", {"mini_redis"})
    assert {"mini", "redis"} <= got and "cli" not in got and "host" not in got


def test_each_ecosystems_manifest_names_the_project():
    def name(key, value):
        return project_name({"key": key, "value": value})
    assert name("config:go.mod:module", "github.com/labstack/echo/v4") == ("", "echo")
    assert name("config:Cargo.toml:package.name", "mini-redis") == ("", "mini_redis")
    assert name("config:settings.gradle.kts:rootProject.name", "rest-service") == ("", "rest_service")
    assert name("config:package.json:name", "@api/source") == ("", "api_source")
    assert name("config:web/package.json:name", "web") == ("web/", "web")
    assert name("config:examples/app/package.json:name", "demo") is None
    assert name("config:package.json:version", "1.0") is None


def test_the_root_names_the_project_else_what_its_shallowest_projects_share():
    assert project_names([("", "acme"), ("web/", "acme_web")]) == {"acme"}
    # gs-rest-service: no root build; complete/ and initial/ are two builds of one guide, each
    # named with its folder's word, and both were gs-rest-service before a rename
    assert project_names([("complete/", "rest_service_complete"),
                          ("initial/", "rest_service_initial"), ("initial/", "gs_rest_service"),
                          ("complete/", "gs_rest_service_complete")]) \
        == {"rest_service", "gs_rest_service"}
    assert project_names([("a/", "foo"), ("b/", "bar")]) == set()  # nothing shared
    assert project_names([("web/", "shop_web")]) == {"shop"}  # one project: its name


PYPROJECT = """[project]
name = "acme-shop"
version = "1.0"
description = "The acme shop storefront"

[project.urls]
Homepage = "https://acme-shop.example.org"
Documentation = "https://docs.acme-shop.example.org"
Source = "https://github.com/acme/acme-shop"
"""
NET_PY = """TOKEN_TTL = 86400
POOL_SIZE = 4
"""


def test_the_projects_words_do_not_pull_its_own_metadata_up(new_repo):
    r = indexed(new_repo(), ("2024-01-01T00:00:00+00:00",
                             {"pyproject.toml": PYPROJECT, "acme_shop/net.py": NET_PY}))
    got = ask(r, "How long until a token issued by the acme shop app expires?", k=3)["facts"]
    assert got[0]["value"] == "86400"
    # the project's URLs say "acme shop" too, and that is all they say
    assert not [f["value"] for f in got if "acme-shop" in f["value"]]
