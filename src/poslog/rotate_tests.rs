//! The rotating file's unit tests: rotation at the cap, the kept files, a write larger than
//! the cap.

use super::*;

/// A test's directory, removed when the test ends (kept when it fails: dropped while
/// panicking).
struct TestDir(PathBuf);

impl std::ops::Deref for TestDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TestDir {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn dir(name: &str) -> TestDir {
    let dir = std::env::temp_dir().join(format!("fenguard-rotate-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    TestDir(dir)
}

#[test]
fn rotates_before_the_write_that_passes_the_cap_and_keeps_keep_files() {
    let dir = dir("cap");
    let path = dir.join("x.log");
    let rotation = Rotation {
        max_bytes: 10,
        keep: 2,
    };
    let mut file = RotatingFile::open(&path, rotation).unwrap();
    for line in [
        "aaaa\n", "bbbb\n", "cccc\n", "dddd\n", "eeee\n", "ffff\n", "gggg\n",
    ] {
        file.write_all(line.as_bytes()).unwrap();
    }
    file.flush().unwrap();
    let read = |p: PathBuf| std::fs::read_to_string(p).unwrap_or_default();
    assert_eq!(read(path.clone()), "gggg\n");
    assert_eq!(read(rotated_path(&path, 1)), "eeee\nffff\n");
    assert_eq!(read(rotated_path(&path, 2)), "cccc\ndddd\n");
    assert!(!rotated_path(&path, 3).exists());
    assert_eq!(file.generation(), 3);
}

#[test]
fn a_write_larger_than_the_cap_goes_whole_into_a_fresh_file() {
    let dir = dir("big");
    let path = dir.join("x.log");
    let rotation = Rotation {
        max_bytes: 4,
        keep: 0,
    };
    let mut file = RotatingFile::open(&path, rotation).unwrap();
    file.write_all(b"ab\n").unwrap();
    file.write_all(b"0123456789\n").unwrap();
    file.flush().unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"0123456789\n");
    assert!(!rotated_path(&path, 1).exists());
}

#[test]
fn a_file_that_cannot_be_rotated_goes_on_past_the_cap_and_rotates_once_it_can() {
    let dir = dir("unrotatable");
    let path = dir.join("x.log");
    // `x.log.1` a directory that is not empty: renaming `x.log` over it fails.
    let blocker = rotated_path(&path, 1);
    std::fs::create_dir_all(blocker.join("inside")).unwrap();
    let rotation = Rotation {
        max_bytes: 10,
        keep: 1,
    };
    let mut file = RotatingFile::open(&path, rotation).unwrap();
    for line in ["aaaa\n", "bbbb\n", "cccc\n"] {
        file.write_all(line.as_bytes()).unwrap();
    }
    file.flush().unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"aaaa\nbbbb\ncccc\n");
    assert_eq!(file.committed(), 15);
    std::fs::remove_dir_all(&blocker).unwrap();
    file.write_all(b"dddd\n").unwrap();
    file.flush().unwrap();
    assert_eq!(std::fs::read(&blocker).unwrap(), b"aaaa\nbbbb\ncccc\n");
    assert_eq!(std::fs::read(&path).unwrap(), b"dddd\n");
}
