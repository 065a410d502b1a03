//! The HTML pages of `fenguard check --html` and `fenguard log --html` as text: one page,
//! every text escaped, a board per position (10x8 included), the bestmove arrow, unknown record
//! kinds listed. (The rendering in Chromium is `scripts/html_report_check.py`.)

use std::process::Command;

use crate::common::check::{check, stdout};

#[test]
fn check_html_escapes_the_input_and_draws_the_boards() {
    let input = "4k3/8/8/8/8/8/8/4K3 w K - 0 1\n<script>alert(1)</script>\n";
    let o = check(&["--html", "-"], input);
    assert_eq!(o.status.code(), Some(1));
    let page = stdout(&o);
    assert!(page.starts_with("<!DOCTYPE html>"), "{page}");
    assert!(!page.contains("<script>alert"), "{page}");
    assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(page.contains("<svg class=\"board\" viewBox=\"0 0 8 8\""));
    assert!(
        page.contains("<rect class=\"k-error\" x=\"7\" y=\"7\""),
        "h1 marked"
    );
    assert_eq!(
        page.matches("<script>").count(),
        1,
        "only the filter script"
    );
    assert!(
        !page.contains("http://") && !page.contains("https://"),
        "no network"
    );
}

#[test]
fn log_html_has_every_record_the_boards_and_the_arrow() {
    let file = crate::view_log::log_file("view_html_log");
    let o = Command::new(env!("CARGO_BIN_EXE_fenguard"))
        .args(["log", "--html"])
        .arg(&file)
        .output()
        .expect("fenguard log --html");
    assert_eq!(o.status.code(), Some(0));
    let page = String::from_utf8_lossy(&o.stdout);
    assert_eq!(page.matches("<section class=\"rec").count(), 9);
    // The illegal bestmove: the searched position drawn, e1 and e3 marked.
    assert!(page.contains("e1 e3 illegal-bestmove"), "{page}");
    // The valid position seq 2 and its bestmove g1f3: a board the page's script draws.
    assert!(
        page.contains("<div class=\"lazy\" data-fen=\"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR\" data-w=\"8\" data-h=\"8\" data-best=\"g1f3\">"),
        "{page}"
    );
    assert!(page.contains("class=\"lazy w10\""), "the capablanca board");
    // The repaired position's boards are drawn in the page: h1 marked on the GUI's board.
    assert!(
        page.contains("<rect class=\"k-error\" x=\"7\" y=\"7\""),
        "{page}"
    );
    assert!(page.contains("engine got (repaired)"));
    assert!(page.contains("GUI&#39;s position before move 3 (e2e5)"));
    // A kind this version does not know is listed with its fields, escaped.
    assert!(page.contains("data-kind=\"option\""));
    assert!(page.contains("16&lt;b&gt;"));
}
