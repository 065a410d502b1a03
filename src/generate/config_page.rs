//! `fenguard.toml(5)`, written from `config/fenguard.toml`: that file documents every key with
//! its default in its comments, and is compiled into the binary, so the page and the example
//! file are one text (and the guides link to them instead of copying the keys).
//!
//! The file's shape, which this reads: a comment block before the first table (the page's
//! description); each `[table]`, with the comment lines before it; before each `key = default` line (or `# key = example` for
//! a key unset by default) the comment lines that describe it. A key right after another with
//! no comment of its own shares that one's description. Comment lines indented by two spaces or
//! more are kept as they are (commands).

use super::roff;

/// `config/fenguard.toml`, as compiled into the binary.
pub const CONFIG_EXAMPLE: &str = include_str!("../../config/fenguard.toml");

/// One documented key (or several sharing one description).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// `key = default`, or `key (not set by default; e.g. 8)`.
    pub tags: Vec<String>,
    /// The comment lines describing it, without their `# `.
    pub lines: Vec<String>,
}

/// A `[table]` and its keys.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Table {
    /// The table's name, e.g. `engine`.
    pub name: String,
    /// The comment lines right before its header (what the table is for).
    pub lines: Vec<String>,
    /// Its keys in file order.
    pub entries: Vec<Entry>,
}

/// The parsed file: the header's comment lines and the tables.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Reference {
    /// The comment lines before the first table.
    pub header: Vec<String>,
    /// The tables in file order.
    pub tables: Vec<Table>,
}

/// A commented-out key line `# key = value` (a key unset by default): its key and value.
fn commented_key(comment: &str) -> Option<(&str, &str)> {
    let (key, value) = comment.split_once(" = ")?;
    let is_key = !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
    is_key.then_some((key, value.trim()))
}

/// Reads the documented shape of `text` (see the module docs).
pub fn parse(text: &str) -> Reference {
    let mut reference = Reference::default();
    let mut pending: Vec<String> = Vec::new();
    let add = |reference: &mut Reference, pending: &mut Vec<String>, tag: String| {
        let Some(table) = reference.tables.last_mut() else {
            return;
        };
        match table.entries.last_mut() {
            Some(last) if pending.is_empty() => last.tags.push(tag),
            _ => table.entries.push(Entry {
                tags: vec![tag],
                lines: std::mem::take(pending),
            }),
        }
    };
    for line in text.lines() {
        let line = line.trim_end();
        if let Some(comment) = line.strip_prefix('#') {
            let comment = comment.strip_prefix(' ').unwrap_or(comment);
            match commented_key(comment) {
                Some((key, value)) if !reference.tables.is_empty() => {
                    let tag = format!("{key} (not set by default; e.g. {value})");
                    add(&mut reference, &mut pending, tag);
                }
                _ => pending.push(comment.to_owned()),
            }
        } else if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let lines = std::mem::take(&mut pending);
            let lines = match reference.tables.is_empty() {
                true => {
                    reference.header = lines;
                    Vec::new()
                }
                false => lines,
            };
            reference.tables.push(Table {
                name: name.to_owned(),
                lines,
                entries: Vec::new(),
            });
        } else if let Some((key, value)) = line.split_once(" = ") {
            add(&mut reference, &mut pending, format!("{key} = {value}"));
        } else if line.is_empty() && reference.tables.is_empty() {
            pending.push(String::new());
        }
    }
    reference
}

/// Writes `lines` as paragraphs: blank lines split them, lines indented by two spaces or more
/// are kept as they are.
fn paragraphs(out: &mut String, lines: &[String]) {
    let mut prose: Vec<&str> = Vec::new();
    let mut verbatim: Vec<&str> = Vec::new();
    let flush = |out: &mut String, prose: &mut Vec<&str>, verbatim: &mut Vec<&str>| {
        if !prose.is_empty() {
            out.push_str(&roff::text(&prose.join(" ")));
            out.push('\n');
            prose.clear();
        }
        if !verbatim.is_empty() {
            roff::preformatted(out, verbatim);
            verbatim.clear();
        }
    };
    for line in lines {
        if line.trim().is_empty() {
            flush(out, &mut prose, &mut verbatim);
            out.push_str(".sp\n");
        } else if line.starts_with("  ") {
            if !prose.is_empty() {
                flush(out, &mut prose, &mut verbatim);
            }
            verbatim.push(line.trim());
        } else {
            if !verbatim.is_empty() {
                flush(out, &mut prose, &mut verbatim);
            }
            prose.push(line.trim());
        }
    }
    flush(out, &mut prose, &mut verbatim);
}

/// The page `fenguard.toml.5` (roff), from [`CONFIG_EXAMPLE`].
pub fn render() -> String {
    let reference = parse(CONFIG_EXAMPLE);
    let mut out = format!(
        ".TH FENGUARD.TOML 5 \"{}\" \"fenguard {}\" \"fenguard manual\"\n",
        super::man::release_date(),
        env!("CARGO_PKG_VERSION")
    );
    roff::section(&mut out, "NAME");
    out.push_str("fenguard.toml \\- configuration file of fenguard\n");
    roff::section(&mut out, "SYNOPSIS");
    out.push_str(
        "\\fBfenguard \\-\\-config\\fR \\fIFILE\\fR ..., or \\fBFENGUARD_CONFIG\\fR=\\fIFILE\\fR\n",
    );
    roff::section(&mut out, "DESCRIPTION");
    paragraphs(&mut out, &reference.header);
    roff::paragraph(
        &mut out,
        "Each key below is shown with its default value. The commented file this page is made from is installed as /usr/share/doc/fenguard/examples/fenguard.toml.",
    );
    for table in &reference.tables {
        roff::section(&mut out, &format!("[{}]", table.name.to_uppercase()));
        paragraphs(&mut out, &table.lines);
        for entry in &table.entries {
            out.push_str(".TP\n\\fB");
            let tags: Vec<String> = entry.tags.iter().map(|t| roff::text(t)).collect();
            out.push_str(&tags.join("\\fR, \\fB"));
            out.push_str("\\fR\n");
            paragraphs(&mut out, &entry.lines);
        }
    }
    roff::section(&mut out, "SEE ALSO");
    out.push_str(
        "\\fBfenguard\\fR(1), \\fBfenguard\\-serve\\fR(1), \\fBfenguard\\-provide\\fR(1)\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_header_tables_keys_and_shared_descriptions() {
        let text = "# Header line.\n\n[engine]\n# The engine.\ncommand = \"stockfish\"\n\
                    # Caps.\n# max_threads = 8\n# max_hash_mb = 1024\nkeep = 5\n";
        let reference = parse(text);
        assert_eq!(reference.header, ["Header line.", ""]);
        assert_eq!(reference.tables.len(), 1);
        let entries = &reference.tables[0].entries;
        assert_eq!(entries[0].tags, ["command = \"stockfish\""]);
        assert_eq!(entries[0].lines, ["The engine."]);
        assert_eq!(
            entries[1].tags,
            [
                "max_threads (not set by default; e.g. 8)",
                "max_hash_mb (not set by default; e.g. 1024)",
                "keep = 5"
            ]
        );
        assert_eq!(entries[1].lines, ["Caps."]);
    }

    #[test]
    fn every_key_of_the_shipped_file_is_on_the_page() {
        let parsed: toml::Table = toml::from_str(CONFIG_EXAMPLE).expect("config/fenguard.toml");
        let page = render();
        for (table, keys) in &parsed {
            assert!(
                page.contains(&format!(".SH [{}]", table.to_uppercase())),
                "{table}"
            );
            let keys = keys.as_table().expect("a table");
            // A nested table (`[engine.options]`) is a section of its own.
            let plain = keys.iter().filter(|(_, v)| !v.is_table());
            for (key, _) in plain {
                let escaped = roff::text(key);
                assert!(
                    page.contains(&format!("\\fB{escaped} = ")),
                    "[{table}] {key} missing from fenguard.toml(5)"
                );
            }
        }
    }
}
