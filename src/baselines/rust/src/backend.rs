//! The back-end: POST /ingest/data re-checks every event and counts it per type in memory (atomic counters,
//! nothing kept: the peer of the .NET back-end with the Null sink), persisting a forward's Idempotency-Key once;
//! GET /ingest/stats, /healthz and the status page.

use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use hyper::header::CONTENT_TYPE;
use hyper::{Body, Request, Response, StatusCode};
use serde_derive::Serialize;

use crate::config::{Config, DATA_PATH};
use crate::contract::problem::{self};
use crate::contract::{content_type_format, forwarded_events, read_forwarded, Event, EventType, Format, JSON_MEDIA_TYPE};
use crate::http::{self, lock, Counters, Persisted};
use crate::idempotency::{IdempotencyGuard, WindowKey, CAPACITY, HEADER as IDEMPOTENCY_KEY, MAX_KEY_LENGTH, WINDOW};
use crate::status::PageBase;

/// How many of the last events the page lists, as the .NET default (Sinks:StatusPageEvents).
const RECENT_EVENTS: usize = 20;
/// Bodies larger than this are not kept for the page, so one huge batch does not pin its size.
const MAX_KEPT_BODY: usize = 64 << 10;

/// The back-end's store: keeps nothing and counts what it persisted, per type; the one source of /ingest/stats.
pub struct Sink {
    counts: [AtomicI64; 3],
    /// Running event number, for the drop fault.
    seen: AtomicU64,
    drop_one_in: u64,
    delay: Duration,
}

impl Sink {
    pub fn new(drop_one_in: u64, delay: Duration) -> Sink {
        Sink { counts: Default::default(), seen: AtomicU64::new(0), drop_one_in, delay }
    }

    /// Records one request's events, given by their types in order. With the delay fault it waits first; a caller
    /// that goes away meanwhile drops this future, and nothing is counted.
    pub async fn persist(&self, types: &[EventType]) {
        if !self.delay.is_zero() {
            tokio::time::sleep(self.delay).await;
        }
        let first = if self.drop_one_in > 0 { self.seen.fetch_add(types.len() as u64, Ordering::Relaxed) } else { 0 };
        let mut add = [0i64; 3];
        for (i, t) in types.iter().enumerate() {
            if self.drop_one_in > 0 && (first + i as u64 + 1) % self.drop_one_in == 0 {
                continue; // the fault: acknowledged, never stored
            }
            add[*t as usize] += 1;
        }
        for (count, n) in self.counts.iter().zip(add) {
            if n > 0 {
                count.fetch_add(n, Ordering::Relaxed);
            }
        }
    }

    pub fn stats(&self) -> [i64; 3] {
        [0, 1, 2].map(|i| self.counts[i].load(Ordering::Relaxed))
    }
}

#[derive(Serialize)]
struct ByType {
    job: i64,
    metric: i64,
    log: i64,
}

/// `{"total": 5003, "by_type": {"job": 5000, "metric": 2, "log": 1}}`.
#[derive(Serialize)]
struct Stats {
    total: i64,
    by_type: ByType,
}

/// Copies of the last forward bodies in reused slots; read into events only when the page is asked for.
struct RecentBodies {
    slots: Vec<Vec<u8>>,
    next: usize,
}

pub struct BackEnd {
    sink: Sink,
    guard: IdempotencyGuard,
    max_body: usize,
    page: PageBase,
    counters: Counters,
    recent: Mutex<RecentBodies>,
}

impl BackEnd {
    pub fn new(c: &Config) -> BackEnd {
        BackEnd {
            sink: Sink::new(c.drop_one_in, c.delay),
            guard: IdempotencyGuard::new(CAPACITY, WINDOW),
            max_body: c.max_body_bytes,
            page: PageBase::new(c),
            counters: Counters::default(),
            recent: Mutex::new(RecentBodies { slots: Vec::new(), next: 0 }),
        }
    }

    pub async fn handle(&self, req: Request<Body>) -> Response<Body> {
        let response = self.serve(req).await;
        self.counters.answered(response.status());
        response
    }

    async fn serve(&self, req: Request<Body>) -> Response<Body> {
        let path = req.uri().path();
        if path == http::ROOT_PATH || path == http::STATUS_PATH {
            let route = if path == http::ROOT_PATH { http::ROOT_PATH } else { http::STATUS_PATH };
            return http::check_method(&req, route, http::READ_ALLOW).unwrap_or_else(|| self.status_page());
        }
        if path == DATA_PATH {
            return match http::check_method(&req, DATA_PATH, http::WRITE_ALLOW) {
                Some(refused) => refused,
                None => self.data(req).await,
            };
        }
        if path == http::INGEST_STATS_PATH {
            return http::check_method(&req, http::INGEST_STATS_PATH, http::READ_ALLOW).unwrap_or_else(|| {
                let [job, metric, log] = self.sink.stats();
                http::json(&Stats { total: job + metric + log, by_type: ByType { job, metric, log } })
            });
        }
        http::reference(&req, false).unwrap_or_else(|| http::problem(&problem::not_found()))
    }

    async fn data(&self, req: Request<Body>) -> Response<Body> {
        let json = req.headers().get(CONTENT_TYPE).and_then(|v| content_type_format(v.as_bytes())) == Some(Format::Json);
        if !json {
            return http::problem(&problem::unsupported(&http::content_type_text(&req), JSON_MEDIA_TYPE));
        }
        // An empty key, or one longer than MAX_KEY_LENGTH, is no key: the forward is persisted as is (.NET's rule).
        let key = req
            .headers()
            .get(IDEMPOTENCY_KEY)
            .filter(|v| !v.is_empty() && v.len() <= MAX_KEY_LENGTH)
            .map(|v| WindowKey::from_header(v.as_bytes()));
        let body = match http::read_body(req.into_body(), self.max_body).await {
            Ok(body) => body,
            Err(p) => return http::problem(&p),
        };
        let mut types = Vec::new();
        if let Err(p) = read_forwarded(&body, &mut types) {
            return http::problem(&p);
        }
        match key {
            Some(key) => {
                self.guard.run_once(key, || self.sink.persist(&types)).await;
            }
            None => self.sink.persist(&types).await,
        }
        self.keep(&body);
        // Acknowledged with the count received, even when the drop fault lost some: that is the fault.
        http::json(&Persisted { persisted: types.len() })
    }

    fn keep(&self, body: &[u8]) {
        if body.len() > MAX_KEPT_BODY {
            return;
        }
        let mut recent = lock(&self.recent);
        let next = recent.next;
        if recent.slots.len() < RECENT_EVENTS {
            recent.slots.push(body.to_vec());
        } else {
            let slot = &mut recent.slots[next];
            slot.clear();
            slot.extend_from_slice(body);
        }
        recent.next = (next + 1) % RECENT_EVENTS;
    }

    /// The last events, newest first.
    fn recent_events(&self) -> Vec<Event<'static>> {
        let bodies: Vec<Vec<u8>> = {
            let recent = lock(&self.recent);
            let n = recent.slots.len();
            (1..=n).map(|i| recent.slots[(recent.next + RECENT_EVENTS - i) % RECENT_EVENTS].clone()).collect()
        };
        let mut newest = Vec::new();
        for body in &bodies {
            for e in forwarded_events(body).into_iter().rev() {
                if newest.len() == RECENT_EVENTS {
                    return newest;
                }
                newest.push(e);
            }
        }
        newest
    }

    /// Configuration, requests, errors, events persisted, the last events.
    fn status_page(&self) -> Response<Body> {
        let mut facts = self.counters.facts();
        let stats = self.sink.stats();
        for t in EventType::ALL {
            facts.push((format!("events.{}", t.as_str()), stats[t as usize].to_string()));
        }
        let total: i64 = stats.iter().sum();
        if total > 0 {
            facts.push((String::from("persisted.null"), total.to_string())); // the peer of the .NET Null sink
        }
        let duplicates = self.guard.duplicates();
        if duplicates > 0 {
            facts.push((String::from("idempotency.duplicates"), duplicates.to_string()));
        }
        http::answer(StatusCode::OK, http::HTML_MEDIA_TYPE, self.page.render(&facts, &self.recent_events()))
    }
}
