//! Who may talk to the dashboard: a browser on this machine that holds the home's token.
//!
//! Every request must name the server by a loopback host and port (`Host`), so a page on
//! another site that rebinds its DNS name to 127.0.0.1 is refused; a request that says where
//! it comes from (`Origin`, `Sec-Fetch-Site`) must come from the dashboard itself; and it must
//! carry the token, in the address (`?token=`, exchanged for a cookie and dropped from the
//! address) or in that cookie.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::{pages, token, AppState};

/// Why a request was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// `Host` is missing or is not this server's loopback address.
    Host,
    /// `Origin` or `Sec-Fetch-Site` says another site sent it.
    Origin,
    /// No token, or the wrong one.
    Token,
}

/// The `Host` values this server answers to.
pub fn allowed_hosts(port: u16) -> [String; 3] {
    [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
    ]
}

/// Checks the headers that say where a request is addressed and where it comes from.
pub fn check_origin(headers: &HeaderMap, port: u16) -> Result<(), Refusal> {
    let hosts = allowed_hosts(port);
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .map(|h| h.to_ascii_lowercase());
    if !host.is_some_and(|h| hosts.contains(&h)) {
        return Err(Refusal::Host);
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("").to_ascii_lowercase();
        if !hosts.iter().any(|h| origin == format!("http://{h}")) {
            return Err(Refusal::Origin);
        }
    }
    if let Some(site) = headers.get("sec-fetch-site") {
        if !matches!(site.to_str().unwrap_or(""), "same-origin" | "none") {
            return Err(Refusal::Origin);
        }
    }
    Ok(())
}

/// The name of the cookie that carries the token (per port: cookies do not tell ports
/// apart, and two homes may be served at once).
pub fn cookie_name(port: u16) -> String {
    format!("fornax_ui_{port}")
}

fn cookie_token<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// The address without its `token` parameter.
fn without_token(uri: &Uri) -> String {
    let kept: Vec<&str> = uri
        .query()
        .unwrap_or("")
        .split('&')
        .filter(|kv| !kv.is_empty() && !kv.starts_with("token="))
        .collect();
    if kept.is_empty() {
        uri.path().to_string()
    } else {
        format!("{}?{}", uri.path(), kept.join("&"))
    }
}

fn query_token(uri: &Uri) -> Option<&str> {
    uri.query()?
        .split('&')
        .find_map(|kv| kv.strip_prefix("token="))
}

pub async fn guard(State(state): State<Arc<AppState>>, req: Request, next: Next) -> Response {
    if let Err(refusal) = check_origin(req.headers(), state.port) {
        return refused(refusal);
    }
    let name = cookie_name(state.port);
    if let Some(given) = query_token(req.uri()) {
        if !token::matches(given, &state.token) {
            return refused(Refusal::Token);
        }
        let cookie = format!(
            "{name}={}; Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000",
            state.token
        );
        let mut response = (
            StatusCode::SEE_OTHER,
            [(header::LOCATION, without_token(req.uri()))],
        )
            .into_response();
        if let Ok(v) = HeaderValue::from_str(&cookie) {
            response.headers_mut().insert(header::SET_COOKIE, v);
        }
        return with_policy(response);
    }
    match cookie_token(req.headers(), &name) {
        Some(given) if token::matches(given, &state.token) => with_policy(next.run(req).await),
        _ => refused(Refusal::Token),
    }
}

fn refused(refusal: Refusal) -> Response {
    let (status, why) = match refusal {
        Refusal::Host => (
            StatusCode::MISDIRECTED_REQUEST,
            "This dashboard answers only at 127.0.0.1 or localhost.",
        ),
        Refusal::Origin => (
            StatusCode::FORBIDDEN,
            "Requests from other sites are refused.",
        ),
        Refusal::Token => (
            StatusCode::UNAUTHORIZED,
            "Open the address `fornax ui` printed (it carries this home's token).",
        ),
    };
    with_policy((status, pages::refusal_page(why)).into_response())
}

/// Headers every answer carries: nothing is fetched from elsewhere, framed, cached or sent
/// on as a referrer (addresses may carry the token).
fn with_policy(mut response: Response) -> Response {
    let h = response.headers_mut();
    let set = |h: &mut HeaderMap, k: &'static str, v: &'static str| {
        h.insert(k, HeaderValue::from_static(v));
    };
    set(
        h,
        "content-security-policy",
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; \
         connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    );
    set(h, "x-content-type-options", "nosniff");
    set(h, "referrer-policy", "no-referrer");
    set(h, "x-frame-options", "DENY");
    set(h, "cache-control", "no-store");
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn only_loopback_hosts_of_this_port() {
        assert_eq!(
            check_origin(&headers(&[("host", "127.0.0.1:4000")]), 4000),
            Ok(())
        );
        assert_eq!(
            check_origin(&headers(&[("host", "LOCALHOST:4000")]), 4000),
            Ok(())
        );
        for bad in [
            "evil.example:4000",
            "127.0.0.1:4001",
            "127.0.0.1",
            "attacker.127.0.0.1.nip.io:4000",
        ] {
            assert_eq!(
                check_origin(&headers(&[("host", bad)]), 4000),
                Err(Refusal::Host),
                "{bad}"
            );
        }
        assert_eq!(check_origin(&HeaderMap::new(), 4000), Err(Refusal::Host));
    }

    #[test]
    fn other_origins_are_refused() {
        let ok = headers(&[
            ("host", "127.0.0.1:4000"),
            ("origin", "http://127.0.0.1:4000"),
        ]);
        assert_eq!(check_origin(&ok, 4000), Ok(()));
        for origin in [
            "http://evil.example",
            "http://127.0.0.1:4001",
            "null",
            "https://127.0.0.1:4000",
        ] {
            let h = {
                let mut h = headers(&[("host", "127.0.0.1:4000")]);
                h.insert("origin", HeaderValue::from_str(origin).unwrap());
                h
            };
            assert_eq!(check_origin(&h, 4000), Err(Refusal::Origin), "{origin}");
        }
        let cross = headers(&[("host", "127.0.0.1:4000"), ("sec-fetch-site", "cross-site")]);
        assert_eq!(check_origin(&cross, 4000), Err(Refusal::Origin));
    }

    #[test]
    fn the_token_leaves_the_address() {
        let uri: Uri = "/findings?verdict=review&token=abc&page=2".parse().unwrap();
        assert_eq!(query_token(&uri), Some("abc"));
        assert_eq!(without_token(&uri), "/findings?verdict=review&page=2");
        let uri: Uri = "/?token=abc".parse().unwrap();
        assert_eq!(without_token(&uri), "/");
        let h = headers(&[("cookie", "a=1; fornax_ui_4000=tok; b=2")]);
        assert_eq!(cookie_token(&h, "fornax_ui_4000"), Some("tok"));
        assert_eq!(cookie_token(&h, "fornax_ui_4001"), None);
    }
}
