//! `fenguard log --html` against what a client can put in a log (issue 30): a game resent
//! move by move for 2,000 moves, then again with every line rejected, under a 512 MiB
//! address-space limit (the report used to expand every line in full: more than 500 MB of
//! memory for the valid half, 24 MB of page for the rejected one); a `gap` record shown as a
//! row; text that would end the data block (`</script>`) kept inside it.

use std::fmt::Write as _;
use std::process::{Command, Output};

use crate::view_html::{bodies, report_items, shown};

const SHUFFLE: [&str; 4] = ["g1f3", "g8f6", "f3g1", "f6g8"];

/// The placement after `ply` plies of the knight shuffle.
fn shuffled(ply: usize) -> &'static str {
    match ply % 4 {
        1 => "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R",
        2 => "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R",
        3 => "rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR",
        _ => "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    }
}

/// One session, written as fenguard's writer does (compact records): `lines` `position
/// startpos moves ...` lines each one move longer than the last (a knight shuffle, valid),
/// then `lines` more with an illegal first move (`e2e5 ...`, every record rejected); each line
/// with its `go` and its search.
fn growing_log(lines: usize) -> String {
    let mut log = String::from(
        r#"{"ts":"2026-12-03T10:00:00.000000Z","session":"g","seq":1,"kind":"engine-start","command":"/usr/games/stockfish","args":[],"pid":1,"restart":0}"#,
    );
    log.push('\n');
    let diag = r#"[{"code":"illegal-move","severity":"error","message":"move 1 `e2e5` is illegal in rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","span":[24,28],"fix":null}]"#;
    let mut seq = 1;
    for rejected in [false, true] {
        let mut raw = String::from(match rejected {
            true => "position startpos moves e2e5",
            false => "position startpos moves",
        });
        let mut last = 0;
        for k in 0..lines {
            let mv = SHUFFLE[k % 4];
            seq += 1;
            let ts = format!(
                "2026-12-03T10:{:02}:{:02}.{:06}Z",
                seq / 60000,
                seq / 1000 % 60,
                seq % 1000
            );
            let (verdict, diagnostics, fen_out, out, final_fen, sent) = match rejected {
                true => (
                    "rejected",
                    diag,
                    "null",
                    String::new(),
                    "null".to_owned(),
                    "null",
                ),
                false => {
                    let side = if (k + 1) % 2 == 1 { "b" } else { "w" };
                    let fen = format!(
                        "\"{} {side} KQkq - {} {}\"",
                        shuffled(k + 1),
                        k + 1,
                        1 + k.div_ceil(2)
                    );
                    ("valid", "[]", "\"startpos\"", format!("\"{mv}\""), fen, "")
                }
            };
            let head = format!(r#"{{"ts":"{ts}","session":"g","seq":{seq},"kind":"position","#);
            let tail = format!(r#""chess960":false,"final_fen":{final_fen},"#);
            let prefix = raw.len();
            raw.push(' ');
            raw.push_str(mv);
            if k == 0 {
                let moves = if rejected {
                    format!(r#""e2e5","{mv}""#)
                } else {
                    format!(r#""{mv}""#)
                };
                let sent = if rejected {
                    "null".to_owned()
                } else {
                    format!("\"{raw}\"")
                };
                let _ = writeln!(
                    log,
                    r#"{head}"raw":"{raw}","verdict":"{verdict}","diagnostics":{diagnostics},"fen_in":"startpos","fen_out":{fen_out},"moves_in":[{moves}],"moves_out":[{out}],{tail}"sent":{sent}}}"#
                );
            } else {
                let sent = match sent {
                    "null" => "\"sent\":null".to_owned(),
                    _ => format!(r#""sent_prefix":{prefix},"sent_tail":" {mv}""#),
                };
                let _ = writeln!(
                    log,
                    r#"{head}"extends":{last},"raw_prefix":{prefix},"raw_tail":" {mv}","verdict":"{verdict}","diagnostics":{diagnostics},"fen_in":"startpos","fen_out":{fen_out},"moves_in_tail":["{mv}"],"moves_out_tail":[{out}],{tail}{sent}}}"#
                );
            }
            last = seq;
            let (best, answer) = match rejected {
                true => ("0000", r#","fenguard_answer":"rejected-position""#),
                false => (SHUFFLE[(k + 1) % 4], ""),
            };
            let _ = writeln!(
                log,
                r#"{{"ts":"{ts}","session":"g","seq":{},"kind":"command","raw":"go nodes 1000"}}"#,
                seq + 1
            );
            let _ = writeln!(
                log,
                r#"{{"ts":"{ts}","session":"g","seq":{},"kind":"search","position_seq":{seq},"go":"go nodes 1000","bestmove":"{best}","ponder":null,"elapsed_ms":3,"diagnostics":[]{answer}}}"#,
                seq + 2
            );
            seq += 2;
        }
    }
    log
}

/// `fenguard log --html FILE` with its address space limited to `limit` bytes.
fn html_limited(file: &std::path::Path, limit: u64) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_fenguard"));
    command.args(["log", "--html"]).arg(file);
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt as _;
        // SAFETY: setrlimit is async-signal-safe; the struct lives on this stack.
        unsafe {
            command.pre_exec(move || {
                let limit = libc::rlimit {
                    rlim_cur: limit,
                    rlim_max: limit,
                };
                if libc::setrlimit(libc::RLIMIT_AS, &raw const limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    command.output().expect("fenguard log --html")
}

#[test]
fn a_game_resent_2000_times_makes_a_small_page_in_bounded_memory() {
    let dir = crate::common::test_dir("view_html_growing");
    let file = dir.join("positions.jsonl");
    let log = growing_log(2000);
    std::fs::write(&file, &log).expect("write the log");
    let o = html_limited(&file, 512 << 20);
    assert_eq!(
        o.status.code(),
        Some(0),
        "under 512 MiB: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let page = String::from_utf8_lossy(&o.stdout);
    // The page grows with the log, not with the square of the game: about 2x the log here
    // (each record's boards drawn), where the full lines alone would be 20 MB.
    assert!(
        page.len() < 4 * log.len(),
        "page {} bytes for a log of {}",
        page.len(),
        log.len()
    );
    let items = report_items(&page);
    let positions: Vec<_> = shown(&items)
        .into_iter()
        .filter(|i| i["k"] == "position")
        .collect();
    assert_eq!(positions.len(), 4000);
    // Valid positions: drawn by the script from the final FEN, the bestmove as an arrow.
    let valid = &positions[1999];
    assert_eq!(valid["m"], serde_json::json!([1999, ["f6g8"]]), "{valid}");
    assert_eq!(valid["b"], "g1f3");
    assert_eq!(
        valid["f"],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2000 1001"
    );
    // The last line is its predecessor's item, cut and extended: the script rebuilds it.
    let last = positions.last().expect("the last position");
    let before = items.len() - 3; // the last position, its `go`, its search
    assert_eq!(last["r"][2], " f6g8", "{last}");
    assert_eq!(last["r"][1], 28 + 5 * 1999);
    assert!(last["r"][0].as_u64().is_some_and(|i| (i as usize) < before));
    assert_eq!(last["v"], "rejected");
    assert!(bodies(&items).contains("<pre data-gui></pre>"));
}

#[test]
fn a_gap_is_a_row_and_hostile_text_stays_in_the_data() {
    let dir = crate::common::test_dir("view_html_gap");
    let file = dir.join("positions.jsonl");
    let log = concat!(
        r#"{"ts":"2026-12-03T10:00:00.000001Z","session":"s","seq":1,"kind":"engine-start","command":"/usr/games/stockfish","args":[],"pid":1,"restart":0}"#,
        "\n",
        r#"{"ts":"2026-12-03T10:00:00.000002Z","session":"s","seq":9,"kind":"gap","lost":7,"first_seq":2,"last_seq":8}"#,
        "\n",
        r#"{"ts":"2026-12-03T10:00:00.000003Z","session":"s","seq":10,"kind":"option","name":"</script><script>alert(1)</script>","value":"<!--"}"#,
        "\n",
        r#"{"ts":"2026-12-03T10:00:00.000004Z","session":"s","seq":11,"kind":"position","raw":"position startpos moves e2e4 </script><img src=x onerror=alert(1)>","verdict":"rejected","diagnostics":[{"code":"illegal-move","severity":"error","message":"move 2 `</script>` is illegal","span":[29,38],"fix":null}],"fen_in":"startpos","fen_out":null,"moves_in":["e2e4","</script><img"],"moves_out":[],"chess960":false,"final_fen":null,"sent":null}"#,
        "\n",
    );
    std::fs::write(&file, log).expect("write the log");
    let o = Command::new(env!("CARGO_BIN_EXE_fenguard"))
        .args(["log", "--html"])
        .arg(&file)
        .output()
        .expect("fenguard log --html");
    assert_eq!(o.status.code(), Some(0));
    let page = String::from_utf8_lossy(&o.stdout);
    // Only the page's own scripts: the data's `<` are all `\u003c`.
    assert_eq!(page.matches("<script").count(), 3, "{page}");
    assert_eq!(page.matches("</script>").count(), 3, "{page}");
    assert!(!page.contains("<img") && !page.contains("<!--"), "{page}");
    let items = report_items(&page);
    let gap = shown(&items)
        .into_iter()
        .find(|i| i["k"] == "gap")
        .expect("the gap");
    assert_eq!(
        gap["h"],
        "<p class=\"gap\"><b>7 records lost (seq 2–8)</b></p>"
    );
    let html = bodies(&items);
    let option = shown(&items)
        .into_iter()
        .find(|i| i["k"] == "option")
        .expect("the option");
    assert_eq!(option["F"][0][1], "</script><script>alert(1)</script>");
    assert!(
        html.contains("move 2 `&lt;/script&gt;` is illegal"),
        "{html}"
    );
}
