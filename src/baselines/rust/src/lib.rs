//! The Rust (hyper + tokio) baseline of the Ingest lab: the front-end and back-end of docs/contract.md, with the
//! command line of the Go baselines' ingest-go.

pub mod backend;
pub mod config;
pub mod contract;
pub mod frontend;
mod http;
pub mod idempotency;
pub mod server;
mod status;

/// Runs the command with its arguments (without the program name) and returns the process's exit code.
pub fn run(args: &[String]) -> i32 {
    match config::parse(config::PROGRAM, args) {
        Ok(c) => server::run(c),
        Err(config::ParseError::Help(usage)) => {
            eprint!("{}", usage);
            0
        }
        Err(config::ParseError::Usage(message)) => {
            eprintln!("{}: {}", config::PROGRAM, message);
            2
        }
    }
}
