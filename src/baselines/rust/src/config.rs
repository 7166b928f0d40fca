//! The command line, the same as ingest-go's (src/baselines/go/service/config.go): flags, defaults, limits, and a
//! flag that does not apply to the chosen role refused rather than ignored.

use std::time::Duration;

use hyper::Uri;

use crate::contract::DEFAULT_MAX_BATCH_EVENTS;

pub const PROGRAM: &str = "ingest-rust";
/// The HTTP stack, as the configuration line and the status page name it.
pub const STACK: &str = "hyper";

pub const DEFAULT_FRONT_END_LISTEN: &str = "127.0.0.1:5000";
pub const DEFAULT_BACK_END_LISTEN: &str = "127.0.0.1:5001";
/// Where a front-end forwards without -backends: the default back-end, as the .NET front-end's appsettings.json.
pub const DEFAULT_BACK_ENDS: &str = "http://127.0.0.1:5001";
pub const DEFAULT_TIMEOUT_MS: i64 = 5000;
pub const DEFAULT_MAX_BODY_BYTES: i64 = 1 << 20;
const MAX_TIMEOUT_MS: i64 = 600_000;
const MAX_DELAY_MS: i64 = 600_000;
const MAX_CONFIGURED_BODY_BYTES: i64 = 1 << 30;
/// The path a front-end forwards to on every back-end.
pub const DATA_PATH: &str = "/ingest/data";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    FrontEnd,
    BackEnd,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::FrontEnd => "frontend",
            Role::BackEnd => "backend",
        }
    }
}

/// One back-end a front-end forwards to.
#[derive(Clone, Debug)]
pub struct BackEndTarget {
    /// The forward address: base URL plus /ingest/data.
    pub uri: Uri,
    /// host:port, for messages.
    pub host: String,
}

/// A validated configuration.
#[derive(Clone, Debug)]
pub struct Config {
    pub program: &'static str,
    pub role: Role,
    pub listen: String,
    // Front-end.
    pub backends: Vec<BackEndTarget>,
    /// 0: no limit.
    pub max_conns_per_host: usize,
    pub timeout: Duration,
    pub max_batch_events: usize,
    // Both.
    pub max_body_bytes: usize,
    // Back-end faults: never set them in a measured run.
    pub drop_one_in: u64,
    pub delay: Duration,
}

#[derive(Debug, PartialEq, Eq)]
pub enum ParseError {
    /// -h or -help: the usage text, exit code 0.
    Help(String),
    /// A command line that cannot work, naming the flag to fix: exit code 2.
    Usage(String),
}

struct Flag {
    name: &'static str,
    default: &'static str,
    help: &'static str,
}

const FLAGS: &[Flag] = &[
    Flag { name: "role", default: "frontend", help: "what to serve: frontend or backend" },
    Flag {
        name: "listen",
        default: "",
        help: "address to listen on, host:port (port 0: any free port, printed at start); defaults to 127.0.0.1:5000 for a front-end, 127.0.0.1:5001 for a back-end",
    },
    Flag {
        name: "backends",
        default: DEFAULT_BACK_ENDS,
        help: "front-end: comma-separated back-end base URLs (http://host:port); every event goes to each of them",
    },
    Flag { name: "client", default: "pooled", help: "front-end: only pooled (one shared hyper Client)" },
    Flag {
        name: "max-conns-per-host",
        default: "0",
        help: "front-end: most connections per back-end, 0 for no limit (like .NET's MaxConnectionsPerServer)",
    },
    Flag { name: "timeout-ms", default: "5000", help: "front-end: how long a forward may take before the caller gets 504, in ms" },
    Flag { name: "max-body-bytes", default: "1048576", help: "largest request body accepted; larger ones get 413" },
    Flag { name: "max-batch-events", default: "1000", help: "front-end: most events in one request (JSON array or NDJSON); more get 413" },
    Flag {
        name: "drop-one-in",
        default: "0",
        help: "back-end fault: acknowledge every event but silently drop one in this many (0: never)",
    },
    Flag { name: "delay-ms", default: "0", help: "back-end fault: wait this long before persisting each request, in ms" },
];

const FRONT_END_FLAGS: &[&str] = &["backends", "client", "max-conns-per-host", "timeout-ms", "max-batch-events"];
const BACK_END_FLAGS: &[&str] = &["drop-one-in", "delay-ms"];

/// The usage text, in the shape Go's flag package prints it.
pub fn usage(program: &str) -> String {
    let mut text = format!("Usage of {}:\n", program);
    for f in FLAGS {
        let kind = if matches!(f.name, "role" | "listen" | "backends" | "client") { "string" } else { "int" };
        text.push_str(&format!("  -{} {}\n    \t{}", f.name, kind, f.help));
        if !f.default.is_empty() && f.default != "0" {
            if kind == "string" {
                text.push_str(&format!(" (default \"{}\")", f.default));
            } else {
                text.push_str(&format!(" (default {})", f.default));
            }
        }
        text.push('\n');
    }
    text
}

/// Reads the command line (without the program name) into a validated configuration. Flags are spelled as Go's
/// flag package takes them: `-name value`, `-name=value`, `--name value`; parsing stops at `--`.
pub fn parse(program: &'static str, args: &[String]) -> Result<Config, ParseError> {
    let mut values: Vec<(&'static str, String)> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if arg == "--" {
            break;
        }
        let stripped = match arg.strip_prefix("--").or_else(|| arg.strip_prefix('-')) {
            Some(s) if !s.is_empty() && !s.starts_with('-') && !s.starts_with('=') => s,
            _ => {
                return Err(ParseError::Usage(format!("unexpected argument {:?}: every setting is a -flag", arg)));
            }
        };
        let (name, inline) = match stripped.split_once('=') {
            Some((n, v)) => (n, Some(v.to_owned())),
            None => (stripped, None),
        };
        if name == "h" || name == "help" {
            return Err(ParseError::Help(usage(program)));
        }
        let flag = match FLAGS.iter().find(|f| f.name == name) {
            Some(f) => f,
            None => return Err(ParseError::Usage(format!("flag provided but not defined: -{}\n{}", name, usage(program)))),
        };
        let value = match inline {
            Some(v) => v,
            None if i < args.len() => {
                i += 1;
                args[i - 1].clone()
            }
            None => return Err(ParseError::Usage(format!("flag needs an argument: -{}\n{}", name, usage(program)))),
        };
        values.retain(|(n, _)| *n != flag.name);
        values.push((flag.name, value));
    }
    if i < args.len() {
        return Err(ParseError::Usage(format!("unexpected argument {:?}: every setting is a -flag", args[i])));
    }

    let set = |name: &str| values.iter().any(|(n, _)| *n == name);
    let text = |name: &'static str| -> String {
        values
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| FLAGS.iter().find(|f| f.name == name).map(|f| f.default).unwrap_or("").to_owned())
    };
    let int = |name: &'static str| -> Result<i64, ParseError> {
        let value = text(name);
        value.trim().parse::<i64>().map_err(|_| {
            ParseError::Usage(format!("invalid value {:?} for flag -{}: parse error\n{}", value, name, usage(program)))
        })
    };

    let role = match text("role").as_str() {
        "frontend" => Role::FrontEnd,
        "backend" => Role::BackEnd,
        other => return Err(ParseError::Usage(format!("-role {:?}: use frontend or backend", other))),
    };
    let max_body = int("max-body-bytes")?;
    if !(1..=MAX_CONFIGURED_BODY_BYTES).contains(&max_body) {
        return Err(ParseError::Usage(format!("-max-body-bytes {}: use 1 to {}", max_body, MAX_CONFIGURED_BODY_BYTES)));
    }
    let mut listen = text("listen");
    if listen.is_empty() {
        listen = String::from(if role == Role::BackEnd { DEFAULT_BACK_END_LISTEN } else { DEFAULT_FRONT_END_LISTEN });
    }
    check_host_port(&listen).map_err(|why| ParseError::Usage(format!("-listen {:?}: use host:port ({})", listen, why)))?;

    let mut c = Config {
        program,
        role,
        listen,
        backends: Vec::new(),
        max_conns_per_host: 0,
        timeout: Duration::from_millis(DEFAULT_TIMEOUT_MS as u64),
        max_batch_events: DEFAULT_MAX_BATCH_EVENTS,
        max_body_bytes: max_body as usize,
        drop_one_in: 0,
        delay: Duration::ZERO,
    };

    if role == Role::BackEnd {
        if let Some(name) = FRONT_END_FLAGS.iter().find(|n| set(n)) {
            return Err(ParseError::Usage(format!("-{} applies only to a front-end (-role frontend)", name)));
        }
        let drop = int("drop-one-in")?;
        if drop < 0 {
            return Err(ParseError::Usage(format!("-drop-one-in {}: use 0 (never) or more", drop)));
        }
        let delay = int("delay-ms")?;
        if !(0..=MAX_DELAY_MS).contains(&delay) {
            return Err(ParseError::Usage(format!("-delay-ms {}: use 0 to {}", delay, MAX_DELAY_MS)));
        }
        c.drop_one_in = drop as u64;
        c.delay = Duration::from_millis(delay as u64);
        return Ok(c);
    }

    if let Some(name) = BACK_END_FLAGS.iter().find(|n| set(n)) {
        return Err(ParseError::Usage(format!("-{} applies only to a back-end (-role backend)", name)));
    }
    let client = text("client");
    if client != "pooled" {
        return Err(ParseError::Usage(format!(
            "-client {:?}: the Rust front-end forwards only with a pooled client (use pooled)",
            client
        )));
    }
    let max_conns = int("max-conns-per-host")?;
    if max_conns < 0 {
        return Err(ParseError::Usage(format!("-max-conns-per-host {}: use 0 (no limit) or more", max_conns)));
    }
    let timeout = int("timeout-ms")?;
    if !(1..=MAX_TIMEOUT_MS).contains(&timeout) {
        return Err(ParseError::Usage(format!("-timeout-ms {}: use 1 to {}", timeout, MAX_TIMEOUT_MS)));
    }
    let max_batch = int("max-batch-events")?;
    if max_batch < 1 {
        return Err(ParseError::Usage(format!("-max-batch-events {}: use 1 or more", max_batch)));
    }
    c.max_conns_per_host = max_conns as usize;
    c.timeout = Duration::from_millis(timeout as u64);
    c.max_batch_events = max_batch as usize;

    let backends = text("backends");
    if backends.trim().is_empty() {
        return Err(ParseError::Usage(format!(
            "-backends is empty: give the back-end base URLs, e.g. -backends {}, or leave the flag out for that default",
            DEFAULT_BACK_ENDS
        )));
    }
    for raw in backends.split(',') {
        let target = parse_backend(raw.trim()).map_err(|why| ParseError::Usage(format!("-backends {:?}: {}", raw, why)))?;
        c.backends.push(target);
    }
    Ok(c)
}

/// host:port syntax, as Go's net.SplitHostPort checks it (the name is resolved when listening).
fn check_host_port(s: &str) -> Result<(), &'static str> {
    let (host, port) = if let Some(rest) = s.strip_prefix('[') {
        let (host, after) = rest.split_once(']').ok_or("missing ']' in address")?;
        (host, after.strip_prefix(':').ok_or("missing port in address")?)
    } else {
        let (host, port) = s.rsplit_once(':').ok_or("missing port in address")?;
        if host.contains(':') {
            return Err("too many colons in address");
        }
        (host, port)
    };
    if host.contains(['[', ']']) {
        return Err("unexpected bracket in address");
    }
    if port.is_empty() || !port.bytes().all(|c| c.is_ascii_digit()) || port.parse::<u32>().map_or(true, |p| p > 65535) {
        return Err("invalid port");
    }
    Ok(())
}

/// A back-end base URL: http, a host, an optional port (80), no path beyond "/".
fn parse_backend(raw: &str) -> Result<BackEndTarget, String> {
    let uri: Uri = raw.parse().map_err(|e: hyper::http::uri::InvalidUri| e.to_string())?;
    if uri.scheme_str() != Some("http") {
        return Err(String::from("use an http:// base URL (back-ends are spoken to in cleartext HTTP/1.1)"));
    }
    let authority = uri.authority().ok_or("the URL has no host")?;
    if authority.host().is_empty() {
        return Err(String::from("the URL has no host"));
    }
    if authority.as_str().contains('@') || !matches!(uri.path(), "" | "/") || uri.query().is_some() || raw.contains('#') {
        return Err(format!(
            "give only the base URL, http://host:port: the front-end posts to {}",
            DATA_PATH
        ));
    }
    let host = match authority.port_u16() {
        Some(port) => format!("{}:{}", authority.host(), port),
        None => format!("{}:80", authority.host()),
    };
    let uri = format!("http://{}{}", host, DATA_PATH).parse().map_err(|e: hyper::http::uri::InvalidUri| e.to_string())?;
    Ok(BackEndTarget { uri, host })
}

/// The tokio worker threads: one per core the process may use, tokio's own default made explicit.
pub fn workers() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

impl Config {
    /// The one line a process prints at start: everything that shapes its behaviour, with the address it really
    /// listens on (the ingest-go line's shape: `listen=http://127.0.0.1:PORT`).
    pub fn describe(&self, addr: &str) -> String {
        let mut line = format!("{} {} ({}): listen=http://{}", self.program, self.role.as_str(), STACK, addr);
        if self.role == Role::FrontEnd {
            let urls: Vec<String> = self.backends.iter().map(|t| format!("http://{}", t.host)).collect();
            line.push_str(&format!(
                " backends={} client=pooled max-conns-per-host={} timeout-ms={} max-batch-events={}",
                urls.join(","),
                self.max_conns_per_host,
                self.timeout.as_millis(),
                self.max_batch_events
            ));
        }
        line.push_str(&format!(" max-body-bytes={}", self.max_body_bytes));
        if self.role == Role::BackEnd {
            line.push_str(&format!(
                " sink=memory-counts drop-one-in={} delay-ms={} idempotency-keys={} idempotency-window-s={}",
                self.drop_one_in,
                self.delay.as_millis(),
                crate::idempotency::CAPACITY,
                crate::idempotency::WINDOW.as_secs()
            ));
        }
        line.push_str(&format!(" rustc={} workers={}", env!("INGEST_RUSTC_VERSION"), workers()));
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    fn usage_error(s: &str) -> String {
        match parse(PROGRAM, &args(s)) {
            Err(ParseError::Usage(m)) => m,
            other => panic!("{}: {:?}", s, other.map(|c| c.describe("x"))),
        }
    }

    #[test]
    fn defaults_are_the_go_baselines() {
        let c = parse(PROGRAM, &[]).unwrap();
        assert_eq!(c.role, Role::FrontEnd);
        assert_eq!(c.listen, "127.0.0.1:5000");
        assert_eq!(c.backends.len(), 1);
        assert_eq!(c.backends[0].uri.to_string(), "http://127.0.0.1:5001/ingest/data");
        assert_eq!((c.timeout.as_millis(), c.max_body_bytes, c.max_batch_events), (5000, 1 << 20, 1000));
        let b = parse(PROGRAM, &args("-role backend")).unwrap();
        assert_eq!(b.listen, "127.0.0.1:5001");
    }

    #[test]
    fn flags_take_every_spelling() {
        let c = parse(PROGRAM, &args("-role=frontend --listen 127.0.0.1:0 -backends http://a:1,http://b -timeout-ms=100"))
            .unwrap();
        assert_eq!(c.backends.iter().map(|b| b.host.as_str()).collect::<Vec<_>>(), ["a:1", "b:80"]);
        assert_eq!(c.timeout.as_millis(), 100);
        assert!(c.describe("127.0.0.1:9").starts_with(
            "ingest-rust frontend (hyper): listen=http://127.0.0.1:9 backends=http://a:1,http://b:80 client=pooled"
        ));
    }

    #[test]
    fn a_flag_of_the_other_role_is_refused() {
        assert!(usage_error("-role backend -backends http://a:1").contains("-backends applies only to a front-end"));
        assert!(usage_error("-role backend -timeout-ms 5").contains("-timeout-ms applies only to a front-end"));
        assert!(usage_error("-delay-ms 5").contains("-delay-ms applies only to a back-end"));
        assert!(usage_error("-drop-one-in 5").contains("-drop-one-in applies only to a back-end"));
    }

    #[test]
    fn bad_values_name_the_flag() {
        for (line, flag) in [
            ("-role sideways", "-role"),
            ("-client per-request", "-client"),
            ("-timeout-ms 0", "-timeout-ms"),
            ("-timeout-ms x", "-timeout-ms"),
            ("-max-body-bytes 0", "-max-body-bytes"),
            ("-max-batch-events 0", "-max-batch-events"),
            ("-max-conns-per-host -1", "-max-conns-per-host"),
            ("-listen nowhere", "-listen"),
            ("-backends https://a:1", "-backends"),
            ("-backends http://a:1/path", "-backends"),
            ("-backends http://a:1?q", "-backends"),
            ("-backends http://u@a:1", "-backends"),
            ("-backends ,", "-backends"),
            ("-role backend -delay-ms -1", "-delay-ms"),
            ("-nonsense 1", "-nonsense"),
            ("-timeout-ms", "-timeout-ms"),
        ] {
            assert!(usage_error(line).contains(flag), "{}: {}", line, usage_error(line));
        }
        assert!(usage_error("stray").contains("unexpected argument"));
        assert!(matches!(parse(PROGRAM, &args("-h")), Err(ParseError::Help(_))));
    }
}
