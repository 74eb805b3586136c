//! One log line per request, and its metrics: method, route pattern, status, time taken and
//! request id. Client errors add only their problem `code` (the detail is the client's to read,
//! not the operator's); server errors log their detail at `error`.

use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::{Error, web};

use super::metrics::Metrics;
use super::request_id;
use crate::api::ApiError;

/// The route of a request no route took: one label, whatever the path.
pub const UNMATCHED: &str = "unmatched";

pub async fn middleware(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    let start = Instant::now();
    let method = request.method().clone();
    let metrics = request.app_data::<web::Data<Metrics>>().cloned();
    let response = next.call(request).await?;
    let elapsed = start.elapsed();
    let route = response.request().match_pattern();
    let route = route.as_deref().unwrap_or(UNMATCHED);
    let status = response.status();
    if let Some(metrics) = metrics {
        metrics.record(
            method.as_str(),
            route,
            status.as_u16(),
            elapsed.as_secs_f64(),
        );
    }
    let id = request_id::of(response.request());
    let micros = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX);
    let problem = response
        .response()
        .error()
        .and_then(|e| e.as_error::<ApiError>());
    let status = status.as_u16();
    if status >= 500 {
        let detail = problem.map_or("", |p| p.0.detail.as_str());
        tracing::error!(target: "moot::access", %method, route, status, micros, request_id = %id, detail, "request");
    } else if let Some(problem) = problem {
        let code = problem.code().as_str();
        tracing::info!(target: "moot::access", %method, route, status, micros, request_id = %id, code, "request");
    } else {
        tracing::info!(target: "moot::access", %method, route, status, micros, request_id = %id, "request");
    }
    Ok(response)
}
