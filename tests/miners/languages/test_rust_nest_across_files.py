"""axum routers nested from another file: ``.nest("/api", api::router())`` in ``src/main.rs``
mounts the routes ``src/api.rs``'s ``router()`` builds (``.merge(crate::admin::routes())`` at
their own paths), composed by the ledger fold on a real git history, current and as of each
commit, whichever of the two files changed."""

from __future__ import annotations

from repomem.service.query import facts, history
from tests.conftest import indexed

MAIN = """use axum::{{routing::get, Router}};
use crate::routes::users;

mod admin;
mod api;
mod routes;

fn app() -> Router {{
    Router::new()
        .route("/health", get(health))
        .nest("{prefix}", api::router())
        .nest("/users", users::router())
        .merge(crate::admin::routes())
}}

async fn health() -> &'static str {{ "ok" }}
"""
API = """use axum::{{routing::get, Router}};

pub fn router() -> Router {{
    Router::new().route("{path}", get(list_todos))
}}

async fn list_todos() {{}}
"""
USERS = """use axum::{routing::get, Router};

pub fn router() -> Router {
    Router::new().route("/{id}", get(super::show_user))
}
"""


def test_a_router_nested_from_another_file_has_its_full_path(tmp_path):
    r = indexed(tmp_path / "repo",
                ("2026-01-10T10:00:00+00:00", {"src/main.rs": MAIN.format(prefix="/api"),
                                               "src/api.rs": API.format(path="/todos"),
                                               "src/routes/users.rs": USERS,
                                               "src/admin.rs": USERS.replace("router", "routes")
                                                                    .replace("/{id}", "/admin/stats")}),
                ("2026-02-10T10:00:00+00:00", {"src/api.rs": API.format(path="/tasks")}),
                ("2026-03-10T10:00:00+00:00", {"src/main.rs": MAIN.format(prefix="/v2")}))

    def routes(when=None):
        return sorted(f["value"] for f in facts(r, as_of=when, kind="route")["facts"])

    assert routes() == ["GET /admin/stats", "GET /health", "GET /users/{id}", "GET /v2/tasks"]
    assert routes("2026-01-20") == ["GET /admin/stats", "GET /api/todos", "GET /health", "GET /users/{id}"]
    assert routes("2026-02-20") == ["GET /admin/stats", "GET /api/tasks", "GET /health", "GET /users/{id}"]
    key = next(f["key"] for f in facts(r, kind="route")["facts"] if f["path"] == "src/api.rs")
    assert [v["value"] for v in history(r, key)["versions"]] == ["GET /api/todos", "GET /api/tasks", "GET /v2/tasks"]
