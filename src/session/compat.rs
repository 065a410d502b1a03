//! The entry points from before [`Session::handle`], kept for the shells until they call
//! `handle` (each one [`Input`] at a time). Hidden from the docs; the ones without a time take
//! the clock's.

use std::time::{Duration, Instant};

use bytes::Bytes;

use super::{Action, EngineExit, Input, Session};

#[doc(hidden)]
impl Session {
    /// [`Input::EngineStarted`] now.
    pub fn on_engine_start(
        &mut self,
        command: String,
        args: Vec<String>,
        pid: Option<u32>,
    ) -> Vec<Action> {
        self.on_engine_start_at(command, args, pid, None)
    }

    /// [`Input::EngineStarted`] at `now` (the clock's when `None`).
    pub fn on_engine_start_at(
        &mut self,
        command: String,
        args: Vec<String>,
        pid: Option<u32>,
        now: Option<Instant>,
    ) -> Vec<Action> {
        let input = Input::EngineStarted { command, args, pid };
        self.handle(input, now.unwrap_or_else(Instant::now))
    }

    /// [`Input::GuiLine`] now.
    pub fn on_gui_line(&mut self, line: Bytes) -> Vec<Action> {
        self.handle(Input::GuiLine(line), Instant::now())
    }

    /// [`Input::GuiLine`] at `now`.
    pub fn on_gui_line_at(&mut self, line: Bytes, now: Instant) -> Vec<Action> {
        self.handle(Input::GuiLine(line), now)
    }

    /// [`Input::GuiPiece`] now.
    pub fn on_gui_overlong(&mut self, chunk: Bytes, first: bool) -> Vec<Action> {
        self.handle(Input::GuiPiece { chunk, first }, Instant::now())
    }

    /// [`Input::GuiEof`] now.
    pub fn on_gui_eof(&mut self) -> Vec<Action> {
        self.handle(Input::GuiEof, Instant::now())
    }

    /// [`Input::EngineLine`] now.
    pub fn on_engine_line(&mut self, line: Bytes) -> Vec<Action> {
        self.handle(Input::EngineLine(line), Instant::now())
    }

    /// [`Input::EngineLine`] at `now`.
    pub fn on_engine_line_at(&mut self, line: Bytes, now: Instant) -> Vec<Action> {
        self.handle(Input::EngineLine(line), now)
    }

    /// [`Input::EnginePiece`] now.
    pub fn on_engine_overlong(&mut self, chunk: Bytes, first: bool) -> Vec<Action> {
        self.handle(Input::EnginePiece { chunk, first }, Instant::now())
    }

    /// [`Input::EngineExited`] now.
    pub fn on_engine_exit(&mut self, exit: EngineExit) -> Vec<Action> {
        self.on_engine_exit_at(exit, None)
    }

    /// [`Input::EngineExited`] at `now` (the clock's when `None`).
    pub fn on_engine_exit_at(&mut self, exit: EngineExit, now: Option<Instant>) -> Vec<Action> {
        self.handle(Input::EngineExited(exit), now.unwrap_or_else(Instant::now))
    }

    /// [`Input::Tick`] at `now`.
    pub fn on_tick(&mut self, now: Instant) -> Vec<Action> {
        self.handle(Input::Tick, now)
    }

    /// [`Input::EngineBacklog`] at `now`.
    pub fn on_engine_backlog_at(&mut self, now: Instant) {
        self.handle(Input::EngineBacklog, now);
    }

    /// [`Input::EngineInputStalled`] now.
    pub fn on_engine_input_stalled(&mut self, stalled: Duration) -> Vec<Action> {
        self.handle(Input::EngineInputStalled(stalled), Instant::now())
    }

    /// [`Input::DeferDeadlines`].
    pub fn defer_deadlines(&mut self, until: Instant) {
        self.handle(Input::DeferDeadlines { until }, until);
    }
}
