//! Change detection for file sources: did the bytes before the cursor stay the same?
//!
//! Two fingerprints, cheap and whole:
//!
//! * [`prefix`]: the head (64 KiB) and the 4 KiB just before the cursor, with the cursor. A file
//!   that simply grew (same inode, larger) is an append when this still matches, so appends
//!   stay cheap whatever the file's size.
//! * [`Blocks`]: BLAKE3 (16 bytes) of every 1 MiB block before the cursor. A file that changed
//!   without simply growing (same size with a new mtime, a new inode) is checked whole against
//!   them, so a rewrite anywhere is noticed; extending them after an append rehashes only the
//!   last, partial block.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};

const PREFIX_HEAD: u64 = 64 * 1024;
const PREFIX_TAIL: u64 = 4 * 1024;
/// Size of a fingerprinted block.
pub const BLOCK: u64 = 1024 * 1024;
/// Bytes kept of each block's BLAKE3.
const BLOCK_FP: usize = 16;

/// Fingerprint of the bytes before `offset`: its head and the bytes just before the cursor.
/// A rewrite of either changes it; appends after `offset` do not.
pub fn prefix(file: &mut File, offset: u64) -> std::io::Result<Vec<u8>> {
    let mut hasher = blake3::Hasher::new();
    let head_len = offset.min(PREFIX_HEAD);
    let mut buf = vec![0u8; head_len as usize];
    file.seek(SeekFrom::Start(0))?;
    file.read_exact(&mut buf)?;
    hasher.update(&buf);
    let tail_start = offset.saturating_sub(PREFIX_TAIL).max(head_len);
    let mut tail = vec![0u8; (offset - tail_start) as usize];
    file.seek(SeekFrom::Start(tail_start))?;
    file.read_exact(&mut tail)?;
    hasher.update(&tail);
    hasher.update(&offset.to_le_bytes());
    Ok(hasher.finalize().as_bytes().to_vec())
}

/// Fingerprints of the 1 MiB blocks of `[0, len)` (the last one may be partial), as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blocks(Vec<u8>);

impl Blocks {
    pub fn from_stored(bytes: Vec<u8>) -> Option<Blocks> {
        (bytes.len().is_multiple_of(BLOCK_FP)).then_some(Blocks(bytes))
    }

    pub fn into_stored(self) -> Vec<u8> {
        self.0
    }

    fn count(&self) -> u64 {
        (self.0.len() / BLOCK_FP) as u64
    }

    /// The blocks of `[0, len)`, all read.
    pub fn compute(file: &mut File, len: u64) -> std::io::Result<Blocks> {
        let mut out = Blocks(Vec::with_capacity(len.div_ceil(BLOCK) as usize * BLOCK_FP));
        out.hash_from(file, 0, len)?;
        Ok(out)
    }

    /// The blocks of `[0, len)` given those of `[0, old_len)` (`old_len <= len`): whole blocks
    /// before `old_len` are kept, the rest is hashed from the file.
    pub fn extend(mut self, file: &mut File, old_len: u64, len: u64) -> std::io::Result<Blocks> {
        let keep = (old_len / BLOCK).min(self.count());
        self.0.truncate((keep as usize) * BLOCK_FP);
        self.hash_from(file, keep * BLOCK, len)?;
        Ok(self)
    }

    fn hash_from(&mut self, file: &mut File, start: u64, len: u64) -> std::io::Result<()> {
        file.seek(SeekFrom::Start(start))?;
        let mut buf = vec![0u8; 64 * 1024];
        let mut at = start;
        while at < len {
            let block_end = (at / BLOCK + 1) * BLOCK;
            let end = block_end.min(len);
            let mut hasher = blake3::Hasher::new();
            let mut left = end - at;
            while left > 0 {
                let n = left.min(buf.len() as u64) as usize;
                file.read_exact(&mut buf[..n])?;
                hasher.update(&buf[..n]);
                left -= n as u64;
            }
            hasher.update(&(end - at).to_le_bytes());
            self.0
                .extend_from_slice(&hasher.finalize().as_bytes()[..BLOCK_FP]);
            at = end;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn file_with(bytes: &[u8]) -> (tempfile::NamedTempFile, File) {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        f.write_all(bytes).unwrap();
        let file = File::open(f.path()).unwrap();
        (f, file)
    }

    #[test]
    fn extending_equals_computing_whole() {
        let data: Vec<u8> = (0..(3 * BLOCK + 12345)).map(|i| (i % 251) as u8).collect();
        let (_keep, mut file) = file_with(&data);
        let whole = Blocks::compute(&mut file, data.len() as u64).unwrap();
        for old in [0, 10, BLOCK - 1, BLOCK, BLOCK + 7, 2 * BLOCK + 3] {
            let first = Blocks::compute(&mut file, old).unwrap();
            let extended = first.extend(&mut file, old, data.len() as u64).unwrap();
            assert_eq!(extended, whole, "from {old}");
        }
    }

    #[test]
    fn a_change_in_the_middle_changes_the_blocks_but_not_the_prefix() {
        let data: Vec<u8> = (0..(2 * BLOCK + 100)).map(|i| (i % 251) as u8).collect();
        let mut changed = data.clone();
        changed[(BLOCK + 500) as usize] ^= 1;
        let (_a, mut a) = file_with(&data);
        let (_b, mut b) = file_with(&changed);
        let len = data.len() as u64;
        assert_eq!(prefix(&mut a, len).unwrap(), prefix(&mut b, len).unwrap());
        assert_ne!(
            Blocks::compute(&mut a, len).unwrap(),
            Blocks::compute(&mut b, len).unwrap()
        );
    }
}
