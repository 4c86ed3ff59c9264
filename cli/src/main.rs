//! The `rtcompare` binary; see the `rtcompare_cli` crate documentation and `rtcompare --help`.

fn main() {
    std::process::exit(rtcompare_cli::run(std::env::args_os()));
}
