//! How to start the engine, kept for its restarts: the resolved program, its arguments and the
//! `[engine]` configuration, and the session's start event for each process.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Instant;

use super::engine::{self, Engine, EngineError};
use crate::config::EngineConfig;
use crate::session::{Action, Input, Session};

/// The engine command line and its settings.
#[derive(Debug, Clone)]
pub struct EngineCommand {
    /// The resolved program.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<OsString>,
    /// `[engine]`: working directory, environment.
    pub config: EngineConfig,
}

impl EngineCommand {
    /// Starts the engine (see [`engine::spawn`]: call it on the main thread).
    ///
    /// # Errors
    /// [`EngineError::Spawn`] when the process cannot be started.
    pub fn spawn(&self) -> Result<Engine, EngineError> {
        engine::spawn(&self.program, &self.args, &self.config)
    }

    /// Tells `session` that the engine with process id `pid` started now; gives its actions.
    pub fn started(&self, session: &mut Session, pid: Option<u32>) -> Vec<Action> {
        let input = Input::EngineStarted {
            command: self.program.display().to_string(),
            args: self
                .args
                .iter()
                .map(|a| a.to_string_lossy().into_owned())
                .collect(),
            pid,
        };
        session.handle(input, Instant::now())
    }
}
