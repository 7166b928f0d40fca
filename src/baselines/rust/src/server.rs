//! The process: a tokio multi-thread runtime (a worker per core), the listener, one hyper HTTP/1.1 connection task
//! per accepted connection (keep-alive, Kestrel's 10 s to read a request head and 130 s idle limit), the
//! configuration line and "Application started.", and a graceful stop on SIGTERM or SIGINT: no new connections,
//! idle ones closed, in-flight requests finished within 10 s.

use std::convert::Infallible;
use std::io::Write;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use hyper::server::conn::Http;
use hyper::service::service_fn;
use hyper::{Body, Request, Response};
use tokio::net::{TcpListener, TcpStream};
use tokio::signal::unix::{signal, SignalKind};
use tokio::sync::{mpsc, watch};

use crate::backend::BackEnd;
use crate::config::{workers, Config, Role};
use crate::frontend::FrontEnd;

/// What the lab and Crank wait for before they send load.
pub const READY_LINE: &str = "Application started.";
/// How long in-flight requests may take to finish after SIGTERM or SIGINT.
pub const SHUTDOWN_TIMEOUT: Duration = Duration::from_secs(10);
/// Kestrel's KeepAliveTimeout: an idle keep-alive connection is closed after this long.
const KEEP_ALIVE_IDLE: Duration = Duration::from_secs(130);
/// Kestrel's RequestHeadersTimeout.
const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// The role a process serves.
pub enum App {
    Front(FrontEnd),
    Back(BackEnd),
}

impl App {
    pub fn new(c: &Config) -> App {
        match c.role {
            Role::FrontEnd => App::Front(FrontEnd::new(c)),
            Role::BackEnd => App::Back(BackEnd::new(c)),
        }
    }

    pub async fn handle(&self, req: Request<Body>) -> Response<Body> {
        match self {
            App::Front(f) => f.handle(req).await,
            App::Back(b) => b.handle(req).await,
        }
    }
}

/// Runs the service until SIGTERM or SIGINT; the process's exit code.
pub fn run(c: Config) -> i32 {
    let runtime = match tokio::runtime::Builder::new_multi_thread().worker_threads(workers()).enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("{}: starting the runtime: {}", c.program, e);
            return 1;
        }
    };
    let program = c.program;
    match runtime.block_on(serve(c)) {
        Ok(()) => 0,
        Err(message) => {
            eprintln!("{}: {}", program, message);
            1
        }
    }
}

async fn serve(c: Config) -> Result<(), String> {
    let mut terminate = signal(SignalKind::terminate()).map_err(|e| format!("SIGTERM: {}", e))?;
    let mut interrupt = signal(SignalKind::interrupt()).map_err(|e| format!("SIGINT: {}", e))?;
    let listener = TcpListener::bind(c.listen.as_str()).await.map_err(|e| format!("-listen {}: {}", c.listen, e))?;
    let addr = listener.local_addr().map_err(|e| format!("-listen {}: {}", c.listen, e))?;
    let app = Arc::new(App::new(&c));
    announce(&format!("{}\n{}\n", c.describe(&addr.to_string()), READY_LINE));

    let mut http = Http::new();
    http.http1_only(true).http1_keep_alive(true).http1_header_read_timeout(HEADER_READ_TIMEOUT);
    // A client may send its whole request and then half-close (shutdown(SHUT_WR)) while it waits for the answer: the
    // front-end answers it (docs/contract.md, "Half-close"). Without this hyper takes the EOF for the client gone and drops
    // the request's future, forward and all. The back-end keeps hyper's default, as the .NET back-end keeps Kestrel's:
    // its caller closes a forward's connection only when it has stopped waiting, and the back-end then stops too.
    http.http1_half_close(matches!(c.role, Role::FrontEnd));
    let http = Arc::new(http);
    let (stop_tx, stop_rx) = watch::channel(false);
    // Every connection task holds a sender; when the last is gone, every connection has finished.
    let (done_tx, mut done_rx) = mpsc::channel::<()>(1);

    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => {
                    tokio::spawn(connection(stream, app.clone(), http.clone(), stop_rx.clone(), done_tx.clone()));
                }
                Err(e) => {
                    // Out of file descriptors and the like: say so, breathe, go on.
                    eprintln!("{}: accept: {}", c.program, e);
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
            },
            _ = terminate.recv() => break,
            _ = interrupt.recv() => break,
        }
    }

    announce("Application is shutting down...\n");
    drop(listener);
    let _ = stop_tx.send(true);
    drop(done_tx);
    if tokio::time::timeout(SHUTDOWN_TIMEOUT, done_rx.recv()).await.is_err() {
        return Err(format!("graceful shutdown: requests still running after {} s", SHUTDOWN_TIMEOUT.as_secs()));
    }
    Ok(())
}

fn announce(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

/// A connection's requests in flight and when the last one ended (ms since the connection opened), for the idle
/// limit. Two uncontended atomics per request: the connection's own.
struct Activity {
    opened: Instant,
    busy: AtomicUsize,
    last_ms: AtomicU64,
}

impl Activity {
    fn now_ms(&self) -> u64 {
        self.opened.elapsed().as_millis() as u64
    }
}

struct Busy(Arc<Activity>);

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.last_ms.store(self.0.now_ms(), Ordering::Relaxed);
        self.0.busy.fetch_sub(1, Ordering::Release);
    }
}

async fn connection(
    stream: TcpStream,
    app: Arc<App>,
    http: Arc<Http>,
    mut stop: watch::Receiver<bool>,
    _done: mpsc::Sender<()>,
) {
    let _ = stream.set_nodelay(true);
    let activity = Arc::new(Activity { opened: Instant::now(), busy: AtomicUsize::new(0), last_ms: AtomicU64::new(0) });
    let service = {
        let activity = activity.clone();
        service_fn(move |req| {
            activity.busy.fetch_add(1, Ordering::Acquire);
            let busy = Busy(activity.clone());
            let app = app.clone();
            async move {
                let response = app.handle(req).await;
                drop(busy);
                Ok::<_, Infallible>(response)
            }
        })
    };
    let conn = http.serve_connection(stream, service);
    tokio::pin!(conn);
    let mut closing = *stop.borrow();
    if closing {
        conn.as_mut().graceful_shutdown();
    }
    loop {
        let idle_at = Duration::from_millis(activity.last_ms.load(Ordering::Relaxed)) + KEEP_ALIVE_IDLE;
        let wait = idle_at.saturating_sub(Duration::from_millis(activity.now_ms()));
        tokio::select! {
            _ = conn.as_mut() => return,
            changed = stop.changed(), if !closing => {
                if changed.is_err() || *stop.borrow() {
                    closing = true;
                    conn.as_mut().graceful_shutdown();
                }
            }
            _ = tokio::time::sleep(wait), if !closing => {
                let idle = activity.busy.load(Ordering::Acquire) == 0
                    && activity.now_ms() >= activity.last_ms.load(Ordering::Relaxed) + KEEP_ALIVE_IDLE.as_millis() as u64;
                if idle {
                    closing = true;
                    conn.as_mut().graceful_shutdown();
                } else if activity.busy.load(Ordering::Acquire) > 0 {
                    // A request is running: look again one idle period after now.
                    activity.last_ms.store(activity.now_ms(), Ordering::Relaxed);
                }
            }
        }
    }
}
