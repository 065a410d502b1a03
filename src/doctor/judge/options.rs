//! The `uci` reply judged: the reply's lines (banner, blank lines, stray text), each `option`
//! line read in full (UCI 2006: `option name <id> type <t> [default <x>] [min <x>] [max <x>]
//! [var <x>]*`), and the values `setoption` is tried with.

use crate::uci::{command_word, tokens};

/// The words the GUIs split an `option` line on (pychess, cutechess, python-chess, ChessX,
/// vampirc-uci: the README's "What GUIs' engine parsers react to").
pub const OPTION_KEYWORDS: [&str; 6] = ["name", "type", "default", "min", "max", "var"];

/// An `option` line read in full.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// The name (its tokens joined by one space).
    pub name: String,
    /// `check`, `spin`, `combo`, `button`, `string` (or whatever the engine wrote).
    pub kind: String,
    /// The default (tokens joined by one space; `None` when absent).
    pub default: Option<String>,
    /// `min`.
    pub min: Option<String>,
    /// `max`.
    pub max: Option<String>,
    /// The `var` values, in order.
    pub vars: Vec<String>,
}

/// Reads an `option` line; `Err` says why it is not one a GUI can read.
///
/// # Errors
/// A sentence naming what is missing (`no name`, `no type`).
pub fn parse_option_spec(line: &[u8]) -> Result<OptionSpec, String> {
    let text = String::from_utf8_lossy(line);
    let words: Vec<&str> = tokens(text.as_bytes())
        .map(|t| std::str::from_utf8(t.text).unwrap_or("\u{fffd}"))
        .collect();
    if words.first() != Some(&"option") || words.get(1) != Some(&"name") {
        return Err("does not start with `option name`".to_owned());
    }
    let mut fields: Vec<(&str, Vec<&str>)> = Vec::new();
    for (i, w) in words.iter().enumerate().skip(1) {
        // Inside the name only `type` ends it (names may hold other keywords).
        let in_name = fields.len() == 1 && fields[0].0 == "name";
        let keyword = if in_name {
            *w == "type"
        } else {
            OPTION_KEYWORDS.contains(w) && i > 1
        };
        if keyword || i == 1 {
            fields.push((w, Vec::new()));
        } else if let Some(last) = fields.last_mut() {
            last.1.push(w);
        }
    }
    let joined = |key: &str| -> Vec<String> {
        fields
            .iter()
            .filter(|(k, _)| *k == key)
            .map(|(_, v)| v.join(" "))
            .collect()
    };
    let name = joined("name").into_iter().next().unwrap_or_default();
    if name.is_empty() {
        return Err("no name".to_owned());
    }
    let kind_tokens = joined("type");
    let Some(kind) = kind_tokens.first().filter(|k| !k.is_empty()) else {
        return Err(format!("option `{name}` has no type"));
    };
    let kind = kind.split(' ').next().unwrap_or_default().to_owned();
    Ok(OptionSpec {
        name,
        kind,
        default: joined("default").into_iter().next(),
        min: joined("min").into_iter().next(),
        max: joined("max").into_iter().next(),
        vars: joined("var"),
    })
}

/// What is wrong with an option as UCI defines its types: an unknown type, a spin without
/// integer `min` ≤ `default` ≤ `max`, a combo default not among its vars, a check default
/// other than `true` / `false`. Empty when fine.
pub fn option_errors(o: &OptionSpec) -> Vec<String> {
    let mut errors = Vec::new();
    let name = &o.name;
    match o.kind.as_str() {
        "spin" => {
            let num = |v: &Option<String>, what: &str, errors: &mut Vec<String>| match v {
                None => {
                    errors.push(format!("spin `{name}` has no {what}"));
                    None
                }
                Some(t) => match t.parse::<i64>() {
                    Ok(n) => Some(n),
                    Err(_) => {
                        errors.push(format!("spin `{name}`: {what} `{t}` is not an integer"));
                        None
                    }
                },
            };
            let d = num(&o.default, "default", &mut errors);
            let lo = num(&o.min, "min", &mut errors);
            let hi = num(&o.max, "max", &mut errors);
            if let (Some(lo), Some(hi)) = (lo, hi)
                && lo > hi
            {
                errors.push(format!("spin `{name}`: min {lo} > max {hi}"));
            }
            if let (Some(d), Some(lo), Some(hi)) = (d, lo, hi)
                && (d < lo || d > hi)
            {
                errors.push(format!("spin `{name}`: default {d} outside {lo}..={hi}"));
            }
        }
        "check" => match o.default.as_deref() {
            Some("true" | "false") => {}
            Some(d) => errors.push(format!(
                "check `{name}`: default `{d}` is not `true` or `false`"
            )),
            None => errors.push(format!("check `{name}` has no default")),
        },
        "combo" => match &o.default {
            _ if o.vars.is_empty() => errors.push(format!("combo `{name}` has no var")),
            Some(d) if o.vars.iter().any(|v| v.eq_ignore_ascii_case(d)) => {}
            Some(d) => errors.push(format!(
                "combo `{name}`: default `{d}` is not one of its vars"
            )),
            None => errors.push(format!("combo `{name}` has no default")),
        },
        "button" | "string" => {}
        other => errors.push(format!("option `{name}` has unknown type `{other}`")),
    }
    errors
}

/// Words in an option's name or combo values that GUIs' parsers split on or reject
/// (README, "What GUIs' engine parsers react to"). Empty when none.
pub fn option_name_quirks(o: &OptionSpec) -> Vec<String> {
    let mut out = Vec::new();
    for word in o.name.split(' ') {
        let lower = word.to_ascii_lowercase();
        if OPTION_KEYWORDS.contains(&word) {
            out.push(format!(
                "name `{}` holds the word `{word}`: pychess, cutechess, python-chess and ChessX split the line there",
                o.name
            ));
        } else if lower.starts_with("type") {
            out.push(format!(
                "name `{}` has a word starting with `type`: vampirc-uci (En Croissant) rejects it",
                o.name
            ));
        }
    }
    for var in &o.vars {
        if var.split(' ').any(|w| OPTION_KEYWORDS.contains(&w)) {
            out.push(format!("combo `{}`: value `{var}` holds a keyword", o.name));
        }
    }
    // vampirc-uci 0.11.1 reads every `var` value (Fairy-Stockfish's `mini`, `minishogi`,
    // `minixiangqi` included) but not a default that starts with one of these words.
    if let Some(d) = &o.default {
        let lower = d.to_ascii_lowercase();
        if ["var", "min", "max"].iter().any(|p| lower.starts_with(p)) {
            out.push(format!(
                "{} `{}`: default `{d}` starts with `var`, `min` or `max`: vampirc-uci rejects it",
                o.kind, o.name
            ));
        }
    }
    out
}

/// Whether setting `o` to its maximum would ask the machine for a lot (memory, threads).
fn resource_option(o: &OptionSpec) -> bool {
    let lower = o.name.to_ascii_lowercase();
    ["hash", "thread", "cache", "memory", "cores", "cpus"]
        .iter()
        .any(|w| lower.contains(w))
}

/// The `setoption` lines an option is tried with: its default, then edge values (check: both;
/// spin: min and max, but not the max of a memory or thread option; combo: every var; button:
/// pressed once). Strings only with their default.
pub fn setoption_trials(o: &OptionSpec) -> Vec<String> {
    let set = |v: &str| format!("setoption name {} value {v}", o.name);
    let mut out = Vec::new();
    match o.kind.as_str() {
        "button" => out.push(format!("setoption name {}", o.name)),
        "check" => {
            out.extend(["true", "false"].map(set));
        }
        "spin" => {
            out.extend(o.min.as_deref().map(set));
            if !resource_option(o) {
                out.extend(o.max.as_deref().map(set));
            }
        }
        "combo" => out.extend(o.vars.iter().map(|v| set(v))),
        _ => {}
    }
    if o.kind != "button" {
        out.push(set(o.default.as_deref().unwrap_or("")));
    }
    out
}

/// What a line of the `uci` reply is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplyLine {
    /// `id ...`.
    Id,
    /// `option ...`.
    Option,
    /// `info ...` (allowed at any time).
    Info,
    /// `uciok`.
    UciOk,
    /// A line of only whitespace.
    Blank,
    /// Anything else.
    Stray,
}

/// Classifies a line of the `uci` reply.
pub fn reply_line(line: &[u8]) -> ReplyLine {
    match command_word(line) {
        b"" => ReplyLine::Blank,
        b"id" => ReplyLine::Id,
        b"option" => ReplyLine::Option,
        b"info" => ReplyLine::Info,
        b"uciok" => ReplyLine::UciOk,
        _ => ReplyLine::Stray,
    }
}

/// Lines of the reply, each as its 1-based line number and text.
pub type NumberedLines = Vec<(usize, String)>;

/// The problems of the reply's shape, split into `(blank lines, stray lines)`, each as the
/// 1-based line number and text. Lines before the first `id` / `option` line are the banner
/// many engines print at start (not counted).
pub fn reply_shape(lines: &[String]) -> (NumberedLines, NumberedLines) {
    let first = lines
        .iter()
        .position(|l| matches!(reply_line(l.as_bytes()), ReplyLine::Id | ReplyLine::Option))
        .unwrap_or(lines.len());
    let end = lines
        .iter()
        .position(|l| reply_line(l.as_bytes()) == ReplyLine::UciOk)
        .unwrap_or(lines.len());
    let mut blank = Vec::new();
    let mut stray = Vec::new();
    for (i, l) in lines.iter().enumerate().take(end).skip(first) {
        match reply_line(l.as_bytes()) {
            ReplyLine::Blank => blank.push((i + 1, l.clone())),
            ReplyLine::Stray => stray.push((i + 1, l.clone())),
            _ => {}
        }
    }
    (blank, stray)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(line: &str) -> OptionSpec {
        parse_option_spec(line.as_bytes()).unwrap()
    }

    #[test]
    fn reads_a_stockfish_spin_and_string() {
        let o = spec("option name Hash type spin default 16 min 1 max 33554432");
        assert_eq!((o.name.as_str(), o.kind.as_str()), ("Hash", "spin"));
        assert_eq!(o.default.as_deref(), Some("16"));
        assert!(option_errors(&o).is_empty());
        let s = spec("option name Debug Log File type string default ");
        assert_eq!(s.name, "Debug Log File");
        assert_eq!(s.default.as_deref(), Some(""));
        assert!(option_errors(&s).is_empty());
    }

    #[test]
    fn finds_spin_default_out_of_range_and_combo_default_not_a_var() {
        let o = spec("option name Skill type spin default 30 min 0 max 20");
        assert_eq!(
            option_errors(&o),
            ["spin `Skill`: default 30 outside 0..=20"]
        );
        let c = spec("option name Style type combo default Wild var Solid var Normal");
        assert_eq!(
            option_errors(&c),
            ["combo `Style`: default `Wild` is not one of its vars"]
        );
        let b = spec("option name Ponder type check default 1");
        assert_eq!(
            option_errors(&b),
            ["check `Ponder`: default `1` is not `true` or `false`"]
        );
    }

    #[test]
    fn finds_keywords_in_names_and_values() {
        let o = spec("option name Max Depth type spin default 1 min 1 max 9");
        assert!(option_name_quirks(&o).is_empty(), "`Max` is not `max`");
        let o = spec("option name Use var Table type check default true");
        assert_eq!(option_name_quirks(&o).len(), 1);
        let c = spec("option name Book type combo default maximal var maximal var none");
        assert_eq!(option_name_quirks(&c).len(), 1);
        // Fairy-Stockfish's variants: values starting with `min` are read by vampirc-uci.
        let v = spec(
            "option name UCI_Variant type combo default chess var chess var mini var minishogi var minixiangqi",
        );
        assert!(
            option_name_quirks(&v).is_empty(),
            "{:?}",
            option_name_quirks(&v)
        );
    }

    #[test]
    fn trials_skip_the_max_of_hash() {
        let o = spec("option name Hash type spin default 16 min 1 max 33554432");
        assert_eq!(
            setoption_trials(&o),
            [
                "setoption name Hash value 1",
                "setoption name Hash value 16"
            ]
        );
    }

    #[test]
    fn blank_line_inside_the_reply_is_found_and_the_banner_is_not() {
        let lines: Vec<String> = [
            "Stockfish 15.1 by the Stockfish developers",
            "id name X",
            "",
            "option name A type check default true",
            "hello",
            "uciok",
        ]
        .map(str::to_owned)
        .into();
        let (blank, stray) = reply_shape(&lines);
        assert_eq!(blank, [(3, String::new())]);
        assert_eq!(stray, [(5, "hello".to_owned())]);
    }
}
