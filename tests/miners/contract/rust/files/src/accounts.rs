use axum::{routing::get, Router};

pub fn router() -> Router {
    Router::new().route("/{id}/settings", get(show_settings))
}

async fn show_settings() {}
