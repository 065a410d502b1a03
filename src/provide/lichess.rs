//! The HTTP side of a provider: lila's external-engine registration and lichess's work broker
//! (lila-engine), over ureq on rustls.
//!
//! Routes (lichess-org/api `doc/specs/tags/externalengine/*.yaml`; lila-engine `src/main.rs`):
//! - lila, with the OAuth token: `GET /api/external-engine` (the token's engines),
//!   `POST /api/external-engine` (register), `PUT /api/external-engine/{id}` (update);
//! - broker, with the provider secret: `POST /api/external-engine/work` (`{"providerSecret"}`;
//!   200 `{"id", "work", "engine"}` or 204 after at most 10 s), `POST
//!   /api/external-engine/work/{id}` (the engine's output as a `text/plain` stream; 404 for an
//!   unknown or expired id, 400 for a line outside its grammar; 200 at `bestmove`, at the end
//!   of the body, or at once when the requester has left, closing the connection).

use std::io::Read;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::work::Job;

/// How long a poll for work may take: the broker answers within 10 s (lichess's example
/// provider waits 12 s).
pub const POLL_TIMEOUT: Duration = Duration::from_secs(12);

/// How many times registration is tried when lila does not answer or answers 429 / 5xx.
pub const REGISTER_TRIES: u32 = 6;

/// How long after a new registration the engines of its name are listed again (longer than
/// a round trip to lila).
pub const SETTLE: Duration = Duration::from_secs(2);

/// How long lila's registration calls and the broker's answer to a finished stream may take.
const CALL_TIMEOUT: Duration = Duration::from_secs(30);

/// An engine as lila registers it (the fields a provider sends; `providerSecret` is stored
/// hashed and never returned).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Registration {
    /// Shown on the analysis board, 1 to 200 characters; the key for updating.
    pub name: String,
    /// Most threads a job may ask for.
    pub max_threads: u32,
    /// Most hash a job may ask for, MiB.
    pub max_hash: u32,
    /// lichess variant names.
    pub variants: Vec<String>,
    /// The provider secret (16 to 1024 characters).
    pub provider_secret: String,
}

/// An engine lila lists (`GET /api/external-engine`), the fields fenguard reads.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Registered {
    /// `eei_...`.
    pub id: String,
    /// Its name.
    pub name: String,
}

/// What went wrong talking to lila or the broker.
#[derive(Debug, thiserror::Error)]
pub enum HttpError {
    /// No answer: connection refused, timeout, TLS, a connection closed mid-request.
    #[error("{0}")]
    Transport(#[from] ureq::Error),
    /// An answer with an unexpected status.
    #[error("HTTP {status}: {body}")]
    Status {
        /// The status code.
        status: u16,
        /// The first 200 characters of the body.
        body: String,
    },
    /// A body that is not the JSON expected.
    #[error("unexpected answer: {0}")]
    Json(#[from] serde_json::Error),
    /// A job whose `id` could be read but not its `work`: acquired, so it must be answered.
    #[error("job {id}: unreadable work: {error}")]
    BadJob {
        /// The job's id.
        id: String,
        /// Why its work could not be read.
        error: serde_json::Error,
    },
}

impl HttpError {
    /// A failure worth trying again: no answer, 429 (rate limited) or a 5xx (a proxy before a
    /// restarting lila).
    pub fn is_transient(&self) -> bool {
        match self {
            HttpError::Transport(_) => true,
            HttpError::Status { status, .. } => *status == 429 || (500..600).contains(status),
            HttpError::Json(_) | HttpError::BadJob { .. } => false,
        }
    }
}

/// How a submitted stream ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Submitted {
    /// 200 after the whole stream (up to `bestmove`) was sent.
    Done,
    /// The broker closed the stream before its end: the requester left (lila-engine answers
    /// 200 at once and closes), or the job was gone.
    Closed,
    /// 404: the job was unknown or had expired (submitted too late).
    Late,
    /// 400: the broker refused a line.
    Refused,
}

/// A client for one lila and one broker.
#[derive(Debug, Clone)]
pub struct Lichess {
    agent: ureq::Agent,
    lila: String,
    broker: String,
    token: String,
}

impl Lichess {
    /// A client for `lila` and `broker` (base URLs, trailing `/` ignored), with `token` for
    /// lila.
    pub fn new(lila: &str, broker: &str, token: String) -> Lichess {
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .user_agent(format!("fenguard/{}", env!("CARGO_PKG_VERSION")))
            .timeout_connect(Some(Duration::from_secs(10)))
            .build();
        Lichess {
            agent: config.into(),
            lila: lila.trim_end_matches('/').to_owned(),
            broker: broker.trim_end_matches('/').to_owned(),
            token,
        }
    }

    fn bearer(&self) -> String {
        format!("Bearer {}", self.token)
    }

    /// Registers the engine, or updates the one of the same name (as lichess's example
    /// provider does); returns its id. A failure lila may recover from (no answer, 429, 5xx)
    /// is tried again, [`REGISTER_TRIES`] times in all, waiting 1 s and then ×1.5.
    ///
    /// Providers started at once may each find no engine of the name and each register one:
    /// [`SETTLE`] after registering, the engines of the name are listed again and the one with
    /// the smallest id is kept by all of them (each deletes its own when it is not that one).
    /// A rival's registration follows its listing by one round trip, and that listing came
    /// before this registration (else it would have updated this one), so after `SETTLE` every
    /// rival's engine is in the list.
    ///
    /// # Errors
    /// [`HttpError`] for a failed call (401: a bad token; 400: a field lila refuses).
    pub fn register(&self, registration: &Registration) -> Result<String, HttpError> {
        let mut wait = Duration::from_secs(1);
        for _ in 1..REGISTER_TRIES {
            match self.register_once(registration) {
                Err(e) if e.is_transient() => {
                    tracing::warn!("registration: {e}; next try in {} ms", wait.as_millis());
                    std::thread::sleep(wait);
                    wait = wait.mul_f64(1.5);
                }
                done => return done,
            }
        }
        self.register_once(registration)
    }

    fn register_once(&self, registration: &Registration) -> Result<String, HttpError> {
        let url = format!("{}/api/external-engine", self.lila);
        let body = serde_json::to_string(registration)?;
        let existing = self.same_name(&registration.name)?.into_iter().next();
        let request = match &existing {
            Some(id) => self.agent.put(&format!("{url}/{id}")),
            None => self.agent.post(&url),
        };
        let mut answer = request
            .header("Authorization", self.bearer())
            .content_type("application/json")
            .config()
            .timeout_global(Some(CALL_TIMEOUT))
            .build()
            .send(body.as_bytes())?;
        let engine: Registered = serde_json::from_str(&expect_ok(&mut answer)?)?;
        if existing.is_some() {
            return Ok(engine.id);
        }
        std::thread::sleep(SETTLE);
        let kept = self
            .same_name(&registration.name)?
            .into_iter()
            .next()
            .unwrap_or_else(|| engine.id.clone());
        if kept != engine.id {
            tracing::info!(
                "{:?} was registered twice at once ({kept} and {}): keeping {kept}",
                registration.name,
                engine.id
            );
            let mut gone = self
                .agent
                .delete(&format!("{url}/{}", engine.id))
                .header("Authorization", self.bearer())
                .config()
                .timeout_global(Some(CALL_TIMEOUT))
                .build()
                .call()?;
            expect_ok(&mut gone)?;
        }
        Ok(kept)
    }

    /// The ids of the token's engines named `name`, smallest first.
    fn same_name(&self, name: &str) -> Result<Vec<String>, HttpError> {
        let mut listed = self
            .agent
            .get(&format!("{}/api/external-engine", self.lila))
            .header("Authorization", self.bearer())
            .config()
            .timeout_global(Some(CALL_TIMEOUT))
            .build()
            .call()?;
        let engines: Vec<Registered> = serde_json::from_str(&expect_ok(&mut listed)?)?;
        let mut ids: Vec<String> = engines
            .into_iter()
            .filter(|e| e.name == name)
            .map(|e| e.id)
            .collect();
        ids.sort();
        Ok(ids)
    }

    /// One long poll for work: a job, or `None` when the broker had none (204).
    ///
    /// # Errors
    /// [`HttpError`] for a failed call or an answer that is not a job.
    pub fn acquire(&self, secret: &str) -> Result<Option<Job>, HttpError> {
        let body = serde_json::json!({ "providerSecret": secret }).to_string();
        let mut answer = self
            .agent
            .post(&format!("{}/api/external-engine/work", self.broker))
            .content_type("application/json")
            .config()
            .timeout_global(Some(POLL_TIMEOUT))
            .build()
            .send(body.as_bytes())?;
        if answer.status() == 204 {
            return Ok(None);
        }
        let value: serde_json::Value = serde_json::from_str(&expect_ok(&mut answer)?)?;
        let id = value
            .get("id")
            .and_then(serde_json::Value::as_str)
            .map(str::to_owned);
        match (serde_json::from_value::<Job>(value), id) {
            (Ok(job), _) => Ok(Some(job)),
            (Err(error), Some(id)) => Err(HttpError::BadJob { id, error }),
            (Err(error), None) => Err(error.into()),
        }
    }

    /// Streams `output` (read until its end) as the analysis of job `id`. Each read of
    /// `output` is sent as one chunk at once (ureq's chunked body), so lines reach the
    /// requester as the engine prints them.
    ///
    /// # Errors
    /// [`HttpError`] for a broker that cannot be reached or answers another status.
    pub fn submit(&self, id: &str, output: &mut dyn Read) -> Result<Submitted, HttpError> {
        let sent = self
            .agent
            .post(&format!("{}/api/external-engine/work/{id}", self.broker))
            .content_type("text/plain")
            .config()
            .timeout_recv_response(Some(CALL_TIMEOUT))
            .build()
            .send(ureq::SendBody::from_reader(output));
        let mut answer = match sent {
            Ok(answer) => answer,
            Err(ureq::Error::Io(_) | ureq::Error::Protocol(_)) => return Ok(Submitted::Closed),
            Err(e) => return Err(e.into()),
        };
        match answer.status().as_u16() {
            200..=299 => Ok(Submitted::Done),
            404 => Ok(Submitted::Late),
            400 => {
                let body = read_some(&mut answer);
                tracing::warn!("the broker refused a line of job {id}: {body}");
                Ok(Submitted::Refused)
            }
            status => Err(HttpError::Status {
                status,
                body: read_some(&mut answer),
            }),
        }
    }
}

/// The body of a 2xx answer, else the status as an error.
fn expect_ok(answer: &mut ureq::http::Response<ureq::Body>) -> Result<String, HttpError> {
    let status = answer.status().as_u16();
    if !(200..300).contains(&status) {
        return Err(HttpError::Status {
            status,
            body: read_some(answer),
        });
    }
    Ok(answer.body_mut().read_to_string()?)
}

/// The first 200 characters of a body on one line (blank runs as one space), for a message:
/// a proxy's HTML error page stays one log line.
fn read_some(answer: &mut ureq::http::Response<ureq::Body>) -> String {
    let text = answer.body_mut().read_to_string().unwrap_or_default();
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    one_line.chars().take(200).collect()
}
