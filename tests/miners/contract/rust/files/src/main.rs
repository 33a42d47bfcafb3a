use axum::{routing::{get, patch}, Router};
use std::time::Duration;

/// Largest frame the server accepts.
const MAX_FRAME: usize = 4 * 1024 * 1024;
const SHIFTED: u64 = 32 << 20;
const IDLE: Duration = Duration::from_secs(30);
static GREETING: &str = "hello";

mod handlers {
    pub async fn list_todos() {}
    pub async fn update_todo() {}
    pub async fn delete_todo() {}
}

async fn health() -> &'static str {
    "ok"
}

pub fn app() -> Router {
    Router::new()
        .route("/todos", get(handlers::list_todos))
        .route("/todos/{id}", patch(handlers::update_todo).delete(handlers::delete_todo))
        .route("/health", axum::routing::get(health))
}

pub struct Buffer;

impl Buffer {
    pub fn read_limit(&self) -> usize {
        const DEFAULT_LIMIT: usize = 2_097_152;
        DEFAULT_LIMIT
    }

    pub fn default_port() -> u16 {
        6379
    }
}
