//! The engine's identity as the GUI sees it (SPEC section 15): `engine.id_name` and
//! `engine.id_author` replace the text of the engine's `id name` / `id author` lines (Fritz
//! and ChessBase refuse long names or quotes; some GUIs accept only names they know).

use bytes::Bytes;

use super::Session;

impl Session {
    /// The engine's `id <field> ...` line as the GUI gets it.
    pub(super) fn adapt_id(&self, line: &Bytes, field: &[u8]) -> Bytes {
        let text = match field {
            b"name" => self.adapter.id_name.as_deref(),
            b"author" => self.adapter.id_author.as_deref(),
            _ => None,
        };
        let Some(text) = text else {
            return line.clone();
        };
        let end: &str = if line.ends_with(b"\r\n") {
            "\r\n"
        } else {
            "\n"
        };
        let field = String::from_utf8_lossy(field);
        Bytes::from(format!("id {field} {text}{end}"))
    }
}
