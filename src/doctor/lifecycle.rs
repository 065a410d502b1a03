//! The engine's end: `quit` with no search running, and the end of its input (a GUI that
//! dies closes the pipe; fastchess waits 60 s for an engine that does not exit on it, GNU
//! Chess does not). Each on a fresh engine, which must exit within 5 s.

use std::time::{Duration, Instant};

use super::driver::Ctx;
use super::report::{CheckResult, Status};

const G: &str = "search";
/// How long the engine has to exit.
const EXIT: Duration = Duration::from_secs(5);

/// `search.quit-idle` and `search.eof`.
pub fn run(ctx: &mut Ctx) -> Vec<CheckResult> {
    vec![end(ctx, "quit-idle", true), end(ctx, "eof", false)]
}

fn end(ctx: &mut Ctx, name: &str, quit: bool) -> CheckResult {
    ctx.step(&format!("{G}.{name}"));
    ctx.fresh(&[]);
    let what = if quit {
        ctx.engine.send(b"quit");
        "`quit` with no search running"
    } else {
        ctx.engine.note("(input closed)");
        ctx.engine.close_input();
        "the end of its input"
    };
    let t = Instant::now();
    let (status, detail) = match ctx.engine.wait_exit(EXIT) {
        None => (
            Status::Fail,
            format!(
                "still running {} s after {what}{}",
                EXIT.as_secs(),
                if quit {
                    ""
                } else {
                    " (a GUI that dies leaves it behind; fastchess waits 60 s)"
                }
            ),
        ),
        Some(s) if s.success() => (
            Status::Pass,
            format!("exited in {} ms after {what}", t.elapsed().as_millis()),
        ),
        Some(s) => (
            Status::Fail,
            format!("{what}: {}", super::engine::describe_exit(s)),
        ),
    };
    let r = ctx.finish(CheckResult::new(G, name, status, detail));
    ctx.fresh(&[]);
    r
}
