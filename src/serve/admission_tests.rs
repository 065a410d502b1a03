//! The admission pool's limits: the descriptor reserve, silent connections dropped first,
//! the per-address and total caps.

use super::*;

fn startups(text: &str) -> Startups {
    text.parse().unwrap()
}

#[test]
fn the_last_descriptors_are_kept_for_sessions() {
    let admission = Admission::new(startups("100"), 0, 1024);
    let reserve = Admission::reserve(4);
    assert!(admission.enter(None, 1023 - reserve, 4, false).is_ok());
    assert_eq!(
        admission.enter(None, 1024 - reserve, 4, false).unwrap_err(),
        Shed::FdReserve
    );
}

#[test]
fn a_client_that_spoke_outlives_older_silent_ones() {
    let admission = Admission::new(startups("2"), 0, 1 << 20);
    let _silent = admission.enter(None, 1, 1, false).unwrap();
    let spoke = admission.enter(None, 2, 1, true).unwrap();
    let _c = admission.enter(None, 3, 1, false).unwrap();
    let _d = admission.enter(None, 4, 1, false).unwrap();
    let held: Vec<u64> = admission.pool().held.keys().copied().collect();
    assert_eq!(held, vec![spoke.id(), 4]);
}

#[test]
fn one_address_holds_at_most_its_cap_and_loses_its_oldest() {
    let admission = Admission::new(startups("100"), 2, 1 << 20);
    let ip: IpAddr = "127.0.0.2".parse().unwrap();
    let other = admission
        .enter(Some("127.0.0.1".parse().unwrap()), 9, 1, false)
        .unwrap();
    let a = admission.enter(Some(ip), 10, 1, false).unwrap();
    let b = admission.enter(Some(ip), 11, 1, false).unwrap();
    let c = admission.enter(Some(ip), 12, 1, false).unwrap();
    let held: Vec<u64> = admission.pool().held.keys().copied().collect();
    assert_eq!(held, vec![other.id(), b.id(), c.id()]);
    drop(a);
    assert_eq!(admission.held(), 3);
}

#[test]
fn a_capped_pool_drops_the_oldest_silent_connection_of_a_full_address() {
    let admission = Admission::capped(3, 2);
    let ip: IpAddr = "127.0.0.1".parse().unwrap();
    let served = admission.enter(Some(ip), 0, 0, false).unwrap();
    admission.mark_spoke(served.id());
    let _slow = admission.enter(Some(ip), 0, 0, false).unwrap();
    let newer = admission.enter(Some(ip), 0, 0, false).unwrap();
    let held: Vec<u64> = admission.pool().held.keys().copied().collect();
    assert_eq!(held, vec![served.id(), newer.id()]);
    let other = admission.enter(Some("10.0.0.1".parse().unwrap()), 0, 0, false);
    let last = admission.enter(Some("10.0.0.2".parse().unwrap()), 0, 0, false);
    let held: Vec<u64> = admission.pool().held.keys().copied().collect();
    assert_eq!(
        held,
        vec![served.id(), other.unwrap().id(), last.unwrap().id()]
    );
    assert_eq!(admission.take_dropped(), 2);
    assert_eq!(admission.take_dropped(), 0);
}

#[test]
fn a_full_pool_drops_its_oldest_and_takes_the_newcomer() {
    let admission = Admission::new(startups("3"), 0, 1 << 20);
    let tickets: Vec<Ticket> = (0..10)
        .map(|i| admission.enter(None, i, 1, false).unwrap())
        .collect();
    assert_eq!(admission.held(), 3);
    let held: Vec<u64> = admission.pool().held.keys().copied().collect();
    assert_eq!(held, vec![8, 9, 10]);
    drop(tickets);
    assert_eq!(admission.held(), 0);
    assert!(admission.summary().unwrap().contains("7 at max_startups"));
    assert_eq!(admission.summary(), None);
}
