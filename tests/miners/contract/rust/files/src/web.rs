use axum::Router;
use crate::accounts;

pub fn routes() -> Router {
    Router::new().nest("/accounts", accounts::router())
}
