//! Records the compiler's version for the configuration line (`rustc=1.63.0`), as the Go baselines print theirs.
use std::process::Command;

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| String::from("rustc"));
    let version = Command::new(&rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .and_then(|text| text.split_whitespace().nth(1).map(str::to_owned))
        .unwrap_or_else(|| String::from("unknown"));
    println!("cargo:rustc-env=INGEST_RUSTC_VERSION={}", version);
    println!("cargo:rerun-if-changed=build.rs");
}
