//! A count of the steps taken by the scans and walks whose cost could grow
//! faster than the input (recovery's look-ahead, walks up the tree, walks
//! over siblings, lookups of identifiers), so that tests can check that
//! hostile input costs work linear in its size without timing anything.
//!
//! Counted only in this crate's own tests and with the `work-count`
//! feature (which the test builds of the crates above enable); otherwise
//! [`add`] is nothing and [`take`] is always 0. The count is per thread.

#[cfg(any(test, feature = "work-count"))]
thread_local! {
    static STEPS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Whether steps are counted in this build.
pub const ENABLED: bool = cfg!(any(test, feature = "work-count"));

/// Counts `n` steps.
#[inline(always)]
pub fn add(n: usize) {
    #[cfg(any(test, feature = "work-count"))]
    STEPS.with(|s| s.set(s.get() + n as u64));
    #[cfg(not(any(test, feature = "work-count")))]
    let _ = n;
}

/// The steps counted on this thread since the last call, and starts again from 0.
pub fn take() -> u64 {
    #[cfg(any(test, feature = "work-count"))]
    return STEPS.with(|s| s.replace(0));
    #[cfg(not(any(test, feature = "work-count")))]
    0
}
