//! Service mode on real loopback servers: latency under open-loop load.
//!
//! The example starts its own TCP servers on 127.0.0.1 (each a thread per connection, inside
//! this process), loads them, and stops them again: every server thread is joined and its
//! port freed on every path, including errors (the servers stop when dropped).
//!
//! * `cargo run --release -p rtcompare-service --example service` (about 8 s): two implementations of one request
//!   handler (a JSON document written by serde_json, and the same document written by hand)
//!   compared under one load, their requests interleaved (a quick setting: p50 and p90 from
//!   64 pairs of lanes of 32 windows of 200 ms at 2,000 requests per second), with the report.
//! * `-- --selftest` (about 81 minutes: 20 comparisons of about 4 minutes each, at nice −10
//!   when allowed, `--no-nice` to keep the default priority): 10 A/A comparisons (the same
//!   handler on two servers; a verdict on p50 is a false one) and 10 with a real 5 % added
//!   latency (a busy-wait in the second server's handler, 5 % of the p50 latency the A/A
//!   comparisons measured; a verdict "A faster" on p50 is a detection), every one at
//!   `ServiceOptions::default()` but for its seed: what a user gets who sets nothing (1,000
//!   requests per second, 6 interleaved windows of 40 s after 1 s of warm-up per target,
//!   p50 to p99.9, 8 workers, 242 s of load a comparison). It prints its bars and exits with
//!   status 1 when one is missed (a false A/A verdict, or fewer than 9 detections), 0 when
//!   both hold.
//! * `-- --omission` (about 25 s): a server that stalls for 100 ms once a second, measured
//!   open-loop (latency from the due time) and by a closed-loop client (one connection,
//!   latency from the send) at the same mean rate; prints both p99s.
//! * `-- --ceiling` (about 40 s): the generator's own ceiling, the highest rate at which the
//!   send lag's p99 stays within its bound, for a closure and for the TCP target.
//! * `-- --noise` (about 40 s): where the noise of a p50 comparison comes from here: A/A
//!   comparisons in ABBA windows and interleaved, one server's latency quantiles, and the
//!   handler alone timed in blocks of 100 calls (not pinned; `taskset -c 1` pins it all).
//! * `--json` after any of them prints one JSON object instead of the text.
//!
//! The default run and the self-test pin the whole process (servers and generator) to its
//! last allowed CPU, as the runner pins to one CPU; `--no-pin` leaves the scheduler free.
//! `--windows` compares in ABBA windows (`Schedule::Windows`) instead of interleaving.

use std::fmt::Write as _;
use std::hint::black_box;
use std::io::{BufRead, BufReader, ErrorKind, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rtcompare_service::{
    self as service, Call, Framing, LatencyOrigin, LoadOptions, Schedule, ServiceOptions,
    ServiceVerdict, Tcp,
};
use serde::Serialize;
use serde_json::json;

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// What the handler does for one request line.
#[derive(Clone, Copy, Debug)]
enum Handler {
    /// A JSON document from serde_json.
    Serde,
    /// The same document formatted by hand.
    Manual,
    /// A one-byte answer (for the generator's ceiling).
    Echo,
}

#[derive(Serialize)]
struct Item {
    id: u64,
    name: String,
    score: f64,
    tags: [&'static str; 2],
}

/// Items in the document a request asks for.
const ITEMS: u64 = 150;

/// The document a request asks for: [`ITEMS`] items derived from the request line.
fn items(seed: u64) -> Vec<Item> {
    (0..ITEMS)
        .map(|k| Item {
            id: seed.wrapping_mul(31).wrapping_add(k),
            name: format!("item-{k}-{}", seed % 97),
            score: (seed % 1000) as f64 / 7.0 + k as f64,
            tags: ["alpha", "beta"],
        })
        .collect()
}

fn respond(handler: Handler, line: &str, out: &mut String) {
    out.clear();
    let seed: u64 = line.trim().parse().unwrap_or(0);
    match handler {
        Handler::Serde => {
            let doc = items(seed);
            out.push_str(&serde_json::to_string(&doc).unwrap_or_default());
        }
        Handler::Manual => {
            let doc = items(seed);
            out.push('[');
            for (i, it) in doc.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                let _ = write!(
                    out,
                    "{{\"id\":{},\"name\":\"{}\",\"score\":{},\"tags\":[\"{}\",\"{}\"]}}",
                    it.id, it.name, it.score, it.tags[0], it.tags[1]
                );
            }
            out.push(']');
        }
        Handler::Echo => out.push('k'),
    }
    out.push('\n');
}

/// How a server misbehaves.
#[derive(Clone, Copy, Debug, Default)]
struct Behaviour {
    /// Busy-wait this long in every request (the injected regression).
    busy: Duration,
    /// Stall every request that arrives in the first `stall` of each second.
    stall: Duration,
}

/// A loopback server running in this process; stops (joining every thread) when dropped.
struct Server {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    accept: Option<JoinHandle<()>>,
}

impl Server {
    fn start(handler: Handler, behaviour: Behaviour) -> Res<Server> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let addr = listener.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let stop2 = Arc::clone(&stop);
        let epoch = Instant::now();
        let accept = std::thread::spawn(move || {
            let mut conns: Vec<JoinHandle<()>> = Vec::new();
            for stream in listener.incoming() {
                if stop2.load(Ordering::Relaxed) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let stop3 = Arc::clone(&stop2);
                conns.push(std::thread::spawn(move || {
                    serve(stream, handler, behaviour, epoch, &stop3)
                }));
                conns.retain(|h| !h.is_finished());
            }
            for h in conns {
                let _ = h.join();
            }
        });
        Ok(Server {
            addr,
            stop,
            accept: Some(accept),
        })
    }

    fn target(&self, name: &str) -> Res<Tcp> {
        Ok(Tcp::new(
            name,
            self.addr,
            b"12345\n".to_vec(),
            Framing::Delimiter(b'\n'),
        )?)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        // Wake the accept loop so that it sees the flag.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
        if let Some(h) = self.accept.take() {
            let _ = h.join();
        }
    }
}

fn serve(stream: TcpStream, handler: Handler, b: Behaviour, epoch: Instant, stop: &AtomicBool) {
    let _ = stream.set_nodelay(true);
    // A short read timeout lets the thread notice the stop flag.
    let _ = stream.set_read_timeout(Some(Duration::from_millis(100)));
    let Ok(mut writer) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    let mut out = String::new();
    while !stop.load(Ordering::Relaxed) {
        match reader.read_line(&mut line) {
            Ok(0) => return,
            Ok(_) => {}
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => continue,
            Err(_) => return,
        }
        if !b.stall.is_zero() {
            let into = Duration::from_nanos((epoch.elapsed().as_nanos() % 1_000_000_000) as u64);
            if into < b.stall {
                std::thread::sleep(b.stall - into);
            }
        }
        respond(handler, &line, &mut out);
        if !b.busy.is_zero() {
            let t = Instant::now();
            while t.elapsed() < b.busy {
                black_box(0u64);
            }
        }
        line.clear();
        if writer.write_all(out.as_bytes()).is_err() {
            return;
        }
    }
}

fn load_average() -> String {
    rtcompare::env::load_average()
        .map(|l| format!("{:.2} {:.2} {:.2}", l[0], l[1], l[2]))
        .unwrap_or_else(|| "unknown".into())
}

fn load_average_json() -> serde_json::Value {
    json!(rtcompare::env::load_average())
}

/// The quick setting of the default run and of `--noise`: 2,000 requests per second, the
/// interleaved schedule with 32 windows of 200 ms (400 requests, 100 per lane: enough for p50
/// and p90), 4 workers; each comparison takes about 7.5 s. With `--windows`, the ABBA-window
/// schedule instead: 32 groups of four 50 ms windows (100 requests each), a settle of 20 ms
/// after each switch, about 9 s. `SERVICE_SELFTEST=rate,window_ms,quads,workers` overrides
/// the numbers (the name is older than the self-test's move to the defaults).
fn quick_options(seed: u64) -> ServiceOptions {
    let windows = std::env::args().any(|a| a == "--windows");
    let (mut rate, mut window_ms, mut quads, mut workers) =
        (2_000.0, if windows { 50u64 } else { 200 }, 32usize, 4usize);
    if let Ok(v) = std::env::var("SERVICE_SELFTEST") {
        let parts: Vec<&str> = v.split(',').collect();
        if parts.len() == 4 {
            rate = parts[0].parse().unwrap_or(rate);
            window_ms = parts[1].parse().unwrap_or(window_ms);
            quads = parts[2].parse().unwrap_or(quads);
            workers = parts[3].parse().unwrap_or(workers);
        }
    }
    ServiceOptions::default()
        .load(
            LoadOptions::default()
                .rate(rate)
                .warmup(Duration::from_millis(500))
                .workers(workers)
                .percentiles(&[0.5, 0.9])
                .seed(seed),
        )
        .schedule(if windows {
            Schedule::Windows
        } else {
            Schedule::Interleaved
        })
        .window(Duration::from_millis(window_ms))
        .quads(quads)
        .settle(Duration::from_millis(20))
}

fn default_run(json_out: bool) -> Res<()> {
    let a = Server::start(Handler::Manual, Behaviour::default())?;
    let b = Server::start(Handler::Serde, Behaviour::default())?;
    let report = service::compare(
        &a.target("manual JSON")?,
        &b.target("serde_json")?,
        &quick_options(1),
    )?;
    if json_out {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        println!("{report}");
        println!("load average at the end: {}", load_average());
    }
    Ok(())
}

/// The self-test's options for comparison `seed`: the library's defaults, so that the bars
/// are checked where a user who sets nothing stands; only the seed differs from one
/// comparison to the next (and `--windows` selects the ABBA schedule, 16 minutes a comparison
/// at the defaults).
fn selftest_options(seed: u64) -> ServiceOptions {
    let defaults = ServiceOptions::default();
    let load = defaults.load.clone().seed(seed);
    let o = defaults.load(load);
    if std::env::args().any(|a| a == "--windows") {
        o.schedule(Schedule::Windows)
    } else {
        o
    }
}

/// Runs the self-test; `Ok(true)` when both bars held.
fn selftest(json_out: bool) -> Res<bool> {
    const RUNS: usize = 10;
    let started = Instant::now();
    let mut aa_false = 0;
    let mut detected = 0;
    let mut runs = Vec::new();
    // The injected regression: 5 % of the p50 latency the A/A comparisons measured (the
    // median over them of both servers' p50), so that it is 5 % under the comparison's own
    // load, on this machine, now.
    let mut aa_p50 = Vec::new();
    let mut busy = Duration::ZERO;
    for kind in ["aa", "injected"] {
        if kind == "injected" {
            aa_p50.sort_by(f64::total_cmp);
            let base = aa_p50.get(aa_p50.len() / 2).copied().unwrap_or(0.0);
            busy = Duration::from_nanos((0.05 * base) as u64);
            if !json_out {
                eprintln!(
                    "A/A p50 (median) {:.1} µs; injected busy-wait {:.2} µs; load average {}",
                    base / 1e3,
                    busy.as_nanos() as f64 / 1e3,
                    load_average()
                );
            }
        }
        let extra = busy;
        for i in 0..RUNS {
            let a = Server::start(Handler::Manual, Behaviour::default())?;
            let b = Server::start(
                Handler::Manual,
                Behaviour {
                    busy: extra,
                    ..Behaviour::default()
                },
            )?;
            let r = service::compare(
                &a.target("A")?,
                &b.target("B")?,
                &selftest_options(1_000 + i as u64),
            )?;
            let c = r.percentile(0.5).ok_or("no p50 in the report")?;
            if kind == "aa" {
                for side in [&r.a, &r.b] {
                    aa_p50.extend(side.percentile(0.5).map(|p| p.value_ns));
                }
            }
            let hit = match kind {
                "aa" => c.verdict.is_resolved(),
                _ => c.verdict == ServiceVerdict::AFaster,
            };
            if kind == "aa" {
                aa_false += usize::from(hit);
            } else {
                detected += usize::from(hit);
            }
            let p99 = r.percentile(0.9).map(|c| c.verdict);
            if !json_out {
                eprintln!(
                    "{kind} {i}: p50 δ = {:+.2}% [{:+.2}%, {:+.2}%], floor {:.2}%, {} ; p90 {}",
                    100.0 * c.estimate.delta,
                    100.0 * c.estimate.low,
                    100.0 * c.estimate.high,
                    100.0 * c.noise_floor,
                    verdict_word(&c.verdict),
                    p99.map_or("-".into(), |v| verdict_word(&v))
                );
                eprintln!(
                    "    ({:.0} s; load average {})",
                    r.elapsed_s,
                    load_average()
                );
            }
            runs.push(json!({
                "kind": kind,
                "p50_delta": c.estimate.delta,
                "p50_low": c.estimate.low,
                "p50_high": c.estimate.high,
                "p50_noise_floor": c.noise_floor,
                "p50_verdict": c.verdict,
                "p90_verdict": p99,
                "a_p50_ns": r.a.percentile(0.5).map(|p| p.value_ns),
                "send_lag_p99_ns": r.a.send_lag.p99_ns.max(r.b.send_lag.p99_ns),
                "elapsed_s": r.elapsed_s,
            }));
        }
    }
    // The bars: no false verdict in ten A/A comparisons, at least nine detections in ten.
    let passed = aa_false == 0 && detected >= 9;
    let minutes = started.elapsed().as_secs_f64() / 60.0;
    if json_out {
        println!(
            "{}",
            json!({
                "passed": passed,
                "minutes": minutes,
                "aa_false_verdicts": aa_false,
                "aa_runs": RUNS,
                "injected_detected": detected,
                "injected_runs": RUNS,
                "percentile": 0.5,
                "aa_median_p50_ns": aa_p50.get(aa_p50.len() / 2),
                "injected_busy_ns": busy.as_nanos() as u64,
                "load_average": load_average_json(),
                "runs": runs,
            })
        );
    } else {
        println!(
            "service self-test on p50 at ServiceOptions::default(): A/A false verdicts \
             {aa_false}/{RUNS} (must be 0), injected 5 % detected {detected}/{RUNS} (must be \
             ≥ 9): {}; {minutes:.1} minutes, load average {}",
            if passed { "PASSED" } else { "FAILED" },
            load_average()
        );
    }
    Ok(passed)
}

/// Standard deviation (population) of `v`.
fn sd(v: &[f64]) -> f64 {
    let m = v.iter().sum::<f64>() / v.len().max(1) as f64;
    (v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / v.len().max(1) as f64).sqrt()
}

/// The `q` quantile of sorted `v` (nearest rank).
fn at(v: &[f64], q: f64) -> f64 {
    v[((q * v.len() as f64) as usize).min(v.len() - 1)]
}

/// Where the noise of a p50 comparison comes from on this machine: A/A comparisons of two
/// servers with the same handler, in ABBA windows (the spread of one window's p50 at two
/// rates) and interleaved (the spread of the ratio of two lanes of the same window); one
/// server's latency quantiles; and the handler alone, timed in-process, in blocks of 100
/// calls.
fn noise(json_out: bool) -> Res<()> {
    let ln_p50 = |w: &service::WindowSummary| w.percentiles_ns[0].unwrap_or(f64::NAN).ln();
    let aa = |schedule: Schedule, rate: f64, window_ms: u64, seed: u64| -> Res<_> {
        let a = Server::start(Handler::Manual, Behaviour::default())?;
        let b = Server::start(Handler::Manual, Behaviour::default())?;
        let o = quick_options(seed)
            .load(
                LoadOptions::default()
                    .rate(rate)
                    .warmup(Duration::from_millis(500))
                    .workers(4)
                    .percentiles(&[0.5])
                    .seed(seed),
            )
            .schedule(schedule)
            .window(Duration::from_millis(window_ms));
        Ok(service::compare(&a.target("A")?, &b.target("B")?, &o)?)
    };
    let mut out = serde_json::Map::new();
    // ABBA windows of 50 ms: the spread of one window's p50, at 100 and 400 requests a window.
    for rate in [2_000.0, 8_000.0] {
        let r = aa(Schedule::Windows, rate, 50, 1)?;
        let v: Vec<f64> = r.windows.iter().map(ln_p50).collect();
        out.insert(format!("windows_{rate}_sd_ln_p50"), json!(sd(&v)));
    }
    // Interleaved windows of 200 ms at 2,000/s: the two targets' lanes of one window.
    let r = aa(Schedule::Interleaved, 2_000.0, 200, 1)?;
    let lanes: Vec<f64> = r.windows.iter().map(ln_p50).collect();
    let same_window: Vec<f64> = lanes
        .chunks(4)
        .flat_map(|g| [g[0] - g[1], g[3] - g[2]])
        .collect();
    out.insert(
        "interleaved_sd_ln_lane_ratio".into(),
        json!(sd(&same_window)),
    );
    // One server alone at 2,000/s: its latency distribution.
    let s = Server::start(Handler::Manual, Behaviour::default())?;
    let r = service::run(
        &s.target("one")?,
        &LoadOptions::default()
            .rate(2_000.0)
            .workers(4)
            .duration(Duration::from_secs(3))
            .window(Duration::from_millis(100))
            .warmup(Duration::from_millis(500))
            .percentiles(&[0.5]),
    )?;
    drop(s);
    let mut lat: Vec<f64> = r
        .latencies_ns
        .unwrap_or_default()
        .iter()
        .map(|&v| v as f64 / 1e3)
        .collect();
    lat.sort_by(f64::total_cmp);
    let qs = [0.1, 0.2, 0.3, 0.5, 0.7, 0.9];
    if !lat.is_empty() {
        out.insert(
            "server_latency_us".into(),
            json!(qs.iter().map(|&q| (q, at(&lat, q))).collect::<Vec<_>>()),
        );
    }
    // The handler alone, 6,000 calls back to back: the share of fast calls per block of 100,
    // "fast" meaning within 20 % of the 10th percentile.
    let mut text = String::new();
    let mut took = Vec::with_capacity(6_000);
    for _ in 0..6_000 {
        let t = Instant::now();
        respond(Handler::Manual, "12345\n", &mut text);
        took.push(t.elapsed().as_nanos() as f64 / 1e3);
    }
    let mut sorted = took.clone();
    sorted.sort_by(f64::total_cmp);
    let cut = 1.2 * at(&sorted, 0.1);
    let blocks: Vec<usize> = took
        .chunks(100)
        .map(|c| c.iter().filter(|&&t| t < cut).count())
        .collect();
    out.insert(
        "handler_us".into(),
        json!(qs.iter().map(|&q| (q, at(&sorted, q))).collect::<Vec<_>>()),
    );
    out.insert("handler_fast_below_us".into(), json!(cut));
    out.insert("handler_fast_per_100_calls".into(), json!(blocks));
    out.insert("load_average".into(), load_average_json());
    if json_out {
        println!("{}", serde_json::Value::Object(out));
    } else {
        for (k, v) in &out {
            println!("{k}: {v}");
        }
    }
    Ok(())
}

fn verdict_word(v: &ServiceVerdict) -> String {
    match v {
        ServiceVerdict::AFaster => "A faster".into(),
        ServiceVerdict::BFaster => "B faster".into(),
        ServiceVerdict::CannotTell(r) => format!("cannot tell ({r})"),
    }
}

fn omission(json_out: bool) -> Res<()> {
    let rate = 500.0;
    let server = Server::start(
        Handler::Manual,
        Behaviour {
            stall: Duration::from_millis(100),
            ..Behaviour::default()
        },
    )?;
    let t = server.target("stalling server")?;
    let base = LoadOptions::default()
        .rate(rate)
        .duration(Duration::from_secs(10))
        .window(Duration::from_secs(2))
        .warmup(Duration::from_millis(500))
        .percentiles(&[0.5, 0.9, 0.99])
        .seed(3);
    // Open loop: enough workers that the 50 requests due during a stall never wait for one.
    let open = service::run(&t, &base.clone().workers(96))?;
    // Closed loop: one connection, the next request only after the reply, latency from the send.
    let closed = service::run(&t, &base.workers(1).latency_from(LatencyOrigin::Sent))?;
    let p = |r: &service::LoadReport, q: f64| {
        r.target
            .percentile(q)
            .map_or(f64::NAN, |p| p.value_ns / 1e6)
    };
    if json_out {
        println!(
            "{}",
            json!({
                "open_loop_p99_ms": p(&open, 0.99),
                "closed_loop_p99_ms": p(&closed, 0.99),
                "open_loop_p50_ms": p(&open, 0.5),
                "closed_loop_p50_ms": p(&closed, 0.5),
                "open_loop_achieved_rate": open.target.achieved_rate,
                "closed_loop_achieved_rate": closed.target.achieved_rate,
                "open_loop_send_lag_p99_ms": open.target.send_lag.p99_ns / 1e6,
                "rate": rate,
                "stall_ms": 100,
                "load_average": load_average_json(),
            })
        );
    } else {
        println!("A server stalling 100 ms once a second, {rate} requests per second for 10 s:\n");
        println!("open loop (latency from the due time, 96 workers):\n{open}");
        println!("closed loop (one connection, latency from the send):\n{closed}");
        println!(
            "p99: open loop {:.2} ms, closed loop {:.2} ms; load average {}",
            p(&open, 0.99),
            p(&closed, 0.99),
            load_average()
        );
    }
    Ok(())
}

fn ceiling(json_out: bool) -> Res<()> {
    let rates = [
        1_000.0, 2_000.0, 5_000.0, 10_000.0, 20_000.0, 50_000.0, 100_000.0, 200_000.0,
    ];
    let opts = |rate: f64| {
        LoadOptions::default()
            .rate(rate)
            .workers(8)
            .duration(Duration::from_secs(2))
            .window(Duration::from_millis(500))
            .warmup(Duration::from_millis(200))
            .percentiles(&[0.5])
            .resamples(200)
            .seed(5)
    };
    let server = Server::start(Handler::Echo, Behaviour::default())?;
    let tcp = server.target("tcp echo")?;
    let noop = Call::new("closure", |i: u64| -> Result<(), String> {
        black_box(i);
        Ok(())
    });
    let bound = opts(1.0).max_send_lag.as_nanos() as f64;
    let mut rows = Vec::new();
    // Highest rate whose send lag stays within the bound at p99 (no warning) and at p95 (the
    // quantile that decides a p50 verdict).
    let mut ceiling_p99 = [0.0f64; 2];
    let mut ceiling_p95 = [0.0f64; 2];
    for (k, name) in ["closure", "tcp"].iter().enumerate() {
        for &rate in &rates {
            let r = if k == 0 {
                service::run(&noop, &opts(rate))?
            } else {
                service::run(&tcp, &opts(rate))?
            };
            let lat_p50 = r.target.percentile(0.5).map_or(f64::NAN, |p| p.value_ns);
            let lag = &r.target.send_lag;
            let complete = r.target.unsent == 0 && r.target.achieved_rate >= 0.99 * rate;
            let p95 = lag.p95_ns;
            let ok99 = complete && lag.p99_ns <= bound;
            let ok95 = complete && p95 <= bound;
            if ok99 && ceiling_p99[k] == rate_before(&rates, rate) {
                ceiling_p99[k] = rate;
            }
            if ok95 {
                ceiling_p95[k] = rate;
            }
            if !json_out {
                println!(
                    "{name:>8} {rate:>7.0}/s: send lag p50 {:>7.1} µs, p95 {:>8.1} µs, p99 {:>8.1} µs; answered {:>7.0}/s; latency p50 {:>6.1} µs",
                    lag.p50_ns / 1e3,
                    p95 / 1e3,
                    lag.p99_ns / 1e3,
                    r.target.achieved_rate,
                    lat_p50 / 1e3,
                );
            }
            rows.push(json!({
                "target": name, "rate": rate,
                "send_lag_p50_ns": lag.p50_ns,
                "send_lag_p95_ns": p95,
                "send_lag_p99_ns": lag.p99_ns,
                "achieved_rate": r.target.achieved_rate,
                "latency_p50_ns": lat_p50,
            }));
            if !ok95 {
                break;
            }
        }
    }
    if json_out {
        println!(
            "{}",
            json!({
                "closure_ceiling_rps_lag_p99": ceiling_p99[0],
                "tcp_ceiling_rps_lag_p99": ceiling_p99[1],
                "closure_ceiling_rps_lag_p95": ceiling_p95[0],
                "tcp_ceiling_rps_lag_p95": ceiling_p95[1],
                "bound_ns": bound,
                "workers": 8,
                "rows": rows,
                "load_average": load_average_json(),
            })
        );
    } else {
        println!(
            "ceiling with 8 workers, highest rate tried whose send lag stays within {:.1} ms \
             at p99 / at p95: closure {:.0}/s / {:.0}/s, tcp {:.0}/s / {:.0}/s; load average {}",
            bound / 1e6,
            ceiling_p99[0],
            ceiling_p95[0],
            ceiling_p99[1],
            ceiling_p95[1],
            load_average()
        );
    }
    Ok(())
}

/// The rate tried before `rate` (0 for the first): a p99 ceiling only counts rates that kept
/// up from the start.
fn rate_before(rates: &[f64], rate: f64) -> f64 {
    let i = rates.iter().position(|&r| r == rate).unwrap_or(0);
    if i == 0 { 0.0 } else { rates[i - 1] }
}

/// Raises this process's scheduling priority (nice −10) before any thread starts, so that the
/// loopback servers and the generator are not starved by other processes' builds on a shared
/// machine; the runner's discipline pins to a CPU for the same reason. Returns the nice value
/// in effect (unchanged, and a note on stderr, without the privilege).
fn raise_priority() -> i32 {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority and getpriority take plain integers and touch no memory; on Linux
    // `who = 0` is the calling thread, whose nice value the threads it starts inherit.
    unsafe {
        if libc::setpriority(libc::PRIO_PROCESS, 0, -10) != 0 {
            eprintln!("note: could not raise the priority (nice −10); measuring at the default");
        }
        libc::getpriority(libc::PRIO_PROCESS, 0)
    }
    #[cfg(not(target_os = "linux"))]
    0
}

/// Pins this thread, and so every thread it starts afterwards (the servers' and the
/// generator's), to the last CPU it may run on, as the runner's discipline pins to one CPU:
/// then both servers and the generator share that CPU's state, whatever the host does to the
/// other. Returns the guard (dropping it restores the affinity) and the CPU, or `None` with a
/// note on stderr where pinning is not possible.
fn pin_to_one_cpu(quiet: bool) -> Option<rtcompare::support::measure::PinGuard> {
    let cpu = *rtcompare::support::measure::current_affinity()?.last()?;
    match rtcompare::support::measure::pin_current_thread(cpu) {
        Ok(g) => {
            if !quiet {
                eprintln!("pinned to CPU {cpu} (--no-pin to leave the scheduler free)");
            }
            Some(g)
        }
        Err(e) => {
            eprintln!("note: not pinned ({e})");
            None
        }
    }
}

fn main() -> Res<ExitCode> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let json_out = args.iter().any(|a| a == "--json");
    let flag = |f: &str| args.iter().any(|a| a == f);
    let comparing = !(flag("--omission") || flag("--ceiling") || flag("--noise"));
    if flag("--selftest") && !flag("--no-nice") {
        let nice = raise_priority();
        if !json_out {
            eprintln!("running at nice {nice}");
        }
    }
    // Comparisons (the default run and the self-test) run pinned to one CPU; the generator's
    // ceiling and the omission demonstration use both.
    let _pin = (comparing && !flag("--no-pin"))
        .then(|| pin_to_one_cpu(json_out))
        .flatten();
    let mode = args
        .iter()
        .find(|a| {
            !matches!(
                a.as_str(),
                "--json" | "--no-nice" | "--no-pin" | "--windows"
            )
        })
        .map(String::as_str);
    match mode {
        None => default_run(json_out)?,
        // A missed bar is a failure a script must see: exit status 1.
        Some("--selftest") => {
            if !selftest(json_out)? {
                return Ok(ExitCode::FAILURE);
            }
        }
        Some("--omission") => omission(json_out)?,
        Some("--ceiling") => ceiling(json_out)?,
        Some("--noise") => noise(json_out)?,
        Some(other) => {
            return Err(format!(
                "unknown argument {other:?}; use --selftest, --omission, --ceiling, --noise, \
                 and --json, --windows, --no-pin, --no-nice"
            )
            .into());
        }
    }
    Ok(ExitCode::SUCCESS)
}
