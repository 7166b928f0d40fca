//! Command ingest-rust is the Rust flow on hyper and tokio, one binary for both halves:
//!
//!     ingest-rust -role backend  -listen 127.0.0.1:5001
//!     ingest-rust -role frontend -listen 127.0.0.1:5000 -backends http://127.0.0.1:5001 -client pooled
//!
//! It prints its configuration, then "Application started." once it listens, and shuts down gracefully on SIGTERM
//! or SIGINT. Exit codes: 0 after a graceful stop (or -h), 2 for a command line that cannot work, 1 when it cannot
//! listen or serve. Run with -h for every flag.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(ingest_rust::run(&args));
}
