//! Properties of the lichess-broker grammar (`fenguard::uci::broker`): whatever an engine
//! writes on an `info` line, `broker_info` gives a line the broker reads (or drops it for a
//! `multipv` it cannot attribute), is idempotent, and keeps a line the broker reads already.

use fenguard::uci::broker::{BrokerLine, FIELDS, broker_info, check_line};
use proptest::prelude::*;

/// A token an engine might write: the broker's fields, UCI words it lacks, numbers of every
/// shape, moves of chess and of 10x8 boards, and junk.
fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(
            FIELDS
                .iter()
                .copied()
                .chain([
                    "cp",
                    "mate",
                    "lowerbound",
                    "upperbound",
                    "wdl",
                    "movesleft",
                    "ebf",
                    "e2e4",
                    "e7e8q",
                    "e1h1",
                    "0000",
                    "P@e4",
                    "a1j1",
                    "i7i8",
                    "(none)",
                    "+3",
                    "-7",
                    "1.5",
                    "99999999999",
                    "18446744073709551616",
                    "\u{b}",
                    "\u{e9}",
                ])
                .collect::<Vec<_>>()
        )
        .prop_map(str::to_owned),
        (0u64..12).prop_map(|n| n.to_string()),
        "[a-z0-9@+-]{1,6}",
    ]
}

fn info_line() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(token(), 0..14),
        prop::sample::select(vec![" ", "\t", "  "]),
    )
        .prop_map(|(tokens, sep)| {
            let mut line = "info".to_owned();
            for t in tokens {
                line.push_str(sep);
                line.push_str(&t);
            }
            line
        })
}

proptest! {
    #[test]
    fn the_rewrite_is_read_by_the_broker(line in info_line()) {
        match broker_info(line.as_bytes()) {
            Some(out) => {
                prop_assert_eq!(check_line(out.as_bytes()), Ok(BrokerLine::Info), "{:?} -> {:?}", line, out);
                let again = broker_info(out.as_bytes());
                prop_assert_eq!(again.as_deref(), Some(&*out));
                if check_line(line.as_bytes()).is_ok() {
                    prop_assert_eq!(&*out, line.as_str());
                }
            }
            None => prop_assert!(line.contains("multipv"), "{:?} dropped", line),
        }
    }
}
