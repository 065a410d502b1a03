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

/// The JSON text of a page's `<script type="application/json" id="ID">`.
fn json_block<'a>(page: &'a str, id: &str) -> &'a str {
    let open = format!("<script type=\"application/json\" id=\"{id}\">");
    let at = page.find(&open).expect("the data") + open.len();
    let len = page[at..].find("</script>").expect("the data's end");
    let data = &page[at..at + len];
    assert!(!data.contains('<'), "no `<` in the data: {data}");
    data
}

/// The items of a `fenguard log --html` page (the JSON array its script draws from) as the
/// script reads them: what an item leaves out to the previous one filled in (`s`, `q`, a
/// search's `G`, a drawn position's `v`), `k` the kind's name.
pub fn report_items(page: &str) -> Vec<serde_json::Value> {
    use serde_json::Value;
    let meta: Value = serde_json::from_str(json_block(page, "fg-meta")).expect("the summary");
    let open = "<script type=\"application/json\" class=\"fg-d\">";
    let mut items: Vec<Value> = Vec::new();
    for block in page.split(open).skip(1) {
        let data = &block[..block.find("</script>").expect("the block's end")];
        assert!(!data.contains('<'), "no `<` in the data: {data}");
        let block: Vec<Value> = serde_json::from_str(data).expect("a block is a JSON array");
        let at = items.len();
        items.extend(block);
        expand(&mut items[at..], &meta);
    }
    items
}

/// Fills in what a block's items leave out ([`report_items`]).
fn expand(items: &mut [serde_json::Value], meta: &serde_json::Value) {
    use serde_json::{Value, json};
    let (mut s, mut q, mut go) = (json!(0), 0u64, Value::Null);
    for item in items.iter_mut().filter(|i| i.get("z").is_none()) {
        let e = item.as_object_mut().expect("an object");
        s = e.entry("s").or_insert(s).clone();
        q = match e.get("q") {
            Some(v) => v.as_u64().unwrap_or(0),
            None => q + 1,
        };
        e.insert("q".into(), json!(q));
        let kind = meta["kinds"][e["k"].as_u64().expect("k") as usize].clone();
        e.insert("k".into(), kind);
        if e["k"] == "search" && !e.contains_key("h") {
            go = e.entry("G").or_insert(go).clone();
        }
        if e.contains_key("f") && !e.contains_key("v") {
            e.insert("v".into(), json!("valid"));
        }
    }
}

/// The shown items of a report (the others only hold a GUI line for later ones).
pub fn shown(items: &[serde_json::Value]) -> Vec<&serde_json::Value> {
    items.iter().filter(|i| i.get("z").is_none()).collect()
}

/// Every body made by fenguard in the report's items, one after the other.
pub fn bodies(items: &[serde_json::Value]) -> String {
    items.iter().filter_map(|i| i["h"].as_str()).collect()
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
    assert!(page.starts_with("<!DOCTYPE html>"), "{page}");
    let items = report_items(&page);
    let shown = shown(&items);
    assert_eq!(shown.len(), 9);
    let html = bodies(&items);
    // The illegal bestmove: the searched position drawn, e1 and e3 marked.
    assert!(html.contains("e1 e3 illegal-bestmove"), "{html}");
    // The valid position seq 2 and its bestmove g1f3: a board the page's script draws.
    let seq2 = shown.iter().find(|i| i["q"] == 2).expect("seq 2");
    assert_eq!(
        seq2["f"],
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    assert_eq!(
        (seq2.get("w"), seq2["b"].as_str()),
        (None, Some("g1f3")),
        "8 files"
    );
    assert_eq!(seq2["r"], "position startpos moves e2e4 e7e5");
    let capablanca = shown.iter().find(|i| i["q"] == 6).expect("seq 6");
    assert_eq!(capablanca["w"], 10, "the capablanca board");
    // The repaired position's boards are drawn in the page: h1 marked on the GUI's board.
    assert!(
        html.contains("<rect class=\"k-error\" x=\"7\" y=\"7\""),
        "{html}"
    );
    assert!(html.contains("engine got (repaired)"));
    assert!(html.contains("GUI&#39;s position before move 3 (e2e5)"));
    // The GUI's line with the span marked is left to the script.
    assert!(
        html.contains("<pre data-span=\"34,38\" data-sev=\"error\"></pre>"),
        "{html}"
    );
    // A kind this version does not know is listed with its fields (the script escapes them).
    let option = shown.iter().find(|i| i["k"] == "option").expect("option");
    assert_eq!(
        option["F"],
        serde_json::json!([["name", "Hash"], ["value", "16<b>"]])
    );
}
