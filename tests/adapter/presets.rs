//! `[engine.options]`, `options_mode`, `hide_options`, `rename_options`, `id_name`,
//! `id_author` (SPEC section 15).

use crate::common::{Gui, starting_with};

const PRESETS: &str = "[engine]\nid_name = \"Renamed Engine\"\nid_author = \"Someone\"\n\
    hide_options = [\"uci_chess960\"]\n[engine.options]\nHash = 64\nNoSuchOption = 1\n";

/// The presets reach the engine after its `uciok`, and again after it crashed and was
/// restarted: the searching engine has them.
#[test]
fn presets_are_set_at_start_and_restored_after_a_crash() {
    let mut gui = Gui::fake(
        "presets_crash",
        PRESETS,
        &[("FAKE_ENGINE_ECHO_OPTIONS", "1")],
    );
    let shown = gui.handshake();
    assert!(
        shown.contains(&"option name Hash type spin default 64 min 1 max 1024".to_owned()),
        "{shown:#?}"
    );
    let lines = gui.go("go depth 1");
    assert!(
        lines.contains(&"info string option Hash=64".to_owned()),
        "{lines:#?}"
    );
    assert!(
        !gui.engine_input().contains("NoSuchOption"),
        "{}",
        gui.engine_input()
    );
    gui.send("crash");
    gui.read_until_prefix("info string fenguard: engine restarted");
    let lines = gui.go("go depth 1");
    assert!(
        lines.contains(&"info string option Hash=64".to_owned()),
        "{lines:#?}"
    );
    let sent = gui.engine_lines();
    assert_eq!(
        starting_with(&sent, "setoption name Hash value 64").len(),
        2,
        "{sent:#?}"
    );
}

/// Under `options_mode = "default"` the GUI's value wins, also after a restart.
#[test]
fn the_gui_value_wins_by_default_also_after_a_restart() {
    let mut gui = Gui::fake(
        "presets_default",
        PRESETS,
        &[("FAKE_ENGINE_ECHO_OPTIONS", "1")],
    );
    gui.handshake();
    gui.send("setoption name Hash value 128");
    gui.sync();
    gui.send("crash");
    gui.read_until_prefix("info string fenguard: engine restarted");
    let lines = gui.go("go depth 1");
    assert!(
        lines.contains(&"info string option Hash=128".to_owned()),
        "{lines:#?}"
    );
    assert!(
        !lines.contains(&"info string option Hash=64".to_owned()),
        "{lines:#?}"
    );
}

/// Under `force`, the GUI's `setoption` for a preset is answered and not forwarded.
#[test]
fn force_wins_over_the_gui() {
    let toml = "[engine]\noptions_mode = \"force\"\n[engine.options]\nHash = 64\n";
    let mut gui = Gui::fake("presets_force", toml, &[("FAKE_ENGINE_ECHO_OPTIONS", "1")]);
    gui.handshake();
    gui.send("setoption name hash value 128");
    let lines = gui.sync();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string fenguard: option hash is set to 64")),
        "{lines:#?}"
    );
    let lines = gui.go("go depth 1");
    assert!(
        lines.contains(&"info string option Hash=64".to_owned()),
        "{lines:#?}"
    );
    assert!(
        !gui.engine_input().contains("value 128"),
        "{}",
        gui.engine_input()
    );
}

/// The GUI sees the configured identity, not the hidden option, and the renamed option under
/// its new name; its `setoption` for the new name reaches the engine under the old one.
#[test]
fn identity_hidden_and_renamed_options_as_the_gui_sees_them() {
    let toml = "[engine]\nid_name = \"Renamed Engine\"\nid_author = \"Someone\"\n\
        hide_options = [\"uci_chess960\"]\nrename_options = { Hash = \"Table Memory\" }\n";
    let mut gui = Gui::fake("presets_identity", toml, &[]);
    let shown = gui.handshake();
    assert_eq!(
        starting_with(&shown, "id "),
        ["id name Renamed Engine", "id author Someone"]
    );
    let options = starting_with(&shown, "option name ");
    assert!(
        options.contains(&"option name Table Memory type spin default 16 min 1 max 1024"),
        "{shown:#?}"
    );
    assert!(
        !shown
            .iter()
            .any(|l| l.contains("UCI_Chess960") || l.contains("name Hash")),
        "{shown:#?}"
    );
    gui.send("setoption name Table Memory value 32");
    let lines = gui.sync();
    assert!(
        lines.contains(&"info string option Hash = 32".to_owned()),
        "{lines:#?}"
    );
}

/// Stockfish gets the preset (`Threads`), and the GUI sees it as the option's default.
#[test]
fn stockfish_gets_its_preset() {
    let toml = "[engine.options]\nThreads = 2\nMultiPV = 2\n";
    let Some(mut gui) = Gui::stockfish("presets_stockfish", toml) else {
        return;
    };
    let shown = gui.handshake();
    assert!(
        shown
            .iter()
            .any(|l| l.starts_with("option name Threads type spin default 2 ")),
        "{shown:#?}"
    );
    let lines = gui.go("go depth 6");
    assert!(
        lines.iter().any(|l| l.contains(" multipv 2 ")),
        "{lines:#?}"
    );
}
