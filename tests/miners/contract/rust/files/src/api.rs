use axum::{routing::get, Router};

fn api_routes() -> Router {
    Router::new().route("/todos", get(list_todos))
}

pub fn app() -> Router {
    Router::new()
        .route("/health", get(health))
        .nest("/api", api_routes())
        .nest("/admin", Router::new().route("/users", get(users)).nest("/v2", Router::new().route("/stats", get(stats))))
}
async fn list_todos() {}
async fn health() {}
async fn users() {}
async fn stats() {}
