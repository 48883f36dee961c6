//! Multi-document sources: a document tree (a directory of small JSON documents) or another
//! program's database holding the same documents, read as one ordered source per group.
//!
//! Two passes keep memory bounded by the number of documents, not their size: the first reads
//! each document once to fingerprint and place it (keeping only its placement), the second
//! reads each group's documents again, in the planned order, through the group's adapter. A
//! group whose documents are unchanged (same members, same fingerprints) is not read again;
//! a changed group is rebuilt whole, as its documents' order may have changed.
//!
//! Re-reading is proportional to what changed: a tree whose files all keep their size, mtime
//! and inode is skipped without reading anything, and in a changed tree only the changed files
//! are read to be placed again (the placement of the others is kept in the store). A database
//! has no per-row metadata to trust, so a changed database is read whole (each row once to
//! place it, then the changed sessions' rows again).

use std::collections::HashSet;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use fornax_store::{ForeignDocuments, SourceCursor, SourceSpec, TreeMemberState};
use fornax_types::{
    AdapterDescriptor, ByteRange, DocumentTree, Fingerprint, SourceId, TreeDoc, TreeGroup,
};

use crate::clock::now_rfc3339;
use crate::frame::{value_layout, ScanEnd, ScannedValue, ValueScanner};
use crate::pipeline::{
    commit_source, finish, io_err, Commit, IngestError, Ingestor, Mode, Reader, RecordCtx,
    SourceTally,
};
use crate::FileError;

/// Where a group's documents are read from.
enum Documents<'a> {
    Tree(&'a Path),
    Database(&'a ForeignDocuments),
    /// Values inside files of one folder (a dump): a member is a file, each document a range.
    Dump(&'a Path),
}

impl Documents<'_> {
    /// Source kind as stored (`tree`, `database` or `dump`).
    fn kind(&self) -> &'static str {
        match self {
            Documents::Tree(_) => "tree",
            Documents::Database(_) => "database",
            Documents::Dump(_) => "dump",
        }
    }

    /// A document's bytes now, or `None` when it has gone since the first pass.
    fn load(&self, member: &str, range: Option<ByteRange>) -> Result<Option<Vec<u8>>, IngestError> {
        match self {
            Documents::Tree(root) => {
                let path = root.join(member);
                match std::fs::read(&path) {
                    Ok(bytes) => Ok(Some(bytes)),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                    Err(e) => Err(io_err(&path)(e)),
                }
            }
            Documents::Database(db) => Ok(db.document(member)?),
            Documents::Dump(root) => {
                let Some(range) = range else { return Ok(None) };
                let path = root.join(member);
                let mut file = match std::fs::File::open(&path) {
                    Ok(f) => f,
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
                    Err(e) => return Err(io_err(&path)(e)),
                };
                let mut bytes = vec![0u8; (range.end - range.start) as usize];
                use std::io::{Read, Seek, SeekFrom};
                let read = file
                    .seek(SeekFrom::Start(range.start))
                    .and_then(|_| file.read_exact(&mut bytes));
                match read {
                    Ok(()) => Ok(Some(bytes)),
                    // Shorter than when it was placed: rewritten since; the next scan sees it.
                    Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(None),
                    Err(e) => Err(io_err(&path)(e)),
                }
            }
        }
    }

    /// A tree member's bytes are a whole file, a dump's document a range of its file; a
    /// database row has no byte range.
    fn range(&self, len: usize, placed: Option<ByteRange>) -> Option<ByteRange> {
        match self {
            Documents::Tree(_) => Some(ByteRange {
                start: 0,
                end: len as u64,
            }),
            Documents::Database(_) => None,
            Documents::Dump(_) => placed,
        }
    }
}

/// What the first pass kept of every placed document.
#[derive(Default)]
struct Placed {
    docs: Vec<TreeDoc>,
    members: Vec<String>,
    /// Where a dump's document sits in its member file.
    ranges: Vec<Option<ByteRange>>,
    fingerprints: Vec<Fingerprint>,
    /// Over the record-size limit: counted, never read again.
    oversized: Vec<bool>,
    /// Documents that belong to no session.
    outside: u64,
}

/// Places one document from its bytes (`None`: too large to read).
fn place_bytes(tree: &DocumentTree, member: &str, bytes: Option<&[u8]>) -> TreeMemberState {
    let value = bytes.and_then(|b| fornax_live::json::parse(b).ok().map(|p| p.value));
    TreeMemberState {
        size: 0,
        mtime_ns: 0,
        inode: 0,
        fingerprint: bytes.map(|b| Fingerprint::of(b).0).unwrap_or([0; 32]),
        oversized: bytes.is_none(),
        placed: (tree.place)(member, value.as_ref()),
    }
}

impl Placed {
    fn push(&mut self, member: String, state: &TreeMemberState) {
        self.push_at(member, None, state);
    }

    fn push_at(&mut self, member: String, range: Option<ByteRange>, state: &TreeMemberState) {
        let Some(doc) = &state.placed else {
            self.outside += 1;
            return;
        };
        self.docs.push(doc.clone());
        self.fingerprints.push(Fingerprint(state.fingerprint));
        self.oversized.push(state.oversized);
        self.members.push(member);
        self.ranges.push(range);
    }
}

fn mtime_ns(meta: &std::fs::Metadata) -> i64 {
    meta.mtime()
        .saturating_mul(1_000_000_000)
        .saturating_add(meta.mtime_nsec())
}

/// Fingerprint of a group: its members, in order, with their documents' fingerprints.
fn group_fingerprint<'a>(members: impl Iterator<Item = (&'a str, &'a Fingerprint)>) -> Vec<u8> {
    let mut hasher = blake3::Hasher::new();
    for (member, fp) in members {
        hasher.update(&(member.len() as u64).to_le_bytes());
        hasher.update(member.as_bytes());
        hasher.update(&fp.0);
    }
    hasher.finalize().as_bytes().to_vec()
}

/// Fingerprint of the files of a tree, or of a database and its WAL, from metadata alone.
fn stat_fingerprint(entries: &[(String, std::fs::Metadata)]) -> Vec<u8> {
    let mut hasher = blake3::Hasher::new();
    for (name, meta) in entries {
        hasher.update(&(name.len() as u64).to_le_bytes());
        hasher.update(name.as_bytes());
        hasher.update(&meta.len().to_le_bytes());
        hasher.update(&meta.mtime().to_le_bytes());
        hasher.update(&meta.mtime_nsec().to_le_bytes());
        hasher.update(&meta.ino().to_le_bytes());
    }
    hasher.finalize().as_bytes().to_vec()
}

/// Files under a tree root that its adapter may read, relative (`/`-separated) and sorted.
fn tree_files(
    root: &Path,
    desc: &AdapterDescriptor,
) -> Result<Vec<(String, std::fs::Metadata)>, IngestError> {
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(root).follow_links(false) {
        let entry = entry.map_err(|e| IngestError::Io {
            path: e
                .path()
                .map(Path::to_path_buf)
                .unwrap_or_else(|| root.into()),
            source: e.into(),
        })?;
        if !entry.file_type().is_file() {
            continue;
        }
        let name = entry.file_name().to_string_lossy();
        if !desc.file_suffixes.iter().any(|s| name.ends_with(s)) {
            continue;
        }
        let Ok(rel) = entry.path().strip_prefix(root) else {
            continue;
        };
        let rel: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let meta = entry.metadata().map_err(|e| IngestError::Io {
            path: entry.path().to_path_buf(),
            source: e.into(),
        })?;
        out.push((rel.join("/"), meta));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

impl Ingestor<'_> {
    /// Ingests the dump files gathered while files were read: each folder's dumps for one
    /// adapter form one set, read as one source per group (session) its adapter plans, so a
    /// session spread over several files (one per hook event type, say) is one timeline.
    pub(crate) fn ingest_dump_sets(&mut self) {
        let sets = std::mem::take(&mut self.dump_sets);
        for ((dir, adapter), files) in sets {
            let Some(desc) = self.registry.by_name(adapter) else {
                continue;
            };
            if let Err(e) = self.ingest_dump_set(&dir, desc, &files) {
                self.summary.errors.push(FileError {
                    path: dir.display().to_string(),
                    error: e.to_string(),
                });
            }
        }
    }

    fn ingest_dump_set(
        &mut self,
        dir: &Path,
        desc: &AdapterDescriptor,
        files: &[PathBuf],
    ) -> Result<(), IngestError> {
        let Some(tree) = desc.tree else {
            return Ok(());
        };
        let mut stats = Vec::new();
        for path in files {
            let meta = std::fs::metadata(path).map_err(io_err(path))?;
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            stats.push((name, meta));
        }
        stats.sort_by(|a, b| a.0.cmp(&b.0));
        let set_key = format!("dump:{}#{}", dir.display(), desc.name);
        let stat_fp = stat_fingerprint(&stats);
        if self.store.tree_fingerprint(&set_key)?.as_deref() == Some(stat_fp.as_slice()) {
            self.summary.sources.unchanged += 1;
            return Ok(());
        }
        let mut placed = Placed::default();
        for (name, _) in &stats {
            self.place_dump_file(dir, name, &tree, &mut placed)?;
        }
        let locator = dir.display().to_string();
        if self.ingest_groups(&Documents::Dump(dir), &locator, desc, &tree, &placed) {
            self.store
                .set_tree_fingerprint(&set_key, &stat_fp, &now_rfc3339())?;
        }
        Ok(())
    }

    /// Places every value of one dump file (one pass, bounded by the largest value).
    fn place_dump_file(
        &mut self,
        dir: &Path,
        name: &str,
        tree: &DocumentTree,
        placed: &mut Placed,
    ) -> Result<(), IngestError> {
        use std::io::{Read, Seek, SeekFrom};
        let path = dir.join(name);
        let mut file = std::fs::File::open(&path).map_err(io_err(&path))?;
        let mut head = [0u8; 4096];
        let n = file.read(&mut head).map_err(io_err(&path))?;
        let Some(&first) = head[..n].iter().find(|b| !b.is_ascii_whitespace()) else {
            return Ok(());
        };
        file.seek(SeekFrom::Start(0)).map_err(io_err(&path))?;
        let mut scanner = ValueScanner::new(
            &mut file,
            value_layout(first),
            self.options.max_record_bytes,
        );
        while let Some(scanned) = scanner.next_value().map_err(io_err(&path))? {
            let (range, state) = match scanned {
                ScannedValue::Value { start, bytes } => (
                    ByteRange {
                        start,
                        end: start + bytes.len() as u64,
                    },
                    place_bytes(tree, name, Some(bytes)),
                ),
                ScannedValue::Oversized { start, end } => {
                    (ByteRange { start, end }, place_bytes(tree, name, None))
                }
            };
            placed.push_at(name.to_string(), Some(range), &state);
            self.summary.documents_placed += 1;
        }
        if matches!(
            scanner.end(),
            Some(ScanEnd::Truncated | ScanEnd::Invalid(_))
        ) {
            self.summary.malformed_records += 1;
        }
        Ok(())
    }

    /// Ingests a document tree rooted at `root`, one source per planned group.
    pub(crate) fn ingest_tree(
        &mut self,
        root: &Path,
        desc: &AdapterDescriptor,
    ) -> Result<(), IngestError> {
        let Some(tree) = desc.tree else {
            return Ok(());
        };
        let root = std::fs::canonicalize(root).map_err(io_err(root))?;
        let files = tree_files(&root, desc)?;
        let tree_key = format!("tree:{}", root.display());
        let stat_fp = stat_fingerprint(&files);
        if self.store.tree_fingerprint(&tree_key)?.as_deref() == Some(stat_fp.as_slice()) {
            self.summary.sources.unchanged += 1;
            return Ok(());
        }
        // Only files whose size, mtime or inode changed are read to be placed again.
        let known = self.store.tree_members(&tree_key)?;
        let present: HashSet<&str> = files.iter().map(|(m, _)| m.as_str()).collect();
        let removed: Vec<String> = known
            .keys()
            .filter(|m| !present.contains(m.as_str()))
            .cloned()
            .collect();
        let mut placed = Placed::default();
        let mut changed = Vec::new();
        for (member, meta) in &files {
            let (size, mtime, inode) = (meta.len(), mtime_ns(meta), meta.ino());
            if let Some(st) = known.get(member) {
                if (st.size, st.mtime_ns, st.inode) == (size, mtime, inode) {
                    placed.push(member.clone(), st);
                    continue;
                }
            }
            let state = if size > self.options.max_record_bytes as u64 {
                place_bytes(&tree, member, None)
            } else {
                let path = root.join(member);
                match std::fs::read(&path) {
                    Ok(bytes) => place_bytes(&tree, member, Some(&bytes)),
                    // Removed between listing and reading: the next scan sees the tree as it is.
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                    Err(e) => return Err(io_err(&path)(e)),
                }
            };
            let state = TreeMemberState {
                size,
                mtime_ns: mtime,
                inode,
                ..state
            };
            placed.push(member.clone(), &state);
            changed.push((member.clone(), state));
            self.summary.documents_placed += 1;
        }
        self.store
            .update_tree_members(&tree_key, &changed, &removed)?;
        let locator = root.display().to_string();
        if self.ingest_groups(&Documents::Tree(&root), &locator, desc, &tree, &placed) {
            self.store
                .set_tree_fingerprint(&tree_key, &stat_fp, &now_rfc3339())?;
        }
        Ok(())
    }

    /// Ingests another program's database of documents, one source per planned group.
    pub(crate) fn ingest_database(
        &mut self,
        path: &Path,
        desc: &AdapterDescriptor,
    ) -> Result<(), IngestError> {
        let Some((tree, spec)) = desc.tree.and_then(|t| t.database.map(|db| (t, db))) else {
            return Ok(());
        };
        let path = std::fs::canonicalize(path).map_err(io_err(path))?;
        let mut stats = Vec::new();
        for suffix in ["", "-wal"] {
            let mut p = path.clone().into_os_string();
            p.push(suffix);
            if let Ok(meta) = std::fs::metadata(PathBuf::from(p)) {
                stats.push((suffix.to_string(), meta));
            }
        }
        let db_key = format!("database:{}", path.display());
        let stat_fp = stat_fingerprint(&stats);
        if self.store.tree_fingerprint(&db_key)?.as_deref() == Some(stat_fp.as_slice()) {
            self.summary.sources.unchanged += 1;
            return Ok(());
        }
        let db = ForeignDocuments::open(&path, spec)?;
        let mut placed = Placed::default();
        let limit = self.options.max_record_bytes;
        let mut read = 0u64;
        db.for_each(|member, bytes| {
            let bytes = (bytes.len() <= limit).then_some(bytes);
            let state = place_bytes(&tree, &member, bytes.as_deref());
            placed.push(member, &state);
            read += 1;
        })?;
        self.summary.documents_placed += read;
        let locator = path.display().to_string();
        if self.ingest_groups(&Documents::Database(&db), &locator, desc, &tree, &placed) {
            self.store
                .set_tree_fingerprint(&db_key, &stat_fp, &now_rfc3339())?;
        }
        Ok(())
    }

    /// Ingests every planned group, isolating failures per group. True when all succeeded.
    fn ingest_groups(
        &mut self,
        docs: &Documents<'_>,
        locator: &str,
        desc: &AdapterDescriptor,
        tree: &DocumentTree,
        placed: &Placed,
    ) -> bool {
        let groups = (tree.plan)(&placed.docs);
        let planned: usize = groups.iter().map(|g| g.members.len()).sum();
        let outside = placed.outside + placed.docs.len().saturating_sub(planned) as u64;
        if outside > 0 {
            *self
                .summary
                .sources
                .skipped
                .entry("document outside any session".into())
                .or_insert(0) += outside;
        }
        let mut all_ok = true;
        for group in &groups {
            if let Err(e) = self.ingest_group(docs, locator, desc, placed, group) {
                all_ok = false;
                self.summary.errors.push(FileError {
                    path: format!("{locator}#{}", group.name),
                    error: e.to_string(),
                });
            }
        }
        all_ok
    }

    fn ingest_group(
        &mut self,
        docs: &Documents<'_>,
        locator: &str,
        desc: &AdapterDescriptor,
        placed: &Placed,
        group: &TreeGroup,
    ) -> Result<(), IngestError> {
        let key = format!("{}:{locator}#{}", docs.kind(), group.name);
        let members = || {
            group
                .members
                .iter()
                .filter(|&&i| i < placed.docs.len())
                .map(|&i| (placed.members[i].as_str(), &placed.fingerprints[i]))
        };
        let expected = group_fingerprint(members());
        let state = self.store.source_state(&key)?;
        if let Some(st) = &state {
            // Its session was forgotten: never read again, whatever its documents became.
            if st.status == fornax_store::FORGOTTEN {
                self.summary.sources.unchanged += 1;
                return Ok(());
            }
            if st.adapter == desc.name && st.cursor.prefix_fp.as_deref() == Some(&expected[..]) {
                self.summary.sources.unchanged += 1;
                return Ok(());
            }
        }
        let spec = SourceSpec {
            key: key.clone(),
            provider: desc.provider.as_str().to_string(),
            kind: docs.kind().into(),
            locator: locator.to_string(),
            adapter: desc.name.to_string(),
            session_hint: Some(group.name.clone()),
        };
        let mode = if state.is_some() {
            Mode::Rebuild
        } else {
            Mode::New
        };
        let options = self.options.clone();
        let redactor = self.redactor;
        let mut reader = Reader::Adapter {
            desc,
            adapter: (desc.create)(),
        };
        let mut writer = self.store.begin_source(&spec, state.is_some())?;
        let mut tally = SourceTally::default();
        let source_id = SourceId::new(key);
        let mut redaction_time = std::time::Duration::ZERO;
        // What is actually read now: a document changed since the first pass is seen (and
        // fingerprinted) as it is now.
        let mut read_now: Vec<(&str, Fingerprint)> = Vec::with_capacity(group.members.len());
        let mut total = 0u64;
        let mut ctx = RecordCtx {
            writer: &mut writer,
            tally: &mut tally,
            redactor,
            options: &options,
            reader: &mut reader,
            source: &source_id,
            hint: &group.name,
            location: None,
            redaction_time: &mut redaction_time,
        };
        for (position, &i) in group.members.iter().enumerate() {
            let Some(member) = placed.members.get(i) else {
                continue;
            };
            if placed.oversized[i] {
                ctx.tally.oversized += 1;
                read_now.push((member, placed.fingerprints[i]));
                continue;
            }
            let placed_range = placed.ranges.get(i).copied().flatten();
            let Some(bytes) = docs.load(member, placed_range)? else {
                continue;
            };
            total += bytes.len() as u64;
            read_now.push((member, Fingerprint::of(&bytes)));
            match fornax_live::json::parse(&bytes) {
                Ok(parsed) => {
                    ctx.tally.repaired += u64::from(parsed.repaired);
                    ctx.record(
                        position as u64,
                        docs.range(bytes.len(), placed_range),
                        &bytes,
                        &parsed.value,
                        Some(member),
                    )?
                }
                Err(_) => ctx.tally.malformed += 1,
            }
        }
        for msg in finish(&mut *ctx.reader) {
            ctx.apply(msg)?;
        }
        let cursor = SourceCursor {
            inode: None,
            size: Some(total),
            mtime_ns: None,
            prefix_len: None,
            prefix_fp: Some(group_fingerprint(read_now.iter().map(|(m, f)| (*m, f)))),
            offset: total,
            open_tail: false,
            blocks: None,
        };
        let commit = Commit {
            cursor: &cursor,
            next_position: group.members.len() as u64,
            adapter_state: None,
            adapter_name: desc.name,
            mode,
            bytes_read: total,
            redaction_time,
        };
        commit_source(writer, tally, commit, &mut self.summary, &mut self.touched)
    }
}
