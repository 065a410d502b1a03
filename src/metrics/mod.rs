//! Metrics for operators of `fenguard serve` and `fenguard provide` (issue 18, SPEC 13).

pub mod config;

/// Stub until the metrics listener lands: the process's health as the shell sees it.
#[derive(Debug, Clone, Default)]
pub struct Health;

impl Health {
    /// Healthy.
    pub fn new() -> Health {
        Health
    }
    /// Healthy again.
    pub fn set_healthy(&self) {}
    /// Unhealthy, for `reason`.
    pub fn set_unhealthy(&self, reason: String) {
        let _ = reason;
    }
}
