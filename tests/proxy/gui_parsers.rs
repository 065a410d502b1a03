//! fenguard's own lines against what GUIs' engine parsers react to (issue 9 class 6; the
//! README's "What GUIs' engine parsers react to"): the announced `option name fenguard ...`
//! lines parse the same in pychess, cutechess, python-chess, ChessX and vampirc-uci (En
//! Croissant), and `info string fenguard: ...` texts carry no word polyglot, pychess or ChessX
//! read as an info field.

use crate::common;

use common::Gui;

/// The words UCI option lines are split on (pychess OPTKEYS, cutechess, python-chess, ChessX).
const OPTION_KEYWORDS: [&str; 6] = ["name", "type", "default", "min", "max", "var"];

/// polyglot's info keywords (`uci.c`, `parse_info`): `info string` text is cut at the first.
const INFO_KEYWORDS: [&str; 16] = [
    "cpuload",
    "currline",
    "currmove",
    "currmovenumber",
    "depth",
    "hashfull",
    "multipv",
    "nodes",
    "nps",
    "pv",
    "refutation",
    "score",
    "seldepth",
    "string",
    "tbhits",
    "time",
];

/// `(name, type, default, vars)` of an `option` line read the way the GUIs read it.
fn parse_option(line: &str) -> (String, String, String, Vec<String>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words[..2], ["option", "name"], "{line}");
    let mut fields: Vec<(&str, Vec<&str>)> = Vec::new();
    for w in &words[1..] {
        if OPTION_KEYWORDS.contains(w) {
            fields.push((w, Vec::new()));
        } else {
            fields.last_mut().expect("a keyword first").1.push(w);
        }
    }
    let one = |key: &str| {
        let found: Vec<String> = fields
            .iter()
            .filter(|(k, _)| *k == key)
            .map(|(_, v)| v.join(" "))
            .collect();
        found.first().cloned().unwrap_or_default()
    };
    let vars = fields
        .iter()
        .filter(|(k, _)| *k == "var")
        .map(|(_, v)| v.join(" "))
        .collect();
    (one("name"), one("type"), one("default"), vars)
}

#[test]
fn announced_options_parse_the_same_in_every_gui() {
    let mut gui = Gui::fake("gui-parsers-options", "", &[]);
    let lines = gui.handshake();
    let ours: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("option name fenguard "))
        .collect();
    assert!(ours.len() >= 7, "{lines:#?}");
    for line in ours {
        let (name, kind, default, vars) = parse_option(line);
        assert!(name.starts_with("fenguard "), "{line}");
        // vampirc-uci: no name word starting with `type`, no combo value starting with
        // `var`, `min` or `max` (case-insensitive prefixes).
        for word in name.split(' ') {
            assert!(!word.to_lowercase().starts_with("type"), "{line}");
        }
        for value in vars.iter().chain([&default]) {
            let lower = value.to_lowercase();
            for prefix in ["var", "min", "max"] {
                assert!(!lower.starts_with(prefix), "{line}");
            }
        }
        match kind.as_str() {
            "combo" => assert!(vars.contains(&default), "default not a var: {line}"),
            "check" => assert!(default == "true" || default == "false", "{line}"),
            other => panic!("unexpected option type {other}: {line}"),
        }
    }
}

#[test]
fn info_strings_carry_no_info_keyword() {
    let mut gui = Gui::fake_ready("gui-parsers-info", "");
    let mut reports = Vec::new();
    for line in [
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen 4k3/8/8/8/8/8/8/Q3K3 w - 0 120",
        "position fen 4k3/8/8/8/8/8/8/Q3K3 w - - 120",
        "position fen 4k3/8/8/8/4P3/8/8/4K3 b e3 KQ 0",
        "position fen 4k3/8/8/8/8/8/8/4K2R w KQ - 0 1",
        "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 0",
        "position startpos moves e2e5",
        "position startpos moves e2e4 0000",
        "position blah",
        "setoption name fenguard Castling value fancy",
    ] {
        gui.send(line);
        reports.extend(gui.sync());
    }
    let ours: Vec<&String> = reports
        .iter()
        .filter(|l| l.starts_with("info string fenguard: "))
        .collect();
    assert!(ours.len() >= 10, "{reports:#?}");
    for line in ours {
        let text = &line["info string ".len()..];
        for word in text.split_whitespace() {
            assert!(!INFO_KEYWORDS.contains(&word), "`{word}` in {line}");
        }
        assert!(line.len() < 4096, "{line}");
    }
}
