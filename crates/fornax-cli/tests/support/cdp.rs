//! A small driver for a real, headless Chromium over the DevTools protocol: launch it, open a
//! page, run script in it, click like a mouse, take screenshots. The system's Chromium only
//! (Debian's `chromium`); nothing is downloaded.
//!
//! A few protocol calls are all the tests need, over one websocket; a full client library
//! would compile the whole protocol for them.

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// Where the system browser is, if it is installed.
pub fn chromium() -> Option<PathBuf> {
    std::env::var_os("FORNAX_CHROMIUM")
        .map(PathBuf::from)
        .into_iter()
        .chain(["/usr/bin/chromium", "/usr/bin/chromium-browser"].map(PathBuf::from))
        .find(|p| p.is_file())
}

pub struct Browser {
    child: Child,
    ws: WebSocket<MaybeTlsStream<TcpStream>>,
    session: String,
    next: u64,
    _profile: tempfile::TempDir,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.ws.close(None);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Browser {
    /// Starts the browser with a fresh profile, in UTC, 1280×900.
    pub fn launch(binary: &Path) -> Browser {
        let profile = tempfile::tempdir().unwrap();
        let mut child = Command::new(binary)
            .args([
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-extensions",
                "--disable-dev-shm-usage",
                "--hide-scrollbars",
                "--force-color-profile=srgb",
                "--remote-debugging-port=0",
                "--window-size=1280,900",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .env("TZ", "UTC")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("chromium starts");
        let stderr = child.stderr.take().unwrap();
        let mut lines = BufReader::new(stderr).lines();
        let endpoint = loop {
            let line = lines
                .next()
                .expect("chromium prints its DevTools address")
                .unwrap();
            if let Some(rest) = line.split("DevTools listening on ").nth(1) {
                break rest.trim().to_string();
            }
        };
        // Keep reading stderr so the browser never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        let (ws, _) = tungstenite::connect(endpoint.as_str()).expect("DevTools websocket");
        if let MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        }
        let mut browser = Browser {
            child,
            ws,
            session: String::new(),
            next: 0,
            _profile: profile,
        };
        let target = browser.call("Target.createTarget", json!({"url": "about:blank"}));
        let attached = browser.call(
            "Target.attachToTarget",
            json!({"targetId": target["targetId"], "flatten": true}),
        );
        browser.session = attached["sessionId"].as_str().unwrap().to_string();
        browser.page("Page.enable", json!({}));
        browser.page("Runtime.enable", json!({}));
        browser.page(
            "Emulation.setTimezoneOverride",
            json!({"timezoneId": "UTC"}),
        );
        browser.viewport(1280, 900);
        browser
    }

    fn send(&mut self, method: &str, params: Value, session: Option<&str>) -> Value {
        self.next += 1;
        let id = self.next;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if let Some(s) = session {
            msg["sessionId"] = json!(s);
        }
        self.ws.send(Message::text(msg.to_string())).unwrap();
        loop {
            let reply = self.ws.read().expect("DevTools reply");
            let Message::Text(text) = reply else { continue };
            let v: Value = serde_json::from_str(text.as_str()).unwrap();
            if v["id"] == id {
                assert!(v.get("error").is_none(), "{method}: {v}");
                return v["result"].clone();
            }
        }
    }

    fn call(&mut self, method: &str, params: Value) -> Value {
        self.send(method, params, None)
    }

    fn page(&mut self, method: &str, params: Value) -> Value {
        let session = self.session.clone();
        self.send(method, params, Some(&session))
    }

    pub fn viewport(&mut self, width: u32, height: u32) {
        self.page(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}),
        );
    }

    /// Runs `script` in the page (awaiting a promise) and returns its value.
    pub fn eval(&mut self, script: &str) -> Value {
        let r = self.page(
            "Runtime.evaluate",
            json!({"expression": script, "returnByValue": true, "awaitPromise": true}),
        );
        assert!(
            r.get("exceptionDetails").is_none(),
            "script failed: {script}\n{r:#}"
        );
        r["result"]["value"].clone()
    }

    /// Waits until `condition` (a script) is true, or fails with `what`.
    pub fn wait_for(&mut self, condition: &str, what: &str) {
        let deadline = Instant::now() + Duration::from_secs(15);
        while Instant::now() < deadline {
            if self.eval(&format!("!!({condition})")) == json!(true) {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("timed out waiting for {what} ({condition})");
    }

    /// Opens `url` and waits until the page has loaded.
    pub fn open(&mut self, url: &str) {
        self.page("Page.navigate", json!({"url": url}));
        std::thread::sleep(Duration::from_millis(50));
        self.wait_for(
            "document.readyState === 'complete' && location.href !== 'about:blank'",
            url,
        );
    }

    /// Clicks the first element matching `selector` with the mouse, at its center.
    pub fn click(&mut self, selector: &str) {
        let script = format!(
            "(() => {{ const e = document.querySelector({sel}); if (!e) return null;
               e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect();
               return [r.left + r.width / 2, r.top + r.height / 2]; }})()",
            sel = serde_json::to_string(selector).unwrap()
        );
        let at = self.eval(&script);
        let (x, y) = match at.as_array() {
            Some(a) => (a[0].as_f64().unwrap(), a[1].as_f64().unwrap()),
            None => panic!("nothing to click at {selector}"),
        };
        for kind in ["mouseMoved", "mousePressed", "mouseReleased"] {
            self.page(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            );
        }
    }

    /// Saves the page as a PNG: all of it with `whole`, else what the window shows.
    pub fn screenshot(&mut self, path: &Path, whole: bool) {
        let shot = self.page(
            "Page.captureScreenshot",
            json!({"format": "png", "captureBeyondViewport": whole}),
        );
        let data = shot["data"].as_str().unwrap();
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, data_encoding::BASE64.decode(data.as_bytes()).unwrap()).unwrap();
    }
}
