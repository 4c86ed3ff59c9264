//! Records how rtcompare itself was built (compiler, profile, target) for the environment
//! stamp every report carries.

use std::process::Command;

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let version = Command::new(&rustc)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    println!("cargo:rustc-env=RTCOMPARE_RUSTC_VERSION={version}");
    for (var, key) in [
        ("OPT_LEVEL", "RTCOMPARE_OPT_LEVEL"),
        ("PROFILE", "RTCOMPARE_PROFILE"),
        ("TARGET", "RTCOMPARE_TARGET"),
    ] {
        println!(
            "cargo:rustc-env={key}={}",
            std::env::var(var).unwrap_or_default()
        );
    }
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=RUSTC");
}
