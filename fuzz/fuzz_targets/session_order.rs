//! Reply order (issue 9): each byte names an event (a GUI command, an engine step, a crash, a
//! restart); the GUI must get every reply it asked for, once, in the order asked. The driver
//! and the property live in `tests/invariants/order.rs`, shared with the property tests.

#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/invariants/order.rs"]
mod order;

fuzz_target!(|data: &[u8]| {
    order::OrderDriver::run(data);
});
