//! The built fenguard when the engine dies in the middle of a line or of its `uci` handshake:
//! the GUI gets whole lines only, `bestmove 0000` for the lost search, and one coherent
//! handshake (Linux: signals).
#![cfg(target_os = "linux")]

use crate::common;

use common::Gui;

#[test]
fn engine_killed_while_writing_bestmove_gives_bestmove_0000_not_the_fragment() {
    let mut gui = Gui::fake_ready("more-partial-bestmove", "");
    gui.send("position startpos");
    gui.send("go infinite");
    gui.send("partial bestmove e2");
    assert_eq!(
        gui.read_until_prefix("bestmove "),
        [
            "info string fenguard: engine exited (signal 6)",
            "bestmove 0000"
        ]
    );
}

#[test]
fn fragment_of_the_engines_last_line_is_logged() {
    let mut gui = Gui::fake_ready("more-partial-log", "");
    gui.send("position startpos");
    gui.send("go infinite");
    gui.send("partial bestmove e2");
    gui.read_until_prefix("bestmove ");
    gui.proxy.wait_log(
        "fenguard.log",
        "engine output ended inside a line: `bestmove e2` (not relayed)",
    );
}

#[test]
fn search_lost_in_a_fragment_is_recorded_with_bestmove_0000() {
    let mut gui = Gui::fake_ready("more-partial-record", "");
    gui.send("position startpos");
    gui.send("go infinite");
    gui.send("partial bestmove e2");
    gui.read_until_prefix("bestmove ");
    let search = gui.wait_record(|r| r["kind"] == "search");
    assert_eq!(search["bestmove"], "0000", "{search}");
    assert_eq!(search["diagnostics"], serde_json::json!([]), "{search}");
}

#[test]
fn info_fragment_never_reaches_the_gui_and_the_game_goes_on() {
    let mut gui = Gui::fake_ready("more-partial-info", "");
    gui.send("position startpos");
    gui.send("go infinite");
    gui.send("partial info depth 5 score cp 1");
    gui.read_until_prefix("bestmove ");
    gui.read_until(|l| l.starts_with("info string fenguard: engine restarted (restart 1)"));
    assert_eq!(gui.go("go depth 1"), ["bestmove e2e4"]);
    let out = String::from_utf8_lossy(&gui.proxy.stdout()).into_owned();
    assert!(!out.contains("info depth 5"), "{out}");
}

/// fenguard in front of a fake engine whose first start dies after writing the first
/// `lines` lines of its `uci` answer; later starts answer in full.
fn dying_in_the_handshake(name: &str, lines: usize) -> common::Proxy {
    let dir = common::test_dir(name);
    let flag = dir.join("started-once");
    let script = format!(
        "if [ -e '{flag}' ]; then exec '{engine}'; else : > '{flag}'; \
         FAKE_ENGINE_UCI_LINES={lines} exec '{engine}'; fi",
        flag = flag.display(),
        engine = common::FAKE_ENGINE,
    );
    common::Proxy::start(&dir, &["--", "/bin/sh", "-c", &script], &[])
}

fn lines_to_uciok(proxy: &mut common::Proxy) -> Vec<String> {
    proxy.send(b"uci\n");
    let out = proxy.wait_for("uciok\n");
    let text = String::from_utf8_lossy(&out).into_owned();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let uciok = lines.iter().position(|l| l == "uciok").expect("uciok");
    lines.truncate(uciok + 1);
    lines
}

#[test]
fn crash_in_the_middle_of_the_handshake_shows_the_gui_one_coherent_handshake() {
    let mut proxy = dying_in_the_handshake("more-handshake", 3);
    let lines = lines_to_uciok(&mut proxy);
    let engine_lines: Vec<&str> = lines
        .iter()
        .map(String::as_str)
        .filter(|l| !l.starts_with("option name fenguard "))
        .collect();
    assert_eq!(
        engine_lines,
        [
            "id name FakeEngine",
            "id author fenguard tests",
            "option name Hash type spin default 16 min 1 max 1024",
            "info string fenguard: engine exited (signal 6)",
            "option name UCI_Chess960 type check default false",
            "uciok"
        ]
    );
}

#[test]
fn crash_right_after_the_id_lines_shows_every_handshake_line_once() {
    let mut proxy = dying_in_the_handshake("more-handshake-ids", 2);
    let lines = lines_to_uciok(&mut proxy);
    for line in lines.iter().filter(|l| !l.starts_with("info string ")) {
        let times = lines.iter().filter(|l| *l == line).count();
        assert_eq!(times, 1, "{line:?} in {lines:#?}");
    }
    assert_eq!(lines.len(), 13, "{lines:#?}");
    proxy.send(b"isready\n");
    proxy.wait_for("readyok\n");
}
