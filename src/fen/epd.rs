//! EPD operations where a FEN has more fields (`4k3/8/8/8/8/8/8/4K3 w - - bm Kg2; id "x";`):
//! recognized, so that the `extra-field` message names them instead of reading their first
//! words as the halfmove clock and fullmove number. EPD (Extended Position Description,
//! PGN standard section 16.2): four data fields, then operations, each an opcode (a letter
//! first), operands, and a `;`.

use super::text::quote;

/// Whether `rest` (from a field on) reads as EPD operations: an opcode (a letter first) and
/// a `;` ending an operation.
pub(crate) fn is_epd_operations(rest: &[u8]) -> bool {
    rest.first().is_some_and(u8::is_ascii_alphabetic) && rest.contains(&b';')
}

/// The `extra-field` message for `text`; `epd` is the field where EPD operations start.
pub(crate) fn extra_message(text: &[u8], epd: Option<usize>) -> String {
    let found = if epd.is_some() || is_epd_operations(text) {
        format!("EPD operations {}", quote(text))
    } else {
        quote(text)
    };
    match epd {
        Some(4) => format!(
            "{found} after the en passant field; a FEN has the halfmove clock and fullmove number there, and nothing after them"
        ),
        Some(5) => format!(
            "{found} after the halfmove clock; a FEN has the fullmove number there, and nothing after it"
        ),
        _ => {
            format!("{found} after the six FEN fields; expected nothing after the fullmove number")
        }
    }
}
