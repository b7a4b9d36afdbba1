//! How a request is answered: its work on the blocking pool, its value
//! as JSON or its refusal, the session's lock.

use std::sync::Mutex;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::Session;
use crate::api::ApiError;

/// Runs a request's work on the blocking pool, so that the async thread
/// that accepts connections is never held by parsing, drawing or disk I/O.
pub(crate) async fn blocking<F: FnOnce() -> Response + Send + 'static>(f: F) -> Response {
    tokio::task::spawn_blocking(f)
        .await
        .unwrap_or_else(|_| (StatusCode::INTERNAL_SERVER_ERROR, "internal error").into_response())
}

/// The answer to a request: the value as JSON, or the refusal.
pub(crate) fn answer<T: Serialize>(r: Result<T, ApiError>) -> Response {
    match r {
        Ok(v) => (StatusCode::OK, axum::Json(v)).into_response(),
        Err(e) => e.into_response(),
    }
}

pub(crate) fn lock(s: &Mutex<Session>) -> std::sync::MutexGuard<'_, Session> {
    s.lock().unwrap_or_else(|e| e.into_inner())
}
