"""gin/echo route groups handed to a registering function of another package:
``users.ProfileRegister(v1.Group("/profiles"))`` in ``main.go`` mounts the routes
``users/routers.go`` registers on its parameter, composed by the ledger fold on a real git
history, current and as of each commit, whichever of the two files changed."""

from __future__ import annotations

from repomem.service.query import ask, facts, history
from tests.conftest import indexed

MAIN = """package main

import (
	"github.com/gin-gonic/gin"

	"example.com/shop/users"
)

func main() {{
	r := gin.Default()
	v1 := r.Group("{api}")
	users.ProfileRegister(v1.Group("/profiles"))
	r.GET("/health", health)
}}
"""
USERS = """package users

import "github.com/gin-gonic/gin"

func ProfileRegister(router *gin.RouterGroup) {{
	router.GET("/:username", ProfileRetrieve)
	follow := router.Group("/:username")
	follow.POST("{verb}", ProfileFollow)
}}

func ProfileRetrieve(c *gin.Context) {{}}

func ProfileFollow(c *gin.Context) {{}}
"""


def test_a_group_handed_to_another_package_prefixes_its_routes(tmp_path):
    r = indexed(tmp_path / "repo",
                ("2026-01-10T10:00:00+00:00", {"main.go": MAIN.format(api="/api"),
                                               "users/routers.go": USERS.format(verb="/follow")}),
                ("2026-02-10T10:00:00+00:00", {"users/routers.go": USERS.format(verb="/subscribe")}),
                ("2026-03-10T10:00:00+00:00", {"main.go": MAIN.format(api="/api/v2")}))

    def routes(when=None):
        return sorted(f["value"] for f in facts(r, as_of=when, kind="route")["facts"])

    assert routes() == ["GET /api/v2/profiles/:username", "GET /health",
                        "POST /api/v2/profiles/:username/subscribe"]
    assert routes("2026-01-20") == ["GET /api/profiles/:username", "GET /health",
                                    "POST /api/profiles/:username/follow"]
    assert routes("2026-02-20") == ["GET /api/profiles/:username", "GET /health",
                                    "POST /api/profiles/:username/subscribe"]
    key = next(f["key"] for f in facts(r, kind="route")["facts"] if f["attrs"].get("handler") == "ProfileFollow")
    assert [v["value"] for v in history(r, key)["versions"]] == [
        "POST /api/profiles/:username/follow", "POST /api/profiles/:username/subscribe",
        "POST /api/v2/profiles/:username/subscribe"]
    got = ask(r, "Which path retrieves a user's profile?")["facts"][0]
    assert (got["kind"], got["value"]) == ("route", "GET /api/v2/profiles/:username")
