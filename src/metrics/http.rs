//! The metrics listener's answers, by method and path: `GET /metrics` (Prometheus text format
//! 0.0.4), `GET /health` (200 `ok`, or 503 `unhealthy: REASON (for N s)`), 404 for other
//! paths, 405 for other methods. `HEAD` is answered as `GET`, without the body; a query string
//! is ignored.

use std::time::Instant;

use bytes::Bytes;
use http_body_util::Full;
use hyper::header::{ALLOW, CACHE_CONTROL, CONTENT_TYPE, HeaderValue};
use hyper::{Method, Response, StatusCode};
use metrics::Counter;
use metrics_exporter_prometheus::PrometheusHandle;

use super::Health;

/// `Content-Type` of `/metrics`: the Prometheus text exposition format.
pub const METRICS_CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// `Content-Type` of `/health` and of the errors.
const TEXT: &str = "text/plain; charset=utf-8";

/// What the answers are made of.
#[derive(Debug, Clone)]
pub struct Answers {
    /// Renders the recorder's metrics.
    pub handle: PrometheusHandle,
    /// The shell's health.
    pub health: Health,
    /// Counts the `/metrics` requests answered.
    pub scrapes: Counter,
}

impl Answers {
    /// The response to `method` on `path` (the request's path, without its query).
    pub fn respond(&self, method: &Method, path: &str) -> Response<Full<Bytes>> {
        let read = *method == Method::GET || *method == Method::HEAD;
        match path {
            "/metrics" | "/health" if !read => {
                let mut response = text(StatusCode::METHOD_NOT_ALLOWED, "method not allowed\n");
                response
                    .headers_mut()
                    .insert(ALLOW, HeaderValue::from_static("GET, HEAD"));
                response
            }
            "/metrics" => {
                self.scrapes.increment(1);
                let mut response = text(StatusCode::OK, self.handle.render());
                response
                    .headers_mut()
                    .insert(CONTENT_TYPE, HeaderValue::from_static(METRICS_CONTENT_TYPE));
                response
            }
            "/health" => match self.health.check() {
                Ok(()) => text(StatusCode::OK, "ok\n"),
                Err(unhealthy) => text(
                    StatusCode::SERVICE_UNAVAILABLE,
                    format!(
                        "unhealthy: {} (for {} s)\n",
                        unhealthy.reason,
                        unhealthy.for_how_long(Instant::now()).as_secs()
                    ),
                ),
            },
            _ => text(StatusCode::NOT_FOUND, "not found: /metrics or /health\n"),
        }
    }
}

fn text(status: StatusCode, body: impl Into<Bytes>) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(body.into()));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(TEXT));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt as _;
    use metrics_exporter_prometheus::PrometheusBuilder;

    fn answers() -> Answers {
        let recorder = PrometheusBuilder::new().build_recorder();
        let handle = recorder.handle();
        let scrapes = metrics::with_local_recorder(&recorder, || {
            metrics::counter!("fenguard_test_total").increment(3);
            metrics::counter!("fenguard_metrics_scrapes_total")
        });
        Answers {
            handle,
            health: Health::starting(),
            scrapes,
        }
    }

    fn body(response: Response<Full<Bytes>>) -> String {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let bytes = rt
            .block_on(response.into_body().collect())
            .unwrap()
            .to_bytes();
        String::from_utf8(bytes.to_vec()).unwrap()
    }

    #[test]
    fn metrics_is_prometheus_text_and_counts_itself() {
        let answers = answers();
        let response = answers.respond(&Method::GET, "/metrics");
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()[CONTENT_TYPE], METRICS_CONTENT_TYPE);
        let text = body(response);
        assert!(text.contains("fenguard_test_total 3\n"), "{text}");
        assert!(
            text.contains("fenguard_metrics_scrapes_total 1\n"),
            "{text}"
        );
    }

    #[test]
    fn health_is_503_with_its_reason_until_healthy() {
        let answers = answers();
        let response = answers.respond(&Method::GET, "/health");
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(body(response), "unhealthy: starting (for 0 s)\n");
        answers.health.set_healthy();
        let response = answers.respond(&Method::HEAD, "/health");
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(body(response), "ok\n");
    }

    #[test]
    fn other_paths_are_404_and_other_methods_405() {
        let answers = answers();
        assert_eq!(
            answers.respond(&Method::GET, "/").status(),
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            answers.respond(&Method::GET, "/metrics/").status(),
            StatusCode::NOT_FOUND
        );
        let response = answers.respond(&Method::POST, "/metrics");
        assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
        assert_eq!(response.headers()[ALLOW], "GET, HEAD");
        assert_eq!(
            answers.respond(&Method::DELETE, "/health").status(),
            StatusCode::METHOD_NOT_ALLOWED
        );
    }
}
