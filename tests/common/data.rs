//! The public puzzle sets in `../shared/data` (beside the repository), for the tests that
//! check the engine on them. Shared by the black-box tests (`common::data`) and the unit
//! tests (`crate::test_data`, the same file), so both skip and fail alike.
//!
//! Where the folder is absent such a test is skipped, and says so where it can be seen:
//! straight to the process's stderr, past the test harness's capture (which takes only
//! `print!` and `eprint!`), with how many skips this test binary has had. With
//! `SUDOKU_REQUIRE_DATA=1` (CI sets it: `.ci/run`) a missing file fails the test instead,
//! so a green CI run always means the data was checked.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The environment variable that turns a skip into a failure.
pub const REQUIRE_DATA: &str = "SUDOKU_REQUIRE_DATA";

/// Skips so far in this test binary.
static SKIPPED: AtomicUsize = AtomicUsize::new(0);

/// The path of `relative` under `../shared/data` when it is there. Otherwise: with
/// [`REQUIRE_DATA`]`=1` a panic; else `None`, after saying on stderr that `what` was skipped.
pub fn shared_data(relative: &str, what: &str) -> Option<PathBuf> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data")
        .join(relative);
    if path.exists() {
        return Some(path);
    }
    assert!(
        std::env::var_os(REQUIRE_DATA).is_none_or(|v| v != "1"),
        "{} is missing and {REQUIRE_DATA}=1: {what} must run here",
        path.display()
    );
    let skipped = SKIPPED.fetch_add(1, Ordering::Relaxed) + 1;
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED ({skipped} in this test binary): {what}: {} not found \
         ({REQUIRE_DATA}=1 makes this a failure)",
        path.display()
    );
    None
}
