//! Service mode: the schedule on a simulated clock (exact), accounting of stalled, failing and
//! timed-out requests, loopback-only targets, reproducible intervals, and typed errors for bad
//! options. The only real-clock tests use effects of 100 ms or more.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rtcompare::support::measure::SimulatedClock;
use rtcompare_service::Error;
use rtcompare_service::{
    self as service, Call, Framing, LatencyOrigin, LoadOptions, Schedule, ServiceOptions,
    ServiceSide, ServiceUnresolved, ServiceVerdict, SimulatedPacer, Tcp,
};

const MS: u64 = 1_000_000;

/// Equal within the histograms' resolution (3 significant digits).
fn close(x: f64, want: f64) -> bool {
    (x - want).abs() <= 1e-3 * want
}

fn sim_options() -> LoadOptions {
    LoadOptions::default()
        .rate(1_000.0)
        .duration(Duration::from_millis(100))
        .window(Duration::from_millis(20))
        .warmup(Duration::ZERO)
        .percentiles(&[0.5, 0.9])
        .resamples(200)
        .seed(1)
}

/// Every request is due at t0 + i/rate, starts then, and its latency is its service time.
#[test]
fn due_times_and_latencies_are_exact_on_a_simulated_clock() {
    let pacer = SimulatedPacer::new(SimulatedClock::new(1));
    let clock = pacer.clock().clone();
    let starts = Mutex::new(Vec::new());
    let t = Call::new("sim", |i: u64| -> Result<(), String> {
        starts.lock().unwrap().push((i, clock.exact_ns()));
        clock.advance(100_000); // 100 µs of service
        Ok(())
    });
    let r = service::run_with_pacer(&t, &sim_options(), &pacer).unwrap();
    let starts = starts.into_inner().unwrap();
    assert_eq!(starts.len(), 100);
    for (k, &(i, at)) in starts.iter().enumerate() {
        assert_eq!(i, k as u64);
        assert_eq!(at, i * MS, "request {i} started at {at}");
    }
    let lat = r.latencies_ns.as_ref().unwrap();
    assert_eq!(lat.len(), 100);
    assert!(lat.iter().all(|&l| l == 100_000), "{lat:?}");
    assert_eq!(r.target.send_lag.max_ns, 0.0);
    assert_eq!(r.target.completed, 100);
    assert_eq!(r.target.scheduled, 100);
    assert_eq!(r.windows.len(), 5);
    assert!(r.windows.iter().all(|w| w.scheduled == 20));
    assert!(r.generator_behind.is_none());
    let p50 = r.target.percentile(0.5).unwrap();
    assert_eq!(
        (p50.value_ns, p50.low_ns, p50.high_ns),
        (100_000.0, 100_000.0, 100_000.0)
    );
}

/// A 10 ms stall of request 10: the requests queued behind it start late (send lag) and carry
/// the wait in their latency (from the due time); none is lost.
#[test]
fn a_stall_is_charged_to_every_request_behind_it() {
    let pacer = SimulatedPacer::new(SimulatedClock::new(1));
    let clock = pacer.clock().clone();
    let t = Call::new("stall", |i: u64| -> Result<(), String> {
        clock.advance(if i == 10 { 10 * MS } else { 100_000 });
        Ok(())
    });
    let o = sim_options().max_send_lag(Duration::from_millis(50));
    let r = service::run_with_pacer(&t, &o, &pacer).unwrap();
    let lat = r.latencies_ns.unwrap();
    assert_eq!(lat.len(), 100);
    assert_eq!(lat[10], 10 * MS);
    // Request 11 was due at 11 ms, started at 20 ms (9 ms late) and took 0.1 ms.
    assert_eq!(lat[11], 9 * MS + 100_000);
    // The backlog drains at 0.9 ms per request: request 10 + k waits 10 − 0.9·k ms.
    for k in 1..=11u64 {
        let want = (10 * MS + 100_000 * k).saturating_sub(k * MS);
        assert_eq!(
            lat[(10 + k) as usize],
            want.max(100_000),
            "request {}",
            10 + k
        );
    }
    assert!(lat[30..].iter().all(|&l| l == 100_000));
    // The histograms keep 3 significant digits.
    assert!(
        close(r.target.send_lag.max_ns, (9 * MS) as f64),
        "{:?}",
        r.target
    );
    // The closed-loop measurement of the same run omits the waits.
    let pacer = SimulatedPacer::new(SimulatedClock::new(1));
    let clock = pacer.clock().clone();
    let t = Call::new("stall", |i: u64| -> Result<(), String> {
        clock.advance(if i == 10 { 10 * MS } else { 100_000 });
        Ok(())
    });
    let closed = service::run_with_pacer(&t, &o.latency_from(LatencyOrigin::Sent), &pacer).unwrap();
    let lat = closed.latencies_ns.unwrap();
    assert_eq!(lat[10], 10 * MS);
    assert!(
        lat.iter()
            .enumerate()
            .all(|(i, &l)| i == 10 || l == 100_000)
    );
}

/// A generator that wakes late is refused: the report says so and the check fails with the
/// typed error.
#[test]
fn a_late_generator_is_reported_and_refused() {
    let pacer = SimulatedPacer::new(SimulatedClock::new(1)).wake_late_by(3 * MS);
    let t = Call::new("quick", |_: u64| -> Result<(), String> { Ok(()) });
    // Wakes 3 ms late for a request due every 1 ms: the lags run 3, 2, 1, 0 ms over and over.
    let r = service::run_with_pacer(&t, &sim_options(), &pacer).unwrap();
    let g = r.generator_behind.expect("the generator fell behind");
    assert!(g.p99_lag_ns > 2.0 * MS as f64, "{g:?}");
    assert!(matches!(
        r.ensure_generator_kept_up(),
        Err(Error::GeneratorBehind { .. })
    ));
    assert!(r.warnings.iter().any(|w| w.contains("fell behind")));
    let pacer = SimulatedPacer::new(SimulatedClock::new(1)).wake_late_by(100_000);
    let r = service::run_with_pacer(&t, &sim_options(), &pacer).unwrap();
    assert!(r.generator_behind.is_none());
    assert!(close(r.target.send_lag.max_ns, 100_000.0), "{r}");
}

/// Errors and timeouts are counted, never dropped; errors stay out of the percentiles.
#[test]
fn errors_and_timeouts_are_counted() {
    let pacer = SimulatedPacer::new(SimulatedClock::new(1));
    let clock = pacer.clock().clone();
    let t = Call::new("flaky", |i: u64| -> Result<(), String> {
        if i % 10 == 3 {
            return Err(format!("request {i} refused"));
        }
        clock.advance(if i % 10 == 7 { 5 * MS } else { 10_000 });
        Ok(())
    });
    let o = sim_options()
        .timeout(Duration::from_millis(2))
        .max_send_lag(Duration::from_millis(10));
    let r = service::run_with_pacer(&t, &o, &pacer).unwrap();
    let s = &r.target;
    assert_eq!(s.scheduled, 100);
    assert_eq!(s.errors, 10);
    assert_eq!(s.timeouts, 10);
    assert_eq!(s.completed, 80);
    assert_eq!(s.completed + s.errors + s.timeouts + s.unsent, s.scheduled);
    assert_eq!(s.first_error.as_deref(), Some("request 3 refused"));
    assert_eq!(r.latencies_ns.unwrap().len(), 90);
    assert!(r.warnings.iter().any(|w| w.contains("failed")));
    assert!(r.warnings.iter().any(|w| w.contains("timed out")));
}

/// A target that never answers in time: every request is accounted for, the run ends within
/// its time limit.
#[test]
fn a_stuck_target_still_accounts_for_every_request() {
    let pacer = SimulatedPacer::new(SimulatedClock::new(1));
    let clock = pacer.clock().clone();
    let t = Call::new("stuck", |i: u64| -> Result<(), String> {
        if i == 5 {
            clock.advance(60_000 * MS); // a minute
        }
        Ok(())
    });
    let r = service::run_with_pacer(&t, &sim_options(), &pacer).unwrap();
    let s = &r.target;
    assert_eq!(s.scheduled, 100);
    assert_eq!(s.completed + s.timeouts + s.errors + s.unsent, 100);
    assert_eq!(s.timeouts, 1);
    assert_eq!(s.unsent, 94);
    assert!(r.warnings.iter().any(|w| w.contains("never sent")));
}

#[test]
fn intervals_are_reproducible_from_the_seed() {
    let run = |seed: u64| {
        let pacer = SimulatedPacer::new(SimulatedClock::new(1));
        let clock = pacer.clock().clone();
        let t = Call::new("varied", |i: u64| -> Result<(), String> {
            clock.advance(50_000 + (i * 7_919) % 40_000);
            Ok(())
        });
        let o = sim_options().poisson(9).seed(seed);
        service::run_with_pacer(&t, &o, &pacer).unwrap()
    };
    let (a, b, c) = (run(5), run(5), run(6));
    assert_eq!(a.target.percentiles, b.target.percentiles);
    assert_eq!(a.seed, 5);
    // Another bootstrap seed moves the interval's ends, not the percentile.
    assert_eq!(
        a.target.percentiles[0].value_ns,
        c.target.percentiles[0].value_ns
    );
    let json = serde_json::to_string(&a).unwrap();
    assert!(json.contains("\"schema_version\":1"));
    let back: service::LoadReport = serde_json::from_str(&json).unwrap();
    assert_eq!(back.target, a.target);
}

#[test]
fn bad_options_are_typed_errors() {
    let t = Call::new("t", |_: u64| -> Result<(), String> { Ok(()) });
    let pacer = SimulatedPacer::new(SimulatedClock::new(1));
    let run = |o: LoadOptions| service::run_with_pacer(&t, &o, &pacer).unwrap_err();
    assert!(matches!(
        run(sim_options().rate(0.0)),
        Error::InvalidRate { .. }
    ));
    assert!(matches!(
        run(sim_options().rate(f64::NAN)),
        Error::InvalidRate { .. }
    ));
    assert!(matches!(
        run(sim_options().rate(-5.0)),
        Error::InvalidRate { .. }
    ));
    assert!(matches!(
        run(sim_options().duration(Duration::ZERO)),
        Error::ZeroDuration { what: "duration" }
    ));
    assert!(matches!(
        run(sim_options().window(Duration::ZERO)),
        Error::ZeroDuration { what: "window" }
    ));
    assert!(matches!(
        run(sim_options().timeout(Duration::ZERO)),
        Error::ZeroDuration { what: "timeout" }
    ));
    assert!(matches!(
        run(sim_options().workers(0)),
        Error::InvalidOption { .. }
    ));
    assert!(matches!(
        run(sim_options().percentiles(&[1.0])),
        Error::OutOfRange { .. }
    ));
    // 100 requests cannot pin p99.9 down.
    let e = run(sim_options().percentiles(&[0.5, 0.999]));
    assert!(
        matches!(e, Error::WindowTooShort { needed: 10_000, .. }),
        "{e}"
    );
    // A comparison's windows must each hold enough: 1,000 requests per second in 1 s windows
    // cannot give p99.9; interleaved, each lane gets a quarter of a window's requests, so
    // 5 s windows give each lane 1,250: enough for p99, not for p99.9.
    for (schedule, window, min) in [(Schedule::Interleaved, 5, 40), (Schedule::Windows, 1, 10)] {
        let so = ServiceOptions::default()
            .schedule(schedule)
            .window(Duration::from_secs(window));
        let e = service::compare_with_pacer(&t, &t, &so, &pacer).unwrap_err();
        match e {
            Error::WindowTooShort {
                percentile,
                needed,
                min_window,
                ..
            } => {
                assert_eq!(percentile, 0.999);
                assert_eq!(needed, 10_000);
                assert_eq!(min_window, Duration::from_secs(min), "{schedule:?}");
            }
            other => panic!("{other}"),
        }
    }
    assert!(matches!(
        service::compare_with_pacer(&t, &t, &ServiceOptions::default().quads(2), &pacer),
        Err(Error::InvalidOption { name: "quads", .. })
    ));
    for d in [-0.01, 1.0, f64::NAN] {
        assert!(matches!(
            service::compare_with_pacer(
                &t,
                &t,
                &ServiceOptions::default().min_difference(d),
                &pacer
            ),
            Err(Error::OutOfRange { .. })
        ));
    }
    assert!(matches!(
        service::compare_with_pacer(
            &t,
            &t,
            &ServiceOptions::default().window(Duration::ZERO),
            &pacer
        ),
        Err(Error::ZeroDuration { what: "window" })
    ));
}

#[test]
fn non_local_addresses_are_refused() {
    for addr in [
        "8.8.8.8:80",
        "192.0.2.7:9000",
        "0.0.0.0:80",
        "[2001:db8::1]:80",
    ] {
        let e = Tcp::new("x", addr, b"x".to_vec(), Framing::Delimiter(b'\n')).unwrap_err();
        assert!(matches!(e, Error::NotLocal { .. }), "{addr}: {e}");
    }
    assert!(Tcp::new("x", "127.0.0.1:1", b"x".to_vec(), Framing::Delimiter(b'\n')).is_ok());
    assert!(Tcp::new("x", "localhost:1", b"x".to_vec(), Framing::Delimiter(b'\n')).is_ok());
}

/// A comparison on the simulated clock: B is 10 % slower in every request, and the verdict
/// says A; identical targets get none.
#[test]
fn compare_on_a_simulated_clock() {
    let pacer = SimulatedPacer::new(SimulatedClock::new(1));
    let clock = pacer.clock().clone();
    let a = Call::new("a", |i: u64| -> Result<(), String> {
        clock.advance(100_000 + (i * 7_919) % 20_000);
        Ok(())
    });
    let b = Call::new("b", |i: u64| -> Result<(), String> {
        clock.advance(110_000 + (i * 7_919) % 22_000);
        Ok(())
    });
    // Interleaved windows hold four lanes of 100 requests each, ABBA windows 200 requests.
    for (schedule, window_ms, time_windows, due) in [
        (Schedule::Interleaved, 400, 6, 2_400),
        (Schedule::Windows, 200, 12, 4_800),
    ] {
        let so = ServiceOptions::default()
            .load(sim_options().percentiles(&[0.5, 0.9]))
            .schedule(schedule)
            .window(Duration::from_millis(window_ms))
            .quads(6);
        let r = service::compare_with_pacer(&a, &b, &so, &pacer).unwrap();
        let p50 = r.percentile(0.5).unwrap();
        assert_eq!(p50.verdict, ServiceVerdict::AFaster, "{r}");
        assert!(
            (p50.estimate.delta - (1.0 - 1.0 / 1.1)).abs() < 0.01,
            "{p50:?}"
        );
        assert_eq!(r.windows.len(), 24);
        assert_eq!(r.a.windows, time_windows);
        let per_target = if schedule == Schedule::Interleaved {
            500.0
        } else {
            1_000.0
        };
        assert_eq!(r.a.offered_rate, per_target);
        assert!((r.a.achieved_rate - per_target).abs() < 1.0, "{r}");
        assert_eq!(r.a.scheduled + r.b.scheduled, due);
        let text = r.to_string();
        assert!(text.contains("A FASTER"), "{text}");
        let json = serde_json::to_string(&r).unwrap();
        let back: service::ServiceReport = serde_json::from_str(&json).unwrap();
        assert_eq!(back.comparisons, r.comparisons);
        assert_eq!(back.windows, r.windows);
        if schedule == Schedule::Interleaved {
            // Lanes 0 and 3 of every window are A's, 1 and 2 B's, each a quarter of the window.
            for w in &r.windows {
                let side = if w.lane == 0 || w.lane == 3 {
                    ServiceSide::A
                } else {
                    ServiceSide::B
                };
                assert_eq!((w.index % 4, w.side), (w.lane, side));
                assert_eq!(w.scheduled, 100);
            }
        }

        // A/A: no verdict on any percentile.
        let r = service::compare_with_pacer(&a, &a, &so, &pacer).unwrap();
        for c in &r.comparisons {
            assert!(!c.verdict.is_resolved(), "{r}");
        }
    }
}

/// A real 1 % difference (exact service times on the simulated clock) is below the default
/// smallest difference a verdict may claim, and resolved once that bar is lowered.
#[test]
fn a_small_difference_is_below_the_minimum() {
    let pacer = SimulatedPacer::new(SimulatedClock::new(1));
    let clock = pacer.clock().clone();
    let a = Call::new("a", |i: u64| -> Result<(), String> {
        clock.advance(100_000 + (i * 7_919) % 200);
        Ok(())
    });
    let b = Call::new("b", |i: u64| -> Result<(), String> {
        clock.advance(101_000 + (i * 7_919) % 202);
        Ok(())
    });
    let so = ServiceOptions::default()
        .load(sim_options().percentiles(&[0.5]))
        .window(Duration::from_millis(200))
        .quads(6);
    let r = service::compare_with_pacer(&a, &b, &so, &pacer).unwrap();
    let c = r.percentile(0.5).unwrap();
    assert!(
        matches!(
            c.verdict,
            ServiceVerdict::CannotTell(ServiceUnresolved::BelowMinDifference { .. })
        ),
        "{r}"
    );
    assert!(r.to_string().contains("min_difference"), "{r}");
    let r = service::compare_with_pacer(&a, &b, &so.min_difference(0.0), &pacer).unwrap();
    assert_eq!(
        r.percentile(0.5).unwrap().verdict,
        ServiceVerdict::AFaster,
        "{r}"
    );
}

/// The width rule: a percentile whose ratio interval is wider than the bound gets "cannot
/// tell: the interval … is too wide".
#[test]
fn a_wide_interval_gets_no_verdict() {
    let pacer = SimulatedPacer::new(SimulatedClock::new(1));
    let clock = pacer.clock().clone();
    let state = AtomicU64::new(12345);
    let noisy = |scale: u64| {
        let x = state.fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::Relaxed);
        let r = rtcompare::support::rng::splitmix64(x) % 200_000;
        clock.advance(scale + r);
    };
    let a = Call::new("a", |_: u64| -> Result<(), String> {
        noisy(100_000);
        Ok(())
    });
    let b = Call::new("b", |_: u64| -> Result<(), String> {
        noisy(105_000);
        Ok(())
    });
    let so = ServiceOptions::default()
        .load(sim_options().percentiles(&[0.5, 0.9]).workers(1))
        .window(Duration::from_millis(400))
        .quads(6)
        .max_relative_half_width(0.001);
    let r = service::compare_with_pacer(&a, &b, &so, &pacer).unwrap();
    let c = r.percentile(0.9).unwrap();
    assert!(
        matches!(
            c.verdict,
            ServiceVerdict::CannotTell(ServiceUnresolved::TooWide { .. })
        ),
        "{r}"
    );
    assert!(
        r.to_string().contains("the interval of p90 is too wide"),
        "{r}"
    );
}

/// A loopback server that answers each line with "ok\n" and, while `stall` is set, sleeps
/// 150 ms before answering. Returns the address, the flag, and a stop handle.
struct TestServer {
    addr: std::net::SocketAddr,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl TestServer {
    fn start(stall_first: bool) -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let stop2 = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let mut handles = Vec::new();
            for s in listener.incoming() {
                if stop2.load(Ordering::Relaxed) {
                    break;
                }
                let Ok(s) = s else { continue };
                let stop3 = Arc::clone(&stop2);
                handles.push(std::thread::spawn(move || {
                    s.set_read_timeout(Some(Duration::from_millis(50))).unwrap();
                    let mut w = s.try_clone().unwrap();
                    let mut r = BufReader::new(s);
                    let mut line = String::new();
                    let mut first = stall_first;
                    while !stop3.load(Ordering::Relaxed) {
                        match r.read_line(&mut line) {
                            Ok(0) => return,
                            Ok(_) => {}
                            Err(_) => continue,
                        }
                        line.clear();
                        if first {
                            first = false;
                            std::thread::sleep(Duration::from_millis(400));
                        }
                        if w.write_all(b"ok\n").is_err() {
                            return;
                        }
                    }
                }));
            }
            for h in handles {
                let _ = h.join();
            }
        });
        TestServer {
            addr,
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = TcpStream::connect(self.addr);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Real loopback TCP: every request answered; a server that stalls 400 ms on a connection's
/// first request against a 100 ms timeout gives timeouts, counted, and the run still ends.
#[test]
fn tcp_on_loopback_counts_timeouts() {
    let opts = LoadOptions::default()
        .rate(200.0)
        .duration(Duration::from_millis(400))
        .window(Duration::from_millis(100))
        .warmup(Duration::ZERO)
        .workers(2)
        .percentiles(&[0.5])
        .resamples(200)
        .timeout(Duration::from_millis(100))
        .max_send_lag(Duration::from_secs(1))
        .seed(1);
    let server = TestServer::start(false);
    let t = Tcp::new(
        "ok",
        server.addr,
        b"hi\n".to_vec(),
        Framing::Delimiter(b'\n'),
    )
    .unwrap();
    let r = service::run(&t, &opts).unwrap();
    assert_eq!(r.target.scheduled, 80);
    assert_eq!(r.target.completed, 80, "{r}");
    drop(server);

    let server = TestServer::start(true);
    let t = Tcp::new("slow", server.addr, b"hi\n".to_vec(), Framing::Length(3)).unwrap();
    let r = service::run(&t, &opts).unwrap();
    let s = &r.target;
    assert_eq!(s.completed + s.errors + s.timeouts + s.unsent, 80);
    // Each worker's first connection stalls past the timeout.
    assert!(s.timeouts >= 2, "{r}");
}

/// A real stall of 150 ms in a closure under open-loop load: the requests due during it carry
/// it, and every request is accounted for.
#[test]
fn a_real_stall_shows_in_the_tail() {
    let t = Call::new("stall", |i: u64| -> Result<(), String> {
        if i == 20 {
            std::thread::sleep(Duration::from_millis(150));
        }
        Ok(())
    });
    let o = LoadOptions::default()
        .rate(200.0)
        .duration(Duration::from_millis(800))
        .window(Duration::from_millis(200))
        .warmup(Duration::ZERO)
        .workers(1)
        .percentiles(&[0.5, 0.9])
        .resamples(200)
        .max_send_lag(Duration::from_secs(1))
        .seed(2);
    let r = service::run(&t, &o).unwrap();
    assert_eq!(r.target.scheduled, 160);
    assert_eq!(r.target.completed, 160);
    // Requests 20..50 were due during the stall: 30 of 160, so p90 is at least tens of ms.
    let p90 = r.target.percentile(0.9).unwrap().value_ns;
    assert!(p90 > 20.0 * MS as f64, "{r}");
    assert!(r.target.max_ns >= 150.0 * MS as f64, "{r}");
}

/// Under the interleaved schedule the two A/B pairs of a window share its stretch of time, so
/// the bootstrap must draw them together. Here whatever the window does moves both alike: in
/// window `q` every request to A takes 100 µs × (1 + d_q), every request to B 100 µs, with 16
/// distinct d_q of alternating sign (so that neither the windows' nor the pairs' ratios are
/// autocorrelated above the block rule's 0.2, and no block hides the difference). The two
/// pairs of a window are then identical, and the data hold 16 draws of d, not 32.
///
/// Drawn by window, A's pooled p50 is the 8th smallest of 16 drawn d (each window's lanes
/// carry equal weight), at or below the 4th smallest d_q with probability
/// `scipy.stats.binom.sf(7, 16, 4/16)` = 0.0271 and at or above the 5th largest with
/// `binom.sf(8, 16, 5/16)` = 0.0334, both above the 0.005 of each tail of a 99 % interval: the
/// interval reaches both. Drawn pair by pair (32 draws, the 16th smallest) the first is
/// `binom.sf(15, 32, 4/16)` = 0.0020, below 0.005: the interval stops short of the 4th
/// smallest d_q and claims a precision the windows do not hold.
#[test]
fn the_pairs_of_an_interleaved_window_are_drawn_together() {
    let pacer = SimulatedPacer::new(SimulatedClock::new(1));
    let clock = pacer.clock().clone();
    let d: Vec<f64> = (0..16)
        .map(|q| if q % 2 == 0 { 1.0 } else { -1.0 } * 0.005 * (q + 1) as f64)
        .collect();
    // 1,000 requests per second and windows of 400 ms: request i falls in window i / 400.
    let a = Call::new("a", |i: u64| -> Result<(), String> {
        let q = (i / 400) as usize;
        clock.advance((100_000.0 * (1.0 + d[q])).round() as u64);
        Ok(())
    });
    let b = Call::new("b", |_: u64| -> Result<(), String> {
        clock.advance(100_000);
        Ok(())
    });
    let so = ServiceOptions::default()
        .load(sim_options().percentiles(&[0.5]).resamples(2_000))
        .window(Duration::from_millis(400))
        .quads(16)
        .min_difference(0.0);
    let r = service::compare_with_pacer(&a, &b, &so, &pacer).unwrap();
    let e = r.percentile(0.5).unwrap().estimate;
    assert_eq!(e.block_length, 1, "{e:?}");
    let mut sorted = d.clone();
    sorted.sort_by(f64::total_cmp);
    // δ = 1 − Q_A / Q_B = −d*: the interval's high end is the low end of d*.
    let (d_low, d_high) = (-e.high, -e.low);
    assert!(
        d_low <= sorted[3] + 1e-9,
        "the interval stops at d = {d_low:+.4} short of the 4th smallest window, {:+.4}: {e:?}",
        sorted[3]
    );
    assert!(
        d_high >= sorted[11] - 1e-9,
        "the interval stops at d = {d_high:+.4} short of the 5th largest window, {:+.4}: {e:?}",
        sorted[11]
    );
}
