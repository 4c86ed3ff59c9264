//! Ctrl-C while a pool runs. Its own test binary: SIGINT reaches the whole process, so any
//! pool running beside this test would be cancelled with it.

mod pool_common;

use std::time::{Duration, Instant};

use pool_common::{children, leftovers, quick};
use rtcompare::Error;
use rtcompare::pool;
use rtcompare::support::pool::CHILD_ENV;

#[test]
fn ctrl_c_cancels_the_pool_and_leaves_nothing_behind() {
    // The child re-runs this test and reaches this line too; an interrupter there would
    // signal the child instead of the parent.
    let interrupter = std::env::var_os(CHILD_ENV).is_none().then(|| {
        let me = std::process::id() as i32;
        std::thread::spawn(move || {
            // Signal once a child runs: the pool installs its handler before it starts one,
            // so the signal never meets the default action (which would end the test
            // binary), and there is a child for the pool to kill.
            let waiting = Instant::now();
            while children().is_empty() && waiting.elapsed() < Duration::from_secs(30) {
                std::thread::sleep(Duration::from_millis(10));
            }
            // SAFETY: sends SIGINT to this process, which the pool's handler turns into a flag.
            unsafe { libc::kill(me, libc::SIGINT) };
        })
    });
    let started = Instant::now();
    let e = pool::run(&quick(), |_ctx| {
        std::thread::sleep(Duration::from_secs(60));
        unreachable!("the parent kills this child")
    })
    .unwrap_err();
    if let Some(t) = interrupter {
        t.join().unwrap();
    }
    assert!(matches!(e, Error::Cancelled { .. }), "{e}");
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    assert!(leftovers().is_empty(), "{:?}", leftovers());
    assert_eq!(
        children(),
        Vec::<String>::new(),
        "no child outlives the pool"
    );
}
