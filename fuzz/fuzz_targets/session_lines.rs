//! Arbitrary sequences of GUI and engine lines through a `Session`: two settings bytes, then
//! `\n`-separated chunks whose first byte picks the event (`g` GUI line, `e` engine line,
//! `o` / `O` over-long pieces, `q` GUI end of input, `x` engine exit). The driver and its
//! invariants live in `tests/invariants/session.rs`, shared with the property tests.

#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/invariants/session.rs"]
mod invariants;

fuzz_target!(|data: &[u8]| {
    invariants::Driver::run(data);
});
