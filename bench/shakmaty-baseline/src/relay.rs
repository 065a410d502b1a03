//! `shakmaty-baseline relay ENGINE [ARGS...]`: the floor of an exact position check for
//! `scripts/bench-relay`. It is a byte relay like `bench/byte_relay.c`, with two threads and
//! one write per read. Each `position fen FEN moves M...` line from stdin is checked with
//! shakmaty alone, before it is forwarded. The FEN is parsed and validated
//! (`into_position::<Chess>`, standard castling), each move is read and checked for legality
//! (`UciMove::to_move`) and played. The line sent is rebuilt with the canonical FEN
//! (`Fen::from_position`, legal en passant square), and the FEN after the moves is written as
//! the log would. A line that fails is dropped; a CRLF line is read without its CR, and the
//! input's last line without an end is ended. There are no diagnostics, no log, no Chess960 and
//! no variants: it is the least an exact relay must do with such a line.

use std::io::{Read, Write};
use std::process::{Command, Stdio};

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

/// The line to send for the body of a GUI line (`None`: dropped); the final FEN's length is
/// added to `sink` so that the compiler keeps it.
fn check(body: &[u8], sink: &mut usize) -> Option<Vec<u8>> {
    let Some(rest) = body.strip_prefix(b"position fen ") else {
        return Some(body.to_vec());
    };
    let (fen, moves) = match rest.windows(7).position(|w| w == b" moves ") {
        Some(at) => (&rest[..at], &rest[at + 7..]),
        None => (rest, &b""[..]),
    };
    let mut pos: Chess = Fen::from_ascii(fen)
        .ok()?
        .into_position(CastlingMode::Standard)
        .ok()?;
    let mut sent = Vec::with_capacity(body.len() + 16);
    sent.extend_from_slice(b"position fen ");
    sent.extend_from_slice(
        Fen::from_position(&pos, EnPassantMode::Legal)
            .to_string()
            .as_bytes(),
    );
    if !moves.is_empty() {
        sent.extend_from_slice(b" moves");
    }
    for m in moves.split(|&b| b == b' ').filter(|m| !m.is_empty()) {
        let mv = UciMove::from_ascii(m).ok()?.to_move(&pos).ok()?;
        pos.play_unchecked(mv);
        sent.push(b' ');
        sent.extend_from_slice(m);
    }
    *sink += Fen::from_position(&pos, EnPassantMode::Legal)
        .to_string()
        .len();
    Some(sent)
}

/// Runs the relay around `engine` until the engine closes its stdout; its exit status.
pub fn run(engine: &[std::ffi::OsString]) -> std::io::Result<i32> {
    let mut child = Command::new(&engine[0])
        .args(&engine[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()?;
    let mut to_engine = child.stdin.take().expect("piped");
    let mut from_engine = child.stdout.take().expect("piped");
    std::thread::spawn(move || {
        let mut stdin = std::io::stdin().lock();
        let mut buf = vec![0u8; 1 << 16];
        let mut pending = Vec::new();
        let mut out = Vec::new();
        let mut sink = 0;
        loop {
            let n = match stdin.read(&mut buf) {
                Ok(0) | Err(_) => 0,
                Ok(n) => n,
            };
            pending.extend_from_slice(&buf[..n]);
            if n == 0 && !pending.is_empty() {
                // The input's last line, with no end: ended here, as fenguard does.
                pending.push(b'\n');
            }
            let mut start = 0;
            while let Some(end) = pending[start..].iter().position(|&b| b == b'\n') {
                let line = &pending[start..start + end];
                let line = line.strip_suffix(b"\r").unwrap_or(line);
                if let Some(sent) = check(line, &mut sink) {
                    out.extend_from_slice(&sent);
                    out.push(b'\n');
                }
                start += end + 1;
            }
            pending.drain(..start);
            if to_engine.write_all(&out).is_err() || n == 0 {
                break;
            }
            out.clear();
        }
        std::hint::black_box(sink);
    });
    let mut stdout = std::io::stdout().lock();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        match from_engine.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                if stdout
                    .write_all(&buf[..n])
                    .and_then(|()| stdout.flush())
                    .is_err()
                {
                    break;
                }
            }
        }
    }
    Ok(child.wait()?.code().unwrap_or(1))
}
