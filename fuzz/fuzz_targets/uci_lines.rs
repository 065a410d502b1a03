//! Arbitrary bytes as one UCI line through every parser in `fenguard::uci`, and through the
//! move translators from fixed positions in every pair of castling notations. The invariants
//! live in `tests/invariants/uci.rs`, shared with the property tests.

#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/invariants/uci.rs"]
mod invariants;

fuzz_target!(|data: &[u8]| invariants::check_line(data));
