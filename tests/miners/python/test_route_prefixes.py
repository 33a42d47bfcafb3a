"""Route prefixes: composed within a file by the miner, across files by the ledger fold, on real
git histories; a changed prefix supersedes the routes under it; a prefix that is not a literal
leaves the route relative and says so."""

from __future__ import annotations

import textwrap

from repomem.core.model import ROUTE
from repomem.miners.python import MINER
from repomem.service.ingest import ingest
from repomem.service.query import ask, facts, history
from repomem.service.repo import Repo
from tests.conftest import commit


def routes(path, src):
    return {f.value: dict(f.attrs) for f in MINER.mine(path, textwrap.dedent(src)) if f.kind == ROUTE}


def test_prefix_within_a_file():
    got = routes("app/items.py", """
        from fastapi import APIRouter, FastAPI
        router = APIRouter(prefix="/items", tags=["items"])
        bp = Blueprint("auth", __name__, url_prefix="/auth")
        dyn = APIRouter(prefix=settings.PREFIX)
        app = FastAPI()

        @router.get("/")
        def list_items(): ...

        @bp.route("/login", methods=["POST"])
        def login(): ...

        @dyn.get("/x")
        def x(): ...

        @app.get("/health")
        def health(): ...
        """)
    assert got["GET /items/"] == {"handler": "list_items", "path": "/", "router": "app.items:router"}
    assert got["POST /auth/login"]["router"] == "app.items:bp"
    assert got["GET /x"]["relative"] == "true"
    assert got["GET /health"] == {"handler": "health"}  # the app itself: nothing to compose


def test_wiring_facts_resolve_imports():
    facts_ = MINER.mine("app/__init__.py", textwrap.dedent("""
        from flask import Flask

        def create_app():
            app = Flask(__name__)
            from app.auth import bp as auth_bp
            app.register_blueprint(auth_bp, url_prefix='/auth')
            from .main import bp as main_bp
            app.register_blueprint(main_bp)
            from app.api.routes import items
            app.include_router(items.router, prefix=PREFIX)
            return app
        """))
    mounts = [dict(f.attrs) | {"value": f.value} for f in facts_ if f.kind == "mount"]
    assert mounts == [
        {"child": "app.auth:bp", "given": "true", "literal": "true", "mode": "override",
         "parent": "", "value": "/auth"},
        {"child": "app.main:bp", "given": "false", "literal": "true", "mode": "override",
         "parent": "", "value": ""},
        {"child": "app.api.routes.items:router", "given": "true", "literal": "false",
         "mode": "prepend", "parent": "", "value": "PREFIX"}]


FLASK_INIT = """\
from flask import Flask


def create_app():
    app = Flask(__name__)
    from app.auth import bp as auth_bp
    app.register_blueprint(auth_bp, url_prefix='{prefix}')
    return app
"""
AUTH_PKG = "from flask import Blueprint\n\nbp = Blueprint('auth', __name__)\n\nfrom app.auth import routes\n"
AUTH_ROUTES = """\
from app.auth import bp


@bp.route('/login', methods=['GET', 'POST'])
def login():
    return 'login'


@bp.route('/logout')
def logout():
    return 'bye'
"""


def current_routes(repo, as_of=None):
    return {f["attrs"]["handler"]: f for f in facts(Repo.open(repo), as_of=as_of, kind="route")["facts"]}


def test_blueprint_prefix_across_files_and_prefix_change_supersedes(new_repo):
    repo = new_repo()
    commit(repo, "2026-01-05T10:00:00+00:00", "auth blueprint", {
        "app/__init__.py": FLASK_INIT.format(prefix="/auth"),
        "app/auth/__init__.py": AUTH_PKG, "app/auth/routes.py": AUTH_ROUTES})
    commit(repo, "2026-01-06T10:00:00+00:00", "unrelated", {"app/util.py": "LIMIT = 3\n"})
    c3 = commit(repo, "2026-02-05T10:00:00+00:00", "move auth under /account",
                {"app/__init__.py": FLASK_INIT.format(prefix="/account")})
    r = Repo.open(repo)
    ingest(r, all_history=True, progress=False)
    now = current_routes(repo)
    assert now["login"]["value"] == "GET,POST /account/login"
    assert now["logout"]["value"] == "GET /account/logout"
    assert now["login"]["commit"] == c3 and now["login"]["path"] == "app/auth/routes.py"
    assert "relative" not in now["login"]["attrs"]
    assert current_routes(repo, "2026-01-20")["login"]["value"] == "GET,POST /auth/login"
    versions = history(r, now["logout"]["key"])["versions"]
    assert [(v["value"], v["end_reason"]) for v in versions] == [
        ("GET /auth/logout", "superseded"), ("GET /account/logout", None)]
    # nothing internal is shown as a fact
    assert {f["kind"] for f in facts(r)["facts"]} <= {"route", "function", "constant"}


ITEMS = """\
from fastapi import APIRouter

router = APIRouter(prefix="{prefix}")


@router.get("/")
def read_items():
    return []


@router.post("/{{item_id}}")
def update_item(item_id: int):
    return item_id
"""
MAIN = """\
from fastapi import FastAPI
from app.api.routes import items
from app.core.config import settings

app = FastAPI()
app.include_router(items.router, prefix={prefix})
"""


def test_include_router_across_files_literal_and_not(new_repo):
    repo = new_repo()
    commit(repo, "2026-03-01T10:00:00+00:00", "items", {
        "app/api/routes/items.py": ITEMS.format(prefix="/items"),
        "app/main.py": MAIN.format(prefix='"/api/v1"')})
    ingest(Repo.open(repo), all_history=True, progress=False)
    now = current_routes(repo)
    assert now["read_items"]["value"] == "GET /api/v1/items/"
    assert now["update_item"]["value"] == "POST /api/v1/items/{item_id}"

    # the router's own prefix changes in its file: both layers still compose
    commit(repo, "2026-03-02T10:00:00+00:00", "rename", {
        "app/api/routes/items.py": ITEMS.format(prefix="/products")})
    # the mount prefix becomes a setting: the route stays relative to it and says so
    c3 = commit(repo, "2026-03-03T10:00:00+00:00", "settings prefix", {
        "app/main.py": MAIN.format(prefix="settings.API_V1_STR")})
    ingest(Repo.open(repo), all_history=True, progress=False)
    assert current_routes(repo, "2026-03-02T12:00:00+00:00")["read_items"]["value"] == \
        "GET /api/v1/products/"
    now = current_routes(repo)
    assert now["read_items"]["value"] == "GET /products/"
    assert now["read_items"]["attrs"]["relative"] == "true"
    assert now["read_items"]["commit"] == c3

    # the including file is deleted: the router is mounted nowhere known, its own prefix stays
    commit(repo, "2026-03-04T10:00:00+00:00", "drop main", {"app/main.py": None})
    ingest(Repo.open(repo), all_history=True, progress=False)
    now = current_routes(repo)
    assert now["read_items"]["value"] == "GET /products/"
    assert "relative" not in now["read_items"]["attrs"]


def test_nested_routers_compose_through_every_level(new_repo):
    """The full-stack FastAPI layout: items.router in api_router in the app."""
    repo = new_repo()
    api_main = ("from fastapi import APIRouter\nfrom app.api.routes import items\n\n"
                "api_router = APIRouter()\napi_router.include_router(items.router)\n")
    commit(repo, "2026-04-01T10:00:00+00:00", "layout", {
        "app/api/routes/items.py": ITEMS.format(prefix="/items"),
        "app/api/main.py": api_main,
        "app/main.py": "from fastapi import FastAPI\nfrom app.api.main import api_router\n\n"
                       "app = FastAPI()\napp.include_router(api_router, prefix='/api/v1')\n"})
    ingest(Repo.open(repo), all_history=True, progress=False)
    assert current_routes(repo)["read_items"]["value"] == "GET /api/v1/items/"
    commit(repo, "2026-04-02T10:00:00+00:00", "version 2", {
        "app/main.py": "from fastapi import FastAPI\nfrom app.api.main import api_router\n\n"
                       "app = FastAPI()\napp.include_router(api_router, prefix=settings.API_V1_STR)\n"})
    ingest(Repo.open(repo), all_history=True, progress=False)
    now = current_routes(repo)["read_items"]
    assert (now["value"], now["attrs"]["relative"]) == ("GET /items/", "true")


DJANGO_ROOT = """\
import debug_toolbar
from django.conf import settings
from django.urls import include, path, re_path

from shop.search import views as search_views

urlpatterns = [
    path("{prefix}", include("shop.blog.urls")),
    path("search/", search_views.search, name="search"),
    path("__debug__/", include(debug_toolbar.urls)),
]

if settings.DEBUG:
    urlpatterns += [path("test404/", TemplateView.as_view(template_name="404.html"))]
"""
DJANGO_BLOG = """\
from django.urls import path, re_path

from . import views

urlpatterns = [
    path("", views.index, name="blog_index"),
    re_path(r"^(?P<slug>[-\\w]+)/$", views.post_detail, name="post_detail"),
]
"""


def test_django_urlconfs_compose_across_files_and_a_moved_include_supersedes(new_repo):
    """Django's urlpatterns: path()/re_path() are routes keyed by their name (else their view),
    include() mounts another URLconf under its prefix, and moving the include moves every route
    under it -- on a real history, as the Flask and FastAPI wiring does."""
    repo = new_repo()
    commit(repo, "2026-01-05T10:00:00+00:00", "blog", {
        "shop/urls.py": DJANGO_ROOT.format(prefix="blog/"), "shop/blog/urls.py": DJANGO_BLOG})
    c2 = commit(repo, "2026-02-05T10:00:00+00:00", "blog -> articles",
                {"shop/urls.py": DJANGO_ROOT.format(prefix="articles/")})
    r = Repo.open(repo)
    ingest(r, all_history=True, progress=False)
    now = {f["attrs"].get("name") or f["attrs"]["handler"]: f for f in facts(r, kind="route")["facts"]}
    assert {k: v["value"] for k, v in now.items()} == {
        "search": "ANY /search/", "blog_index": "ANY /articles/",
        "post_detail": r"ANY /articles/(?P<slug>[-\w]+)/",
        'TemplateView.as_view(template_name="404.html")': "ANY /test404/"}
    post = now["post_detail"]
    assert (post["key"], post["path"], post["commit"]) == (
        "route:shop/blog/urls.py:post_detail", "shop/blog/urls.py", c2)
    versions = history(r, post["key"])["versions"]
    assert [v["value"] for v in versions] == [r"ANY /blog/(?P<slug>[-\w]+)/",
                                              r"ANY /articles/(?P<slug>[-\w]+)/"]
    # the wiring stays internal; the question finds the route
    assert {f["kind"] for f in facts(r)["facts"]} <= {"route", "function", "constant"}
    got = ask(r, "Which URL shows the search page?")["facts"][0]
    assert (got["kind"], got["value"]) == ("route", "ANY /search/")


def test_a_django_urlconf_states_only_what_it_can():
    got = {f.key: f.value for f in MINER.mine("site/urls.py", textwrap.dedent('''
        urlpatterns = i18n_patterns(
            path("about/", views.about, name="about"),
            path(route="team/", view=views.team, name="team"),
            path(PREFIX, views.home, name="home"),       # not a literal: no route
            path("api/", include([path("x/", views.x)])),  # an inline list: its routes, prefixed
            path(b"raw/", views.raw),                      # bytes: Django takes str only
        )
        other = [path("other/", views.other)]  # a list for another URLconf to include: its own router
        ''')) if f.kind in ("route", "mount", "router")}
    assert got == {"route:site/urls.py:about": "ANY /about/", "route:site/urls.py:team": "ANY /team/",
                   "route:site/urls.py:views.x": "ANY /api/x/", "router:site.urls:urlpatterns": "",
                   "router:site.urls:other": "", "route:site/urls.py:views.other": "ANY /other/"}


HC_ROOT = """\
from django.urls import include, path

from hc.api.urls import api_urls

urlpatterns = [
    path("{prefix}", include(api_urls)),
    path("", include("hc.front.urls")),
]
"""
HC_API = """\
from django.urls import path

from hc.api import views

api_urls = [
    path("checks/", views.checks),
    path("checks/<uuid:code>/{verb}", views.pause, name="hc-api-pause"),
]
"""


def test_an_imported_list_of_routes_composes_under_the_include_of_another_urlconf(new_repo):
    """``include(api_urls)`` of a list another module binds (not its urlpatterns) mounts that
    list's routes: the question has a route with its full path, current and as of each commit,
    when only the list's module changes and when only the root URLconf does."""
    repo = new_repo()
    c1 = commit(repo, "2026-01-05T10:00:00+00:00", "api", {
        "hc/urls.py": HC_ROOT.format(prefix="api/v1/"), "hc/api/urls.py": HC_API.format(verb="pause"),
        "hc/front/urls.py": "from django.urls import path\nfrom . import views\n"
                            "urlpatterns = [path('', views.index, name='index')]\n"})
    c2 = commit(repo, "2026-02-05T10:00:00+00:00", "the urls module alone",
                {"hc/api/urls.py": HC_API.format(verb="suspend")})
    c3 = commit(repo, "2026-03-05T10:00:00+00:00", "the root urlconf alone",
                {"hc/urls.py": HC_ROOT.format(prefix="api/v3/")})
    r = Repo.open(repo)
    ingest(r, all_history=True, progress=False)

    def pause(as_of=None):
        got = [f for f in facts(r, as_of=as_of, kind="route")["facts"]
               if f["attrs"].get("name") == "hc-api-pause"]
        assert len(got) == 1
        return got[0]["value"], got[0]["commit"], got[0]["attrs"].get("relative")

    assert pause() == ("ANY /api/v3/checks/<uuid:code>/suspend", c3, None)
    assert pause("2026-01-20") == ("ANY /api/v1/checks/<uuid:code>/pause", c1, None)
    assert pause("2026-02-20") == ("ANY /api/v1/checks/<uuid:code>/suspend", c2, None)
    index = [f for f in facts(r, kind="route")["facts"] if f["attrs"].get("name") == "index"]
    assert [f["value"] for f in index] == ["ANY /"]
    versions = history(r, "route:hc/api/urls.py:hc-api-pause")["versions"]
    assert [v["value"] for v in versions] == ["ANY /api/v1/checks/<uuid:code>/pause",
                                              "ANY /api/v1/checks/<uuid:code>/suspend",
                                              "ANY /api/v3/checks/<uuid:code>/suspend"]
    got = ask(r, "What is the API URL to pause a check?")["facts"][0]
    assert (got["kind"], got["value"]) == ("route", "ANY /api/v3/checks/<uuid:code>/suspend")


def test_a_list_joined_into_urlpatterns_is_part_of_it():
    """``urlpatterns = [...] + api_patterns`` and ``urlpatterns += extra``: those lists' routes
    are urlpatterns' own (under whatever prefix includes the module), not routers of their own."""
    got = {f.key: (f.value, dict(f.attrs).get("router")) for f in MINER.mine("blog/urls.py", textwrap.dedent('''
        from django.urls import path
        from . import views
        api_patterns = [path("api/posts/", views.posts, name="api-posts")]
        extra = [path("feed/", views.feed, name="feed")]
        urlpatterns = [path("", views.index, name="index")] + api_patterns
        urlpatterns += extra
        ''')) if f.kind in ("route", "router")}
    assert got == {"router:blog.urls:urlpatterns": ("", None),
                   "route:blog/urls.py:index": ("ANY /", "blog.urls:urlpatterns"),
                   "route:blog/urls.py:api-posts": ("ANY /api/posts/", "blog.urls:urlpatterns"),
                   "route:blog/urls.py:feed": ("ANY /feed/", "blog.urls:urlpatterns")}
