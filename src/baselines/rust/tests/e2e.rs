//! End to end: the ingest-rust binary run as processes on 127.0.0.1:0 — front-ends in front of real back-ends (and
//! of small fake ones that fail on purpose), the contract checked from outside over real sockets, as the Go
//! baselines' suite does (src/baselines/go/internal/e2etest).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_ingest-rust");
const JSON: &str = "application/json";
const NDJSON: &str = "application/x-ndjson";
const CLASSIC: &str = r#"{"data": "{'job_id':'c4bb6d130003','container_id':'ab7b85dcac72','status':'Success: process exited with code 0.'}"}"#;
const TS: &str = r#""timestamp":"2026-11-22T10:00:00Z""#;

/// A service started as its own process; killed when dropped if it still runs.
struct Service {
    child: Child,
    stdout: BufReader<ChildStdout>,
    config: String,
    addr: String,
}

impl Drop for Service {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(args: &[&str]) -> Service {
    let mut child = Command::new(BIN)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("starting ingest-rust");
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut config = String::new();
    stdout.read_line(&mut config).unwrap();
    let mut ready = String::new();
    stdout.read_line(&mut ready).unwrap();
    assert_eq!(ready.trim_end(), "Application started.", "config line {:?}", config);
    let at = config.find("listen=http://").unwrap_or_else(|| panic!("no listen address in {:?}", config));
    let addr = config[at + "listen=http://".len()..].split_whitespace().next().unwrap().to_owned();
    Service { child, stdout, config: config.trim_end().to_owned(), addr }
}

fn backend(extra: &[&str]) -> Service {
    let mut args = vec!["-role", "backend", "-listen", "127.0.0.1:0"];
    args.extend_from_slice(extra);
    start(&args)
}

fn frontend(backends: &str, extra: &[&str]) -> Service {
    let mut args = vec!["-role", "frontend", "-listen", "127.0.0.1:0", "-backends", backends];
    args.extend_from_slice(extra);
    start(&args)
}

fn url(s: &Service) -> String {
    format!("http://{}", s.addr)
}

#[derive(Debug)]
struct Answer {
    status: u16,
    headers: HashMap<String, String>,
    body: String,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).map(String::as_str)
    }

    fn want(&self, status: u16, content_type: &str, body: &str) {
        assert!(
            self.status == status && self.header("content-type") == Some(content_type) && (body.is_empty() || self.body == body),
            "got {} {:?} {}; want {} {} {}",
            self.status,
            self.header("content-type"),
            self.body,
            status,
            content_type,
            body
        );
        assert_eq!(self.header("server"), Some("rust-hyper"));
        assert!(self.header("date").map_or(false, |d| d.ends_with(" GMT")), "Date {:?}", self.header("date"));
    }

    fn want_problem(&self, status: u16, slug: &str, field: &str) {
        assert_eq!(self.header("content-type"), Some("application/problem+json"), "{:?}", self);
        let p: serde_json::Value = serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{}: {}", self.body, e));
        let got_field = p.get("field").and_then(|f| f.as_str()).unwrap_or("");
        assert!(
            self.status == status
                && p["status"] == status
                && p["type"] == format!("urn:ingest:problem:{}", slug).as_str()
                && !p["title"].as_str().unwrap_or("").is_empty()
                && !p["detail"].as_str().unwrap_or("").is_empty()
                && got_field == field
                && (field.is_empty() == p.get("field").is_none()),
            "got {} {}; want {} {} field {:?}",
            self.status,
            self.body,
            status,
            slug,
            field
        );
        assert_eq!(self.header("server"), Some("rust-hyper"));
    }
}

/// Reads one answer from a connection the server closes after it (Connection: close asked, or a refusal).
fn read_answer(stream: &mut TcpStream) -> Answer {
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).expect("reading the answer");
    parse_answer(&raw)
}

fn parse_answer(raw: &[u8]) -> Answer {
    let text = String::from_utf8_lossy(raw);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or_else(|| panic!("no answer head in {:?}", text));
    let mut lines = head.split("\r\n");
    let status = lines.next().unwrap().split(' ').nth(1).unwrap().parse().unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Answer { status, headers, body: body.to_owned() }
}

fn raw(addr: &str, request: &str) -> Answer {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    read_answer(&mut stream)
}

fn send(base: &str, method: &str, path: &str, content_type: Option<&str>, body: &str, extra: &[(&str, &str)]) -> Answer {
    let addr = base.trim_start_matches("http://");
    let mut request = format!("{} {} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n", method, path, addr);
    if let Some(ct) = content_type {
        request.push_str(&format!("Content-Type: {}\r\n", ct));
    }
    for (name, value) in extra {
        request.push_str(&format!("{}: {}\r\n", name, value));
    }
    if method != "GET" && method != "HEAD" || !body.is_empty() {
        request.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    request.push_str("\r\n");
    request.push_str(body);
    raw(addr, &request)
}

fn post(base: &str, content_type: &str, body: &str) -> Answer {
    send(base, "POST", "/ingest/event", Some(content_type), body, &[])
}

fn get(base: &str, path: &str) -> Answer {
    send(base, "GET", path, None, "", &[])
}

fn stats(backend: &Service) -> [i64; 3] {
    let a = get(&url(backend), "/ingest/stats");
    a.want(200, JSON, "");
    let s: serde_json::Value = serde_json::from_str(&a.body).unwrap();
    let by = &s["by_type"];
    let counts = [by["job"].as_i64().unwrap(), by["metric"].as_i64().unwrap(), by["log"].as_i64().unwrap()];
    assert_eq!(s["total"].as_i64().unwrap(), counts.iter().sum::<i64>(), "{}", a.body);
    counts
}

/// The i-th event of a mixed batch: job, metric, log and the classic payload in turn, and its type's index.
fn event(i: usize) -> (String, usize) {
    match i % 4 {
        0 => (format!(r#"{{"type":"job","source":"s-{i}",{ts},"job_id":"j-{i}","status":"done"}}"#, i = i, ts = TS), 0),
        1 => (format!(r#"{{"type":"metric","source":"s-{i}",{ts},"name":"cpu","value":0.{i},"unit":"ratio"}}"#, i = i, ts = TS), 1),
        2 => (format!(r#"{{"type":"log","source":"s-{i}",{ts},"level":"WARN","message":"m-{i}"}}"#, i = i, ts = TS), 2),
        _ => (CLASSIC.to_owned(), 0),
    }
}

fn batch(n: usize, sep: &str) -> (String, [i64; 3]) {
    let mut counts = [0; 3];
    let items: Vec<String> = (0..n)
        .map(|i| {
            let (e, t) = event(i);
            counts[t] += 1;
            e
        })
        .collect();
    (items.join(sep), counts)
}

/// A fake back-end answering every request with `answer` (a whole HTTP answer), keeping the request heads.
fn fake_backend(answer: &'static str) -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let heads = Arc::new(Mutex::new(Vec::new()));
    let kept = heads.clone();
    thread::spawn(move || {
        for stream in listener.incoming() {
            let mut stream = match stream {
                Ok(s) => s,
                Err(_) => return,
            };
            let kept = kept.clone();
            thread::spawn(move || {
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                loop {
                    let mut head = String::new();
                    let mut length = 0;
                    loop {
                        let mut line = String::new();
                        if reader.read_line(&mut line).unwrap_or(0) == 0 {
                            return;
                        }
                        if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                            length = v.trim().parse().unwrap_or(0);
                        }
                        if line == "\r\n" {
                            break;
                        }
                        head.push_str(&line);
                    }
                    let mut body = vec![0; length];
                    if reader.read_exact(&mut body).is_err() {
                        return;
                    }
                    kept.lock().unwrap().push(head);
                    if stream.write_all(answer.as_bytes()).is_err() {
                        return;
                    }
                }
            });
        }
    });
    (format!("http://{}", addr), heads)
}

fn free_address() -> String {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().to_string()
}

#[test]
fn accepts_every_shape_and_the_back_end_counts_exactly() {
    let b = backend(&[]);
    let f = frontend(&url(&b), &[]);
    let base = url(&f);
    let mut want = [0i64; 3];
    post(&base, JSON, CLASSIC).want(200, JSON, r#"{"accepted":1}"#);
    want[0] += 1;
    for (i, ct) in [JSON, "application/json; charset=utf-8", "Application/JSON;charset=\"UTF-8\""].iter().enumerate() {
        let (e, t) = event(i);
        post(&base, ct, &e).want(200, JSON, r#"{"accepted":1}"#);
        want[t] += 1;
    }
    let (array, counts) = batch(100, ",");
    post(&base, JSON, &format!("[{}]", array)).want(200, JSON, r#"{"accepted":100}"#);
    (0..3).for_each(|t| want[t] += counts[t]);
    let (lines, counts) = batch(100, "\n\n");
    post(&base, NDJSON, &format!("{}\n", lines)).want(200, JSON, r#"{"accepted":100}"#);
    (0..3).for_each(|t| want[t] += counts[t]);
    post(&base, "application/x-ndjson; charset=utf-8", CLASSIC).want(200, JSON, r#"{"accepted":1}"#);
    want[0] += 1;
    // A chunked body reads like any other.
    let chunked = format!(
        "POST /ingest/event HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n{}\r\n{:x}\r\n{}\r\n0\r\n\r\n",
        10,
        &CLASSIC[..10],
        CLASSIC.len() - 10,
        &CLASSIC[10..]
    );
    raw(&f.addr, &chunked).want(200, JSON, r#"{"accepted":1}"#);
    want[0] += 1;
    assert_eq!(stats(&b), want);
}

#[test]
fn rejects_bad_input_with_the_contracts_problem_and_persists_nothing() {
    let b = backend(&[]);
    let f = frontend(&url(&b), &[]);
    let base = url(&f);
    let job = |m: &str| format!(r#"{{"type":"job","source":"s",{},{}}}"#, TS, m);
    let (third, _) = event(2);
    let cases: Vec<(&str, Option<&str>, String, u16, &str, &str)> = vec![
        ("malformed", Some(JSON), r#"{"type":"job","#.into(), 400, "malformed-json", "$.type"),
        ("trailing", Some(JSON), format!("{} x", CLASSIC), 400, "malformed-json", "$"),
        ("inner", Some(JSON), r#"{"data": "{'job_id':'x','status':'unterminated}"}"#.into(), 400, "malformed-json", "$.data"),
        ("empty", Some(JSON), String::new(), 400, "empty-body", ""),
        ("blank", Some(NDJSON), "\n \r\n".into(), 400, "empty-body", ""),
        ("empty batch", Some(JSON), "[]".into(), 400, "empty-body", ""),
        ("text/plain", Some("text/plain"), CLASSIC.into(), 415, "unsupported-media-type", ""),
        ("no content type", None, CLASSIC.into(), 415, "unsupported-media-type", ""),
        ("other charset", Some("application/json; charset=iso-8859-1"), CLASSIC.into(), 415, "unsupported-media-type", ""),
        ("unknown type", Some(JSON), format!(r#"{{"type":"trace","source":"s",{}}}"#, TS), 400, "unknown-type", "$.type"),
        ("missing type", Some(JSON), r#"{"source":"s"}"#.into(), 400, "missing-field", "$.type"),
        ("missing field", Some(JSON), job(r#""status":"s""#), 400, "missing-field", "$.job_id"),
        ("inner missing", Some(JSON), r#"{"data": "{'status':'ok'}"}"#.into(), 400, "missing-field", "$.data.job_id"),
        ("wrong type", Some(JSON), job(r#""job_id":123,"status":"s""#), 400, "invalid-field", "$.job_id"),
        ("named twice", Some(JSON), job(r#""job_id":"a","job_id":"b","status":"s""#), 400, "invalid-field", "$.job_id"),
        ("bad timestamp", Some(JSON), r#"{"type":"log","source":"s","timestamp":"yesterday","level":"info","message":"m"}"#.into(), 400, "invalid-field", "$.timestamp"),
        ("too long", Some(JSON), job(&format!(r#""job_id":"{}","status":"s""#, "j".repeat(257))), 400, "invalid-field", "$.job_id"),
        ("array item", Some(JSON), format!("[{},{}]", CLASSIC, job(r#""status":"s""#)), 400, "missing-field", "$[1].job_id"),
        ("ndjson line", Some(NDJSON), format!("{}\n\n{}", CLASSIC, third.replace(r#""level":"WARN""#, r#""level":"loud""#)), 400, "invalid-field", "$[1].level"),
    ];
    for (name, ct, body, status, slug, field) in &cases {
        let a = send(&base, "POST", "/ingest/event", *ct, body, &[]);
        if a.status != *status {
            panic!("{}: {:?}", name, a);
        }
        a.want_problem(*status, slug, field);
    }
    // A body whose chunked framing breaks is malformed-json, and the connection closes.
    let broken = "POST /ingest/event HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n";
    let a = raw(&f.addr, broken);
    assert_eq!(a.status, 400, "{:?}", a);
    assert_eq!(stats(&b), [0, 0, 0]);
}

#[test]
fn bodies_and_batches_over_the_limits_are_413() {
    let b = backend(&[]);
    let f = frontend(&url(&b), &["-max-body-bytes", "1024", "-max-batch-events", "10"]);
    let base = url(&f);
    // Only the head is sent: refused on Content-Length alone, and closed.
    let a = raw(&f.addr, "POST /ingest/event HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n\r\n");
    a.want_problem(413, "payload-too-large", "");
    assert_eq!(a.header("connection"), Some("close"));
    let long = format!(r#"{{"data":"{}"}}"#, "x".repeat(2000));
    post(&base, JSON, &long).want_problem(413, "payload-too-large", "");
    let chunked = format!(
        "POST /ingest/event HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n{}\r\n{:x}\r\n{}\r\n0\r\n\r\n",
        1000,
        "x".repeat(1000),
        1000,
        "x".repeat(1000)
    );
    let a = raw(&f.addr, &chunked);
    a.want_problem(413, "payload-too-large", "");
    assert_eq!(a.header("connection"), Some("close"));
    // The unsupported Content-Type wins over the size.
    raw(&f.addr, "POST /ingest/event HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 1048576\r\n\r\n")
        .want_problem(415, "unsupported-media-type", "");
    post(&base, JSON, &format!("{}{}", CLASSIC, " ".repeat(1024 - CLASSIC.len()))).want(200, JSON, r#"{"accepted":1}"#);
    let small: Vec<&str> = vec![r#"{"data":"{'job_id':'j','status':''}"}"#; 11];
    post(&base, JSON, &format!("[{}]", small.join(","))).want_problem(413, "payload-too-large", "");
    post(&base, NDJSON, &small.join("\n")).want_problem(413, "payload-too-large", "");
    post(&base, NDJSON, &small[..10].join("\n")).want(200, JSON, r#"{"accepted":10}"#);
    assert_eq!(stats(&b), [11, 0, 0]);
}

#[test]
fn back_end_down_is_502() {
    let f = frontend(&format!("http://{}", free_address()), &[]);
    post(&url(&f), JSON, CLASSIC).want_problem(502, "backend-failed", "");
}

#[test]
fn back_end_answering_an_error_is_502_and_one_good_back_end_does_not_hide_it() {
    let (failing, _) = fake_backend("HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n");
    let f = frontend(&failing, &[]);
    post(&url(&f), JSON, CLASSIC).want_problem(502, "backend-failed", "");
    let b = backend(&[]);
    let f = frontend(&format!("{},{}", url(&b), failing), &[]);
    post(&url(&f), JSON, CLASSIC).want_problem(502, "backend-failed", "");
}

#[test]
fn back_end_unavailable_is_503_with_its_retry_after() {
    let (unavailable, _) = fake_backend("HTTP/1.1 503 Service Unavailable\r\nRetry-After: 7\r\nContent-Length: 0\r\n\r\n");
    let f = frontend(&unavailable, &[]);
    let a = post(&url(&f), JSON, CLASSIC);
    a.want_problem(503, "overloaded", "");
    assert_eq!(a.header("retry-after"), Some("7"));
    let (bare, _) = fake_backend("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n");
    let f = frontend(&bare, &[]);
    assert_eq!(post(&url(&f), JSON, CLASSIC).header("retry-after"), Some("1"));
}

#[test]
fn slow_back_end_is_504() {
    let b = backend(&["-delay-ms", "600"]);
    let f = frontend(&url(&b), &["-timeout-ms", "100"]);
    let started = Instant::now();
    post(&url(&f), JSON, CLASSIC).want_problem(504, "backend-timeout", "");
    assert!(started.elapsed() < Duration::from_millis(550), "{:?}", started.elapsed());
}

#[test]
fn every_back_end_gets_every_event_with_an_idempotency_key() {
    let (first, second) = (backend(&[]), backend(&[]));
    let (fake, heads) = fake_backend("HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\n{\"persisted\":1}");
    let f = frontend(&format!("{}, {},{}", url(&first), url(&second), fake), &["-max-conns-per-host", "4"]);
    let (lines, counts) = batch(10, "\n");
    post(&url(&f), NDJSON, &lines).want(200, JSON, r#"{"accepted":10}"#);
    post(&url(&f), JSON, CLASSIC).want(200, JSON, r#"{"accepted":1}"#);
    let want = [counts[0] + 1, counts[1], counts[2]];
    assert_eq!(stats(&first), want);
    assert_eq!(stats(&second), want);
    let heads = heads.lock().unwrap().clone();
    let keys: Vec<String> = heads
        .iter()
        .map(|h| {
            assert!(h.starts_with("POST /ingest/data HTTP/1.1\r\n"), "{}", h);
            assert!(h.to_ascii_lowercase().contains("content-type: application/json\r\n"), "{}", h);
            h.lines().find_map(|l| l.strip_prefix("idempotency-key: ")).unwrap_or_else(|| panic!("no key in {}", h)).to_owned()
        })
        .collect();
    assert_eq!(keys.len(), 2);
    for key in &keys {
        assert!(key.len() == 32 && key.bytes().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f')), "{:?}", key);
    }
    assert_ne!(keys[0], keys[1], "a fresh key per forward");
}

#[test]
fn the_back_end_persists_a_repeated_idempotency_key_once() {
    let b = backend(&[]);
    let body = r#"[{"type":"job","source":"s","timestamp":"2026-11-22T10:00:00Z","received_at":"2026-11-22T10:00:00Z","job_id":"j","status":"s"}]"#;
    let key = [("Idempotency-Key", "0123456789abcdef0123456789abcdef")];
    for _ in 0..3 {
        send(&url(&b), "POST", "/ingest/data", Some(JSON), body, &key).want(200, JSON, r#"{"persisted":1}"#);
    }
    send(&url(&b), "POST", "/ingest/data", Some(JSON), body, &[("Idempotency-Key", "other")]).want(200, JSON, r#"{"persisted":1}"#);
    send(&url(&b), "POST", "/ingest/data", Some(JSON), body, &[]).want(200, JSON, r#"{"persisted":1}"#);
    // Longer than 128 characters: no key, persisted every time.
    let long = "k".repeat(129);
    for _ in 0..2 {
        send(&url(&b), "POST", "/ingest/data", Some(JSON), body, &[("Idempotency-Key", &long)]).want(200, JSON, r#"{"persisted":1}"#);
    }
    // A refused request leaves its key unused.
    send(&url(&b), "POST", "/ingest/data", Some(JSON), r#"[{"type":"log"}]"#, &[("Idempotency-Key", "refused-first")]).want_problem(400, "missing-field", "$[0].source");
    send(&url(&b), "POST", "/ingest/data", Some(JSON), body, &[("Idempotency-Key", "refused-first")]).want(200, JSON, r#"{"persisted":1}"#);
    assert_eq!(stats(&b), [6, 0, 0]);
    send(&url(&b), "POST", "/ingest/data", Some(JSON), r#"{"type":"nope"}"#, &[]).want_problem(400, "unknown-type", "$.type");
    send(&url(&b), "POST", "/ingest/data", Some(NDJSON), body, &[]).want_problem(415, "unsupported-media-type", "");
    let page = get(&url(&b), "/status");
    page.want(200, "text/html; charset=utf-8", "");
    assert!(page.body.contains("data-fact=\"persisted.null\"><th>persisted.null</th><td>6</td>"), "{}", page.body);
    assert!(page.body.contains("<td>idempotency.duplicates</td>") || page.body.contains(">idempotency.duplicates<"));
    assert!(page.body.contains("<tr class=\"event\"><td>job</td><td>s</td><td>2026-11-22T10:00:00.0000000Z</td><td>j s</td></tr>"));
}

const READ_ALLOW: &str = "GET, HEAD";
const METHODS: [&str; 8] = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "FOO"];

/// Every method on a route: its own answered (HEAD: GET's headers, no body), any other 405 with Allow.
fn want_methods(base: &str, path: &str, allow: &str, post_body: &str) {
    for method in METHODS {
        let body = if method == "POST" { post_body } else { "" };
        let a = send(base, method, path, Some(JSON), body, &[]);
        let answers = if allow == "POST" { method == "POST" } else { method == "GET" || method == "HEAD" };
        if !answers {
            assert!(a.status == 405 && a.header("allow") == Some(allow), "{} {}: {:?}", method, path, a);
            if method == "HEAD" {
                assert!(a.body.is_empty(), "HEAD {}: a body", path);
            } else {
                a.want_problem(405, "method-not-allowed", "");
            }
        } else if method == "HEAD" {
            let g = get(base, path);
            assert!(a.status == 200 && a.body.is_empty(), "HEAD {}: {:?}", path, a);
            assert_eq!(a.header("content-type"), g.header("content-type"), "HEAD {}", path);
            if !path.is_empty() && path != "/" && path != "/status" {
                assert_eq!(a.header("content-length"), g.header("content-length"), "HEAD {}", path);
            }
            assert!(a.header("content-length").is_some(), "HEAD {}: no Content-Length", path);
        } else {
            assert_eq!(a.status, 200, "{} {}: {:?}", method, path, a);
        }
    }
}

#[test]
fn reference_endpoints_answer_as_the_contract_says() {
    let b = backend(&[]);
    let f = frontend(&url(&b), &[]);
    let base = url(&f);
    get(&base, "/plaintext").want(200, "text/plain", "Hello, World!");
    get(&base, "/json").want(200, JSON, r#"{"message":"Hello, World!"}"#);
    get(&base, "/healthz").want(200, "text/plain", "Healthy");
    for id in ["5", "-1", "2147483647", "-2147483648"] {
        get(&base, &format!("/api/values/{}", id)).want(200, "text/plain", "value");
    }
    for path in ["/api/values/x", "/api/values/2147483648", "/api/values/", "/nowhere", "/ingest/data", "/ingest/stats"] {
        get(&base, path).want_problem(404, "not-found", "");
    }
    want_methods(&base, "/ingest/event", "POST", CLASSIC);
    for path in ["/plaintext", "/json", "/api/values/5", "/healthz", "/", "/status"] {
        want_methods(&base, path, READ_ALLOW, "");
    }
    for method in METHODS {
        let a = send(&base, method, "/nowhere", None, "", &[]);
        assert!(a.status == 404 && a.header("allow").is_none(), "{} /nowhere: {:?}", method, a);
    }
    // The back-end's routes, and the front-end's that it does not serve.
    let back = url(&b);
    want_methods(&back, "/ingest/data", "POST", r#"{"type":"log","source":"s","timestamp":"2026-11-22T10:00:00Z","level":"info","message":"m"}"#);
    for path in ["/ingest/stats", "/healthz", "/", "/status"] {
        want_methods(&back, path, READ_ALLOW, "");
    }
    for path in ["/plaintext", "/json", "/api/values/5", "/ingest/event"] {
        get(&back, path).want_problem(404, "not-found", "");
    }
    let page = get(&base, "/");
    page.want(200, "text/html; charset=utf-8", "");
    assert!(page.body.contains("<tr data-fact=\"config.role\"><th>role</th><td>FrontEnd</td></tr>"), "{}", page.body);
    assert!(page.body.contains("<tr data-fact=\"forwards.ok\"><th>forwards.ok</th><td>1</td></tr>"), "{}", page.body);
}

fn terminate(s: &Service) {
    let status = Command::new("kill").args(["-TERM", &s.child.id().to_string()]).status().unwrap();
    assert!(status.success());
}

fn wait_exit(s: &mut Service, within: Duration) -> i32 {
    let deadline = Instant::now() + within;
    loop {
        if let Some(status) = s.child.try_wait().unwrap() {
            return status.code().unwrap_or(-1);
        }
        assert!(Instant::now() < deadline, "the process did not exit within {:?}", within);
        thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn the_process_announces_itself_and_stops_gracefully_on_sigterm() {
    let mut b = backend(&["-delay-ms", "300"]);
    assert!(b.config.starts_with("ingest-rust backend (hyper): listen=http://127.0.0.1:"), "{}", b.config);
    assert!(b.config.contains(" delay-ms=300 "), "{}", b.config);
    // An idle keep-alive connection does not hold the stop up.
    let mut idle = TcpStream::connect(&b.addr).unwrap();
    idle.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    let mut buf = [0u8; 512];
    let n = idle.read(&mut buf).unwrap();
    assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 200 OK"));
    // A request in flight finishes during the stop.
    let addr = b.addr.clone();
    let in_flight = thread::spawn(move || {
        send(
            &format!("http://{}", addr),
            "POST",
            "/ingest/data",
            Some(JSON),
            r#"{"type":"log","source":"s","timestamp":"2026-11-22T10:00:00Z","level":"info","message":"m"}"#,
            &[],
        )
    });
    thread::sleep(Duration::from_millis(100));
    terminate(&b);
    let started = Instant::now();
    assert_eq!(wait_exit(&mut b, Duration::from_secs(5)), 0);
    assert!(started.elapsed() < Duration::from_secs(3));
    in_flight.join().unwrap().want(200, JSON, r#"{"persisted":1}"#);
    let mut rest = String::new();
    b.stdout.read_to_string(&mut rest).unwrap();
    assert_eq!(rest, "Application is shutting down...\n");
    idle.set_read_timeout(Some(Duration::from_secs(2))).unwrap();
    assert_eq!(idle.read(&mut buf).unwrap_or(0), 0, "the idle connection was closed");
}

#[test]
fn bad_command_lines_exit_2_and_a_busy_address_exits_1() {
    for args in [
        vec!["-role", "sideways"],
        vec!["-role", "backend", "-backends", "http://127.0.0.1:1"],
        vec!["-delay-ms", "5"],
        vec!["-client", "per-request"],
        vec!["-timeout-ms", "0"],
        vec!["-no-such-flag"],
        vec!["stray"],
    ] {
        let out = Command::new(BIN).args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{:?}: {}", args, String::from_utf8_lossy(&out.stderr));
        assert!(out.stdout.is_empty());
    }
    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let out = Command::new(BIN).args(["-role", "backend", "-listen", &addr]).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(Command::new(BIN).arg("-h").output().unwrap().status.code(), Some(0));
}
