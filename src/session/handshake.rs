//! One coherent `uci` handshake for the GUI across an engine restart.
//!
//! An engine that dies in the middle of its answer to `uci` (after `id name ...` and some
//! `option` lines) is restarted and sent `uci` again; the new engine prints the same lines
//! again. Rule: from the GUI's `uci` until its `uciok`, fenguard remembers which `id` fields
//! (`name`, `author`) and which `option` names (ASCII case-insensitive, as UCI compares them)
//! the GUI has been shown; the restarted engine's handshake lines that name one of them are
//! not shown again, the others are. The GUI so sees each `id` field and each option once, then
//! one `uciok`. A new `uci` from the GUI starts afresh.

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash as _, Hasher as _};

use crate::uci::{EngineLine, tokens};

/// Most handshake lines remembered (an engine announcing more is not deduplicated past it).
const MAX_SHOWN: usize = 4096;

/// The handshake lines shown to the GUI since its last `uci`, by key (hashed: memory stays
/// bounded whatever the engine's lines hold).
#[derive(Debug, Default)]
pub(super) struct Shown {
    keys: HashSet<u64>,
}

/// The key of a handshake line: `id` plus its field, or `option` plus its name; `None` for
/// other lines.
fn key(line: &EngineLine<'_>) -> Option<u64> {
    let mut hasher = DefaultHasher::new();
    match line {
        EngineLine::Id(field) => {
            b"id".hash(&mut hasher);
            field.to_ascii_lowercase().hash(&mut hasher);
        }
        EngineLine::Option(opt) => {
            b"option".hash(&mut hasher);
            for t in tokens(opt.name) {
                t.text.to_ascii_lowercase().hash(&mut hasher);
            }
        }
        _ => return None,
    }
    Some(hasher.finish())
}

impl Shown {
    /// The GUI sent `uci`: nothing of the new handshake has been shown.
    pub(super) fn clear(&mut self) {
        self.keys.clear();
    }

    /// `line` is shown to the GUI during its handshake.
    pub(super) fn note(&mut self, line: &EngineLine<'_>) {
        if self.keys.len() < MAX_SHOWN
            && let Some(key) = key(line)
        {
            self.keys.insert(key);
        }
    }

    /// Whether the GUI has already been shown a line with `line`'s key.
    pub(super) fn has(&self, line: &EngineLine<'_>) -> bool {
        key(line).is_some_and(|k| self.keys.contains(&k))
    }
}
