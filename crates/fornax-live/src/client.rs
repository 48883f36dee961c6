//! Talking to a running daemon on the home's Unix socket (`<home>/fornax.sock`): one
//! [`Request`] line, then [`Response`] lines. The server side is `fornax-daemon`.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::protocol::{Request, Response};
use crate::Home;

#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("no daemon is listening on {0}")]
    NotRunning(PathBuf),
    #[error("daemon at {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("daemon at {path} answered something this fornax does not understand ({detail})")]
    BadAnswer { path: PathBuf, detail: String },
    #[error("daemon at {0} stayed busy (connection cap reached) until the deadline")]
    Busy(PathBuf),
}

/// The socket of a home.
pub fn socket_path(home: &Path) -> PathBuf {
    Home::new(home).socket()
}

fn connect(path: &Path, timeout: Duration) -> Result<UnixStream, ClientError> {
    let stream =
        UnixStream::connect(path).map_err(|_| ClientError::NotRunning(path.to_path_buf()))?;
    let io = |source| ClientError::Io {
        path: path.to_path_buf(),
        source,
    };
    let timeout = timeout.max(Duration::from_millis(1));
    stream.set_read_timeout(Some(timeout)).map_err(io)?;
    stream.set_write_timeout(Some(timeout)).map_err(io)?;
    Ok(stream)
}

fn read_response(
    reader: &mut impl BufRead,
    path: &Path,
    line: &mut String,
) -> Result<Response, ClientError> {
    line.clear();
    reader.read_line(line).map_err(|source| ClientError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    if line.is_empty() {
        return Err(ClientError::BadAnswer {
            path: path.to_path_buf(),
            detail: "the connection closed without an answer".into(),
        });
    }
    serde_json::from_str(line).map_err(|e| ClientError::BadAnswer {
        path: path.to_path_buf(),
        detail: e.to_string(),
    })
}

/// Sends one request and waits (up to `timeout` between lines) for its answer; `on_progress`
/// sees every [`Response::Progress`] before the final answer. A busy daemon is asked again
/// until `timeout` has passed since the first attempt.
pub fn request_with(
    home: &Path,
    req: &Request,
    timeout: Duration,
    on_progress: &mut dyn FnMut(&Response),
) -> Result<Response, ClientError> {
    let path = socket_path(home);
    let started = Instant::now();
    loop {
        let stream = connect(&path, timeout)?;
        let io = |source| ClientError::Io {
            path: path.clone(),
            source,
        };
        (&stream).write_all(req.to_line().as_bytes()).map_err(io)?;
        let mut reader = BufReader::new(stream);
        let mut line = String::new();
        let mut answer = read_response(&mut reader, &path, &mut line)?;
        while matches!(answer, Response::Progress(_)) {
            on_progress(&answer);
            answer = read_response(&mut reader, &path, &mut line)?;
        }
        if answer != Response::Busy {
            return Ok(answer);
        }
        if started.elapsed() >= timeout {
            return Err(ClientError::Busy(path));
        }
        std::thread::sleep(Duration::from_millis(25));
    }
}

/// Sends one request and waits (up to `timeout`) for its answer.
pub fn request(home: &Path, req: &Request, timeout: Duration) -> Result<Response, ClientError> {
    request_with(home, req, timeout, &mut |_| {})
}

/// Tells the daemon new data is in the spool. Best effort, never waits for an answer.
pub fn poke(home: &Path) -> bool {
    match connect(&socket_path(home), Duration::from_millis(50)) {
        Ok(mut s) => s.write_all(Request::Poke.to_line().as_bytes()).is_ok(),
        Err(_) => false,
    }
}
