//! Talking to a running daemon: one JSON object per line on the home's Unix socket
//! (`<home>/fornax.sock`), one JSON answer line back. The server side is `fornax-daemon`.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("no daemon is listening on {0}")]
    NotRunning(PathBuf),
    #[error("daemon at {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("daemon at {path} answered something that is not JSON: {answer:?}")]
    BadAnswer { path: PathBuf, answer: String },
}

/// The socket of a home.
pub fn socket_path(home: &Path) -> PathBuf {
    home.join("fornax.sock")
}

fn connect(home: &Path, timeout: Duration) -> Result<UnixStream, ClientError> {
    let path = socket_path(home);
    let stream = UnixStream::connect(&path).map_err(|_| ClientError::NotRunning(path.clone()))?;
    let io = |source| ClientError::Io {
        path: path.clone(),
        source,
    };
    stream.set_read_timeout(Some(timeout)).map_err(io)?;
    stream.set_write_timeout(Some(timeout)).map_err(io)?;
    Ok(stream)
}

/// Sends one request and waits (up to `timeout`) for its answer.
pub fn request(home: &Path, req: &Value, timeout: Duration) -> Result<Value, ClientError> {
    let path = socket_path(home);
    let mut stream = connect(home, timeout)?;
    let io = |source| ClientError::Io {
        path: path.clone(),
        source,
    };
    let mut line = req.to_string();
    line.push('\n');
    stream.write_all(line.as_bytes()).map_err(io)?;
    let mut reader = BufReader::new(stream);
    let mut answer = String::new();
    reader.read_line(&mut answer).map_err(io)?;
    serde_json::from_str(&answer).map_err(|_| ClientError::BadAnswer {
        path: path.clone(),
        answer,
    })
}

/// Tells the daemon new data is in the spool. Best effort, never waits for an answer.
pub fn poke(home: &Path) -> bool {
    match connect(home, Duration::from_millis(50)) {
        Ok(mut s) => s.write_all(b"{\"op\":\"poke\"}\n").is_ok(),
        Err(_) => false,
    }
}
