//! The stylesheet and the script, compiled into the binary: nothing is fetched from anywhere.

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

pub const CSS: &str = include_str!("../../assets/app.css");
pub const JS: &str = include_str!("../../assets/app.js");

pub async fn asset(Path(name): Path<String>) -> Response {
    match name.as_str() {
        "app.css" => ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], CSS).into_response(),
        "app.js" => (
            [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
            JS,
        )
            .into_response(),
        _ => StatusCode::NOT_FOUND.into_response(),
    }
}
