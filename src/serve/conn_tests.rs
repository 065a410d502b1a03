//! The first line: the bytes after it kept, too long, a heartbeat offer moved, closed early.

use super::*;

fn first_line(input: &'static [u8]) -> FirstLine {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let mut input = input;
        read_first_line(&mut input).await
    })
}

#[test]
fn first_line_keeps_the_bytes_after_it() {
    assert_eq!(
        first_line(b"auth abc\r\nuci\nisready\n"),
        FirstLine::Line(b"auth abc".to_vec(), b"uci\nisready\n".to_vec())
    );
}

#[test]
fn endless_first_line_is_too_long() {
    let long: &'static [u8] = Box::leak(vec![b'x'; 100_000].into_boxed_slice());
    assert_eq!(first_line(long), FirstLine::TooLong);
}

#[test]
fn heartbeat_offer_moves_in_front_of_the_bytes_after_the_auth_line() {
    assert_eq!(
        first_line(b"auth abc heartbeat=5000\nuci\n"),
        FirstLine::Line(
            b"auth abc".to_vec(),
            b"\0fenguard heartbeat 5000\nuci\n".to_vec()
        )
    );
}

#[test]
fn closed_before_a_line_end() {
    assert_eq!(first_line(b"auth"), FirstLine::Closed);
}
