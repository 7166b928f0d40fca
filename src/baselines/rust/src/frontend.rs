//! The front-end: POST /ingest/event read, validated and normalised by the contract module, forwarded as one JSON
//! array to every back-end at once over a pooled hyper Client; the reference endpoints and the status page.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::future::join_all;
use hyper::body::{Bytes, HttpBody};
use hyper::client::HttpConnector;
use hyper::header::{HeaderValue, CONTENT_TYPE, RETRY_AFTER};
use hyper::{Body, Client, Method, Request, Response, StatusCode};
use tokio::sync::Semaphore;

use crate::config::{BackEndTarget, Config};
use crate::contract::problem::{self, Kind, Problem};
use crate::contract::{content_type_format, forward_body, timestamp, EventType, RequestReader};
use crate::http::{self, lock, Accepted, Counters};
use crate::idempotency::{KeySource, HEADER as IDEMPOTENCY_KEY};
use crate::status::PageBase;

/// What POST /ingest/event accepts, for the 415's detail.
const FRONT_END_MEDIA_TYPES: &str = "application/json or application/x-ndjson (UTF-8)";
/// How much of a back-end's answer is read so its connection can carry the next forward.
const MAX_ANSWER_BYTES: usize = 64 << 10;

pub struct FrontEnd {
    reader: RequestReader,
    max_body: usize,
    forwarder: Forwarder,
    page: PageBase,
    counters: Counters,
    accepted: [AtomicU64; 3],
}

impl FrontEnd {
    pub fn new(c: &Config) -> FrontEnd {
        FrontEnd {
            reader: RequestReader { max_batch_events: c.max_batch_events },
            max_body: c.max_body_bytes,
            forwarder: Forwarder::new(c),
            page: PageBase::new(c),
            counters: Counters::default(),
            accepted: Default::default(),
        }
    }

    pub async fn handle(&self, req: Request<Body>) -> Response<Body> {
        let response = self.serve(req).await;
        self.counters.answered(response.status());
        response
    }

    async fn serve(&self, req: Request<Body>) -> Response<Body> {
        let path = req.uri().path();
        if path == http::INGEST_EVENT_PATH {
            return match http::check_method(&req, http::INGEST_EVENT_PATH, http::WRITE_ALLOW) {
                Some(refused) => refused,
                None => self.ingest(req).await,
            };
        }
        if path == http::ROOT_PATH || path == http::STATUS_PATH {
            let route = if path == http::ROOT_PATH { http::ROOT_PATH } else { http::STATUS_PATH };
            return http::check_method(&req, route, http::READ_ALLOW).unwrap_or_else(|| self.status_page());
        }
        http::reference(&req, true).unwrap_or_else(|| http::problem(&problem::not_found()))
    }

    async fn ingest(&self, req: Request<Body>) -> Response<Body> {
        let format = match req.headers().get(CONTENT_TYPE).and_then(|v| content_type_format(v.as_bytes())) {
            Some(format) => format,
            None => {
                return http::problem(&problem::unsupported(&http::content_type_text(&req), FRONT_END_MEDIA_TYPES))
            }
        };
        let body = match http::read_body(req.into_body(), self.max_body).await {
            Ok(body) => body,
            Err(p) => return http::problem(&p),
        };
        let (forward, counts) = {
            let mut events = Vec::new();
            if let Err(p) = self.reader.read(&body, format, timestamp::now(), &mut events) {
                return http::problem(&p);
            }
            let mut counts = [0u64; 3];
            for e in &events {
                counts[e.kind as usize] += 1;
            }
            (Bytes::from(forward_body(&events, body.len())), counts)
        };
        drop(body);
        if let Some(p) = self.forwarder.forward(forward).await {
            return http::problem(&p);
        }
        for t in EventType::ALL {
            if counts[t as usize] > 0 {
                self.accepted[t as usize].fetch_add(counts[t as usize], Ordering::Relaxed);
            }
        }
        http::json(&Accepted { accepted: counts.iter().sum::<u64>() as usize })
    }

    /// Configuration, requests, errors, events accepted, back-end calls by outcome.
    fn status_page(&self) -> Response<Body> {
        let mut facts = self.counters.facts();
        for t in EventType::ALL {
            facts.push((format!("events.{}", t.as_str()), self.accepted[t as usize].load(Ordering::Relaxed).to_string()));
        }
        let mut outcomes: BTreeMap<&'static str, u64> = lock(&self.forwarder.failures).clone();
        let ok = self.forwarder.ok.load(Ordering::Relaxed);
        if ok > 0 {
            outcomes.insert("ok", ok);
        }
        for (outcome, n) in outcomes {
            facts.push((format!("forwards.{}", outcome), n.to_string()));
        }
        http::answer(StatusCode::OK, http::HTML_MEDIA_TYPE, self.page.render(&facts, &[]))
    }
}

/// A back-end with its forward address, parsed once, and its connection limit.
struct Target {
    backend: BackEndTarget,
    /// -max-conns-per-host: a forward waits (within its timeout) for one of this many permits.
    permits: Option<Semaphore>,
}

/// Posts a forward body to every back-end and maps the outcome to the contract's 502, 503 and 504.
struct Forwarder {
    client: Client<HttpConnector, Body>,
    targets: Vec<Target>,
    timeout: Duration,
    keys: KeySource,
    ok: AtomicU64,
    /// Back-end calls by outcome other than ok, named as the .NET front-end's ingest.forwards outcomes.
    failures: Mutex<BTreeMap<&'static str, u64>>,
}

impl Forwarder {
    fn new(c: &Config) -> Forwarder {
        let mut connector = HttpConnector::new();
        connector.set_nodelay(true);
        connector.set_keepalive(Some(Duration::from_secs(30)));
        connector.set_connect_timeout(Some(Duration::from_secs(30)));
        // One shared pooled client: the like-for-like peer of a static .NET HttpClient. Every idle connection is
        // kept (hyper's default), as .NET's pool keeps them, for 90 s.
        let client = Client::builder().pool_idle_timeout(Duration::from_secs(90)).build(connector);
        let targets = c
            .backends
            .iter()
            .map(|b| Target {
                backend: b.clone(),
                permits: if c.max_conns_per_host > 0 { Some(Semaphore::new(c.max_conns_per_host)) } else { None },
            })
            .collect();
        Forwarder {
            client,
            targets,
            timeout: c.timeout,
            keys: KeySource::new(),
            ok: AtomicU64::new(0),
            failures: Mutex::new(BTreeMap::new()),
        }
    }

    /// Sends the body to every back-end at once, with one Idempotency-Key for the forward, and returns the first
    /// back-end's problem in the order of -backends, or `None` once all answered 2xx.
    async fn forward(&self, body: Bytes) -> Option<Problem> {
        let key = self.keys.next();
        if self.targets.len() == 1 {
            return self.send(&self.targets[0], body, key).await;
        }
        let sends = self.targets.iter().map(|t| self.send(t, body.clone(), key.clone()));
        join_all(sends).await.into_iter().flatten().next()
    }

    async fn send(&self, target: &Target, body: Bytes, key: HeaderValue) -> Option<Problem> {
        let problem = self.call(target, body, key).await;
        match &problem {
            None => {
                self.ok.fetch_add(1, Ordering::Relaxed);
            }
            Some(p) => {
                let outcome = match p.kind {
                    Kind::BackEndTimeout => "backend-timeout",
                    Kind::Overloaded => "backend-unavailable",
                    _ => "backend-failed",
                };
                *lock(&self.failures).entry(outcome).or_insert(0) += 1;
            }
        }
        problem
    }

    async fn call(&self, target: &Target, body: Bytes, key: HeaderValue) -> Option<Problem> {
        let host = &target.backend.host;
        let exchange = async {
            let _permit = match &target.permits {
                Some(permits) => Some(permits.acquire().await.expect("the semaphore is never closed")),
                None => None,
            };
            let mut req = Request::new(Body::from(body));
            *req.method_mut() = Method::POST;
            *req.uri_mut() = target.backend.uri.clone();
            let headers = req.headers_mut();
            headers.insert(CONTENT_TYPE, HeaderValue::from_static(crate::contract::JSON_MEDIA_TYPE));
            headers.insert(IDEMPOTENCY_KEY, key);
            let response = self.client.request(req).await?;
            let status = response.status();
            let retry_after = response.headers().get(RETRY_AFTER).cloned();
            // Read the (short) answer so the connection can carry the next forward.
            let mut answer = response.into_body();
            let mut read = 0;
            let mut drained = Ok(());
            while read < MAX_ANSWER_BYTES {
                match answer.data().await {
                    None => break,
                    Some(Ok(chunk)) => read += chunk.len(),
                    Some(Err(e)) => {
                        drained = Err(e);
                        break;
                    }
                }
            }
            Ok::<_, hyper::Error>((status, retry_after, drained))
        };
        match tokio::time::timeout(self.timeout, exchange).await {
            Err(_) => Some(problem::backend_timed_out(host, self.timeout.as_millis() as u64)),
            // Nothing reached the back-end: refused, unreachable, or a pooled connection closed before the request
            // went out.
            Ok(Err(e)) if e.is_connect() || e.is_canceled() => Some(problem::backend_unreachable(host, &e)),
            // The request went out and the answer was lost: the back-end may have persisted it (docs/contract.md).
            Ok(Err(e)) => Some(problem::backend_answer_lost(host, &e)),
            Ok(Ok((status, retry_after, drained))) => {
                if !status.is_success() {
                    Some(problem::backend_answered(host, status.as_u16(), retry_after.as_ref().map(|v| v.as_bytes())))
                } else if let Err(e) = drained {
                    Some(problem::backend_answer_lost(host, &e))
                } else {
                    None
                }
            }
        }
    }
}

/// Shared by the connection tasks.
pub type SharedFrontEnd = Arc<FrontEnd>;
