//! `fornax ui` over plain HTTP, as an attacker's page or another local program would talk to
//! it: loopback only, the token required, DNS rebinding and other origins refused, nothing
//! written, and server-sent events when the index grows.

mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use support::{fixtures, fornax, scan, Ui};

struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// One GET with exactly these headers (`Host` included, so it can lie).
fn get(port: u16, path: &str, headers: &[(&str, &str)]) -> Reply {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut req = format!("GET {path} HTTP/1.1\r\nConnection: close\r\n");
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    s.write_all(req.as_bytes()).unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let text = String::from_utf8_lossy(&raw).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(": "))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Reply {
        status,
        headers,
        body: body.to_string(),
    }
}

fn home() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    scan(&home, &fixtures().join("e2e"));
    (dir, home)
}

#[test]
fn only_this_machine_with_the_token_gets_in() {
    let (_dir, home) = home();
    let ui = Ui::start(&home);
    assert!(ui.url.starts_with("http://127.0.0.1:"), "{}", ui.url);
    let host = format!("127.0.0.1:{}", ui.port);
    let cookie = format!("fornax_ui_{}={}", ui.port, ui.token());

    // No token: refused, and nothing of the index is shown.
    let r = get(ui.port, "/findings", &[("Host", &host)]);
    assert_eq!(r.status, 401);
    assert!(!r.body.contains("CONTRADICTED"));
    let r = get(ui.port, "/findings?token=0000", &[("Host", &host)]);
    assert_eq!(r.status, 401, "a wrong token");

    // The right token in the address: a cookie, and the token leaves the address.
    let r = get(
        ui.port,
        &format!("/findings?verdict=REVIEW&token={}", ui.token()),
        &[("Host", &host)],
    );
    assert_eq!(r.status, 303);
    assert_eq!(r.header("location"), Some("/findings?verdict=REVIEW"));
    let set = r.header("set-cookie").unwrap();
    assert!(set.starts_with(&cookie), "{set}");
    assert!(
        set.contains("HttpOnly") && set.contains("SameSite=Strict"),
        "{set}"
    );

    // The cookie lets a page in, with a policy that fetches nothing from elsewhere.
    let r = get(
        ui.port,
        "/findings",
        &[("Host", &host), ("Cookie", &cookie)],
    );
    assert_eq!(r.status, 200);
    assert!(r.body.contains("CONTRADICTED"));
    let csp = r.header("content-security-policy").unwrap();
    assert!(
        csp.contains("default-src 'self'") && csp.contains("frame-ancestors 'none'"),
        "{csp}"
    );
    assert_eq!(r.header("referrer-policy"), Some("no-referrer"));
    assert!(!r.body.contains("https://"), "no asset from elsewhere");
    let r = get(
        ui.port,
        "/assets/app.js",
        &[("Host", &host), ("Cookie", &cookie)],
    );
    assert_eq!(r.status, 200);
    assert!(r
        .header("content-type")
        .unwrap()
        .starts_with("text/javascript"));

    // DNS rebinding: the attacker's name resolves to 127.0.0.1, but the Host says so.
    for bad in [
        "evil.example",
        &format!("evil.example:{}", ui.port),
        "127.0.0.1:1",
        "localhost",
    ] {
        let r = get(ui.port, "/findings", &[("Host", bad), ("Cookie", &cookie)]);
        assert_eq!(r.status, 421, "Host {bad}");
        assert!(!r.body.contains("CONTRADICTED"));
    }
    let localhost = format!("localhost:{}", ui.port);
    assert_eq!(
        get(ui.port, "/", &[("Host", &localhost), ("Cookie", &cookie)]).status,
        200
    );

    // Another site's page in the same browser (its cookie would go along): refused.
    for (k, v) in [
        ("Origin", "http://evil.example"),
        ("Sec-Fetch-Site", "cross-site"),
    ] {
        let r = get(
            ui.port,
            "/findings",
            &[("Host", &host), ("Cookie", &cookie), (k, v)],
        );
        assert_eq!(r.status, 403, "{k}: {v}");
    }
    let own = format!("http://127.0.0.1:{}", ui.port);
    let r = get(
        ui.port,
        "/findings",
        &[("Host", &host), ("Cookie", &cookie), ("Origin", &own)],
    );
    assert_eq!(r.status, 200);

    // Bad input in addresses is a page, never a crash.
    for path in [
        "/s/999999",
        "/s/nope",
        "/f/1/%FF%FE",
        "/r/-1",
        "/raw?source=x&position=1",
        "/s/1/text/none",
        "/findings?since=yesterdy",
        "/nothing",
    ] {
        let r = get(ui.port, path, &[("Host", &host), ("Cookie", &cookie)]);
        assert!([200, 400, 404].contains(&r.status), "{path}: {}", r.status);
    }
    let r = get(
        ui.port,
        "/findings?until=soon",
        &[("Host", &host), ("Cookie", &cookie)],
    );
    assert!(r.body.contains("invalid --until"), "a bad filter is named");
    assert_eq!(
        get(ui.port, "/", &[("Host", &host), ("Cookie", &cookie)]).status,
        200,
        "still serving"
    );
}

#[test]
fn the_token_is_kept_per_home_and_renewed_on_request() {
    let (_dir, home) = home();
    let first = Ui::start(&home);
    let token = first.token().to_string();
    drop(first);
    let second = Ui::start(&home);
    assert_eq!(second.token(), token, "a bookmark keeps working");
    drop(second);
    let mode = {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(home.join("ui-token"))
            .unwrap()
            .permissions()
            .mode()
            & 0o777
    };
    assert_eq!(mode, 0o600);
    let renewed = Ui::start_with(&home, &["--new-token"]);
    assert_ne!(renewed.token(), token, "--new-token replaces it");
    let host = format!("127.0.0.1:{}", renewed.port);
    let stale = format!("/?token={token}");
    assert_eq!(get(renewed.port, &stale, &[("Host", &host)]).status, 401);
    drop(renewed);

    // A port already taken is an error that names it.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let out = fornax(&home)
        .args(["ui", "--json", "--port", &port])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(&format!("127.0.0.1:{port}")),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn events_announce_what_a_scan_adds_and_the_store_is_only_read() {
    let (dir, home) = home();
    let db = home.join("fornax.db");
    let ui = Ui::start(&home);
    let host = format!("127.0.0.1:{}", ui.port);
    let cookie = format!("fornax_ui_{}={}", ui.port, ui.token());
    // Pages read; the database is not written (its bytes and WAL stay as they were).
    let before = std::fs::read(&db).unwrap();
    for path in [
        "/",
        "/sessions",
        "/findings",
        "/search?q=tests",
        "/s/latest",
    ] {
        assert_eq!(
            get(ui.port, path, &[("Host", &host), ("Cookie", &cookie)]).status,
            200,
            "{path}"
        );
    }
    assert_eq!(
        std::fs::read(&db).unwrap(),
        before,
        "serving pages wrote nothing"
    );

    let mut s = TcpStream::connect(("127.0.0.1", ui.port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
    write!(s, "GET /events HTTP/1.1\r\nHost: {host}\r\nCookie: {cookie}\r\nAccept: text/event-stream\r\n\r\n").unwrap();
    let mut reader = BufReader::new(s);
    let mut status = String::new();
    reader.read_line(&mut status).unwrap();
    assert!(status.contains(" 200 "), "{status}");

    let extra = dir.path().join("extra");
    std::fs::create_dir_all(&extra).unwrap();
    let rollout = std::fs::read_to_string(fixtures().join("e2e/codex-rollout.jsonl")).unwrap();
    std::fs::write(
        extra.join("rollout-new.jsonl"),
        rollout.replace(
            "0198f3c1-7a2b-7c3d-9e4f-5a6b7c8d9e0f",
            "0198f3c1-0000-7000-8000-0000000000ee",
        ),
    )
    .unwrap();
    scan(&home, &extra);
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut saw = None;
    while Instant::now() < deadline && saw.is_none() {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            break;
        }
        if let Some(data) = line.trim().strip_prefix("data: ") {
            saw = Some(data.to_string());
        }
    }
    let data: serde_json::Value = serde_json::from_str(&saw.expect("a change event")).unwrap();
    assert!(data["last_finding"].as_i64().unwrap() > 0);
    assert_eq!(data["sessions"], 5, "the new session is counted");
}
