//! Bytes of a record put aside with unsaved work: a file of the recovery
//! folder removed when dropped, and where the record's first bytes are.

use std::path::{Path, PathBuf};

use sgf_formats::save::Fingerprint;

/// A file of the recovery folder, removed when dropped (its record was
/// closed, or read back).
#[derive(Debug)]
pub(crate) struct KeptFile(pub(crate) PathBuf);

impl KeptFile {
    /// Where it is.
    pub(crate) fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for KeptFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Where the bytes a record was first read from are, once it was put
/// aside with unsaved changes: what its first save keeps as `X.orig`.
#[derive(Debug)]
pub(crate) enum Original {
    /// Its file, as long as it has this fingerprint (it had when the
    /// record was put aside: nothing is copied).
    OnDisk(Fingerprint),
    /// A copy in the recovery folder (the file on disk was not those bytes).
    Kept(KeptFile),
}

impl Original {
    /// The bytes, if they can still be had (`path`: the record's file).
    pub(crate) fn bytes(&self, path: &Path) -> Option<std::sync::Arc<[u8]>> {
        let limit = sgf_formats::input::MAX_INPUT_BYTES;
        match self {
            Original::OnDisk(fp) => crate::read_file(path, limit)
                .ok()
                .filter(|b| Fingerprint::of(b) == *fp),
            Original::Kept(k) => crate::read_file(k.path(), limit).ok(),
        }
    }
}
