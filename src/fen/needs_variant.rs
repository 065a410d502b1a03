//! `needs-variant`: a 10x8 FEN given while the variant is chess gets one diagnostic naming the
//! likely variant instead of a dozen syntax errors. Part of the FEN core (it reads only the
//! placement's shape and the well-known start arrays), so the core imports nothing above it.

use super::{Code, Diagnostic, Severity};

/// Back ranks (Black's, as written) of the start positions with a fixed array.
const ARRAYS: [(&str, &[u8]); 4] = [
    ("capablanca", b"rnabqkbcnr"),
    ("gothic", b"rnbqckabnr"),
    ("janus", b"rjnbkqbnjr"),
    ("embassy", b"rnbqkcabnr"),
];

/// When the piece placement of `input` (a FEN read as chess) describes a 10x8 board (eight
/// ranks of ten squares, counts such as `10` and `9`, pieces `KQRBNP`, `A`/`C`, `J`), one
/// `needs-variant` error naming the likely variant: by the start array of the back ranks
/// where they match one, `janus` when `J` appears, `caparandom` for another start-like array,
/// else "a 10x8 variant". `None` for anything else (the chess parser then speaks). Cheap on
/// chess FENs: it stops at the first rank that is not ten squares wide.
pub fn needs_variant(input: &[u8]) -> Option<Diagnostic> {
    let start = input.iter().position(|b| !b.is_ascii_whitespace())?;
    let len = input[start..]
        .iter()
        .position(u8::is_ascii_whitespace)
        .unwrap_or(input.len() - start);
    let field = &input[start..start + len];
    let mut ranks = 0;
    for rank in field.split(|&b| b == b'/') {
        ranks += 1;
        if ranks > 8 || width(rank)? != 10 {
            return None;
        }
    }
    if ranks != 8 {
        return None;
    }
    let ranks: Vec<&[u8]> = field.split(|&b| b == b'/').collect();
    let black = ranks[0];
    let white: Vec<u8> = ranks[7].to_ascii_lowercase();
    let name = ARRAYS
        .iter()
        .find(|(_, array)| black == *array && white == *array)
        .map(|(name, _)| *name)
        .or_else(|| {
            field
                .iter()
                .any(|b| b.eq_ignore_ascii_case(&b'j'))
                .then_some("janus")
        })
        .or_else(|| {
            let start_like = black.len() == 10
                && white == black
                && ranks[1] == b"pppppppppp"
                && ranks[6] == b"PPPPPPPPPP";
            start_like.then_some("caparandom")
        });
    let message = match name {
        Some(name) => format!(
            "a 10x8 position (ranks of 10 files) while the variant is chess; it looks like {name}: set `UCI_Variant` (`fenguard check --variant {name}`)"
        ),
        None => "a 10x8 position (ranks of 10 files) while the variant is chess; it needs a 10x8 variant (capablanca, caparandom, gothic, janus or embassy): set `UCI_Variant` (`fenguard check --variant NAME`)".to_owned(),
    };
    Some(Diagnostic::new(
        Code::NeedsVariant,
        Severity::Error,
        Some(start..start + len),
        message,
    ))
}

/// Squares a rank describes (counts read as whole numbers), `None` when a character is no
/// 10x8 piece or count.
fn width(rank: &[u8]) -> Option<usize> {
    let mut n = 0;
    let mut i = 0;
    while i < rank.len() {
        let c = rank[i];
        if c.is_ascii_digit() {
            let end = i + rank[i..].iter().take_while(|b| b.is_ascii_digit()).count();
            n += std::str::from_utf8(&rank[i..end])
                .ok()?
                .parse::<usize>()
                .ok()?;
            i = end;
        } else if matches!(
            c.to_ascii_lowercase(),
            b'k' | b'q' | b'r' | b'b' | b'n' | b'p' | b'a' | b'c' | b'j'
        ) {
            n += 1;
            i += 1;
        } else {
            return None;
        }
    }
    Some(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(fen: &str) -> Option<String> {
        needs_variant(fen.as_bytes()).map(|d| d.message)
    }

    #[test]
    fn names_the_variant_of_a_start_position() {
        let m = named("rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1");
        assert!(m.unwrap().contains("looks like capablanca"));
        let m = named("rjnbkqbnjr/pppppppppp/10/10/10/10/PPPPPPPPPP/RJNBKQBNJR w KQkq - 0 1");
        assert!(m.unwrap().contains("looks like janus"));
        let m = named("rbqnkcnabr/pppppppppp/10/10/10/10/PPPPPPPPPP/RBQNKCNABR w KQkq - 0 1");
        assert!(m.unwrap().contains("looks like caparandom"));
    }

    #[test]
    fn a_mid_game_10x8_position_needs_a_10x8_variant() {
        let m = named("r1abqkb1nr/ppp1pppppp/2n7/3p6/3P6/10/PPP1PPPPPP/RNABQKBCNR w KQkq - 0 3");
        assert!(m.unwrap().contains("needs a 10x8 variant"));
    }

    #[test]
    fn chess_fens_and_broken_ranks_are_left_to_the_chess_parser() {
        assert_eq!(
            named("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            None
        );
        assert_eq!(
            named("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            None
        );
        assert_eq!(named(""), None);
        assert_eq!(named("10/10/10"), None);
    }
}
