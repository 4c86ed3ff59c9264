//! What a load is sent to: an in-process closure ([`Call`]) or a server on this machine
//! ([`Tcp`]), both behind the [`Target`] trait.

use std::io::{self, BufRead, BufReader, ErrorKind, Write};
use std::net::{IpAddr, SocketAddr, TcpStream, ToSocketAddrs, UdpSocket};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

use crate::{Error, Result};

/// How one request ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RequestOutcome {
    /// A complete response arrived (or the closure returned `Ok`).
    Ok,
    /// The request failed: the message says how. Counted, never dropped.
    Error(String),
    /// No complete response within the per-request timeout. Counted, and its latency (a lower
    /// bound of the real one) is recorded.
    TimedOut,
}

/// Something a load generator sends requests to.
///
/// Each worker thread makes its own [`Worker`](Target::Worker) state (a connection, say) on
/// its own thread, so the state need not be `Send`; the target itself is shared between the
/// workers and must be `Sync`.
pub trait Target: Sync {
    /// Per-worker state.
    type Worker;
    /// The name shown in reports.
    fn name(&self) -> &str;
    /// Fresh state for one worker thread. Must not block for long: it is made before the
    /// first request of the worker.
    fn worker(&self) -> Self::Worker;
    /// Sends request number `request` and waits for its response for at most `timeout`.
    fn call(&self, worker: &mut Self::Worker, request: u64, timeout: Duration) -> RequestOutcome;
}

/// A closure as a target: `f(i)` is request `i`, an in-process service call. `Err(e)` counts
/// as an error with `e`'s message; a panic is caught and counted as an error too.
///
/// ```
/// use rtcompare_service::{Call, RequestOutcome, Target};
/// use std::time::Duration;
/// let t = Call::new("double", |i: u64| -> Result<(), String> {
///     std::hint::black_box(i * 2);
///     Ok(())
/// });
/// assert_eq!(t.call(&mut (), 3, Duration::from_secs(1)), RequestOutcome::Ok);
/// ```
pub struct Call<F> {
    name: String,
    f: F,
}

impl<F, E> Call<F>
where
    F: Fn(u64) -> std::result::Result<(), E> + Sync,
    E: std::fmt::Display,
{
    /// A target named `name` that runs `f(i)` for request `i`.
    pub fn new(name: impl Into<String>, f: F) -> Self {
        Call {
            name: name.into(),
            f,
        }
    }
}

impl<F> std::fmt::Debug for Call<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Call").field("name", &self.name).finish()
    }
}

impl<F, E> Target for Call<F>
where
    F: Fn(u64) -> std::result::Result<(), E> + Sync,
    E: std::fmt::Display,
{
    type Worker = ();

    fn name(&self) -> &str {
        &self.name
    }

    fn worker(&self) {}

    fn call(&self, _: &mut (), request: u64, _timeout: Duration) -> RequestOutcome {
        match catch_unwind(AssertUnwindSafe(|| (self.f)(request))) {
            Ok(Ok(())) => RequestOutcome::Ok,
            Ok(Err(e)) => RequestOutcome::Error(e.to_string()),
            Err(payload) => {
                let msg = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "non-string panic payload".into());
                RequestOutcome::Error(format!("panicked: {msg}"))
            }
        }
    }
}

/// Where a response ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// The response ends with this byte (for example `b'\n'`), included.
    Delimiter(u8),
    /// The response is exactly this many bytes (at least 1).
    Length(usize),
}

/// A request/response exchange with a TCP server on this machine: each request writes the
/// same bytes and reads one response framed by a delimiter or a length. Each worker keeps its
/// own connection, opened on its first request (the warm-up pays for it) and opened again
/// after an error or a timeout.
///
/// Only loopback addresses and this machine's own addresses are accepted
/// ([`is_local_address`]); anything else is [`Error::NotLocal`].
///
/// ```no_run
/// use rtcompare_service::{Framing, Tcp};
/// let t = Tcp::new("echo", "127.0.0.1:7000", b"ping\n".to_vec(), Framing::Delimiter(b'\n'))?;
/// # Ok::<(), rtcompare_service::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Tcp {
    name: String,
    addr: SocketAddr,
    request: Vec<u8>,
    framing: Framing,
}

impl Tcp {
    /// A target that sends `request` to `addr` and reads a response framed by `framing`.
    ///
    /// Errors: [`Error::NotLocal`] if the address (every one it resolves to) is not this
    /// machine's; [`Error::InvalidOption`] if it does not resolve or `Framing::Length(0)`.
    /// Nothing is connected here.
    pub fn new(
        name: impl Into<String>,
        addr: impl ToSocketAddrs + std::fmt::Debug,
        request: impl Into<Vec<u8>>,
        framing: Framing,
    ) -> Result<Tcp> {
        let shown = format!("{addr:?}");
        let addrs: Vec<SocketAddr> = addr
            .to_socket_addrs()
            .map_err(|e| Error::invalid_option("address", format!("{shown}: {e}")))?
            .collect();
        let Some(&first) = addrs.first() else {
            return Err(Error::invalid_option(
                "address",
                format!("{shown} resolves to no address"),
            ));
        };
        if let Some(bad) = addrs.iter().find(|a| !is_local_address(a.ip())) {
            return Err(Error::NotLocal {
                address: bad.to_string(),
            });
        }
        if framing == Framing::Length(0) {
            return Err(Error::invalid_option(
                "framing",
                "a response length of 0 bytes reads nothing; give at least 1",
            ));
        }
        Ok(Tcp {
            name: name.into(),
            addr: first,
            request: request.into(),
            framing,
        })
    }

    /// The server's address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    fn exchange(&self, conn: &mut Conn, timeout: Duration) -> io::Result<()> {
        let deadline = Instant::now() + timeout;
        let left = |what: &str| {
            deadline
                .checked_duration_since(Instant::now())
                .filter(|d| !d.is_zero())
                .ok_or_else(|| io::Error::new(ErrorKind::TimedOut, what.to_string()))
        };
        let stream = conn.reader.get_mut();
        stream.set_write_timeout(Some(left("write")?))?;
        stream.write_all(&self.request)?;
        conn.response.clear();
        match self.framing {
            Framing::Delimiter(d) => loop {
                conn.reader
                    .get_ref()
                    .set_read_timeout(Some(left("read")?))?;
                let buf = conn.reader.fill_buf()?;
                if buf.is_empty() {
                    return Err(closed(conn.response.len()));
                }
                if let Some(pos) = buf.iter().position(|&b| b == d) {
                    conn.response.extend_from_slice(&buf[..=pos]);
                    conn.reader.consume(pos + 1);
                    return Ok(());
                }
                let n = buf.len();
                conn.response.extend_from_slice(buf);
                conn.reader.consume(n);
            },
            Framing::Length(want) => {
                while conn.response.len() < want {
                    conn.reader
                        .get_ref()
                        .set_read_timeout(Some(left("read")?))?;
                    let buf = conn.reader.fill_buf()?;
                    if buf.is_empty() {
                        return Err(closed(conn.response.len()));
                    }
                    let n = buf.len().min(want - conn.response.len());
                    conn.response.extend_from_slice(&buf[..n]);
                    conn.reader.consume(n);
                }
                Ok(())
            }
        }
    }
}

fn closed(got: usize) -> io::Error {
    io::Error::new(
        ErrorKind::UnexpectedEof,
        format!("the server closed the connection after {got} bytes of the response"),
    )
}

/// One worker's connection to a [`Tcp`] target.
#[derive(Debug)]
pub struct Conn {
    reader: BufReader<TcpStream>,
    response: Vec<u8>,
}

impl Target for Tcp {
    type Worker = Option<Conn>;

    fn name(&self) -> &str {
        &self.name
    }

    fn worker(&self) -> Option<Conn> {
        None
    }

    fn call(&self, worker: &mut Option<Conn>, _request: u64, timeout: Duration) -> RequestOutcome {
        if worker.is_none() {
            match TcpStream::connect_timeout(&self.addr, timeout) {
                Ok(s) => {
                    let _ = s.set_nodelay(true);
                    *worker = Some(Conn {
                        reader: BufReader::with_capacity(16 * 1024, s),
                        response: Vec::new(),
                    });
                }
                Err(e) => return io_outcome(&e, "connect"),
            }
        }
        let conn = worker.as_mut().expect("connected above");
        match self.exchange(conn, timeout) {
            Ok(()) => RequestOutcome::Ok,
            Err(e) => {
                // The connection may hold half a response: start afresh next time.
                *worker = None;
                io_outcome(&e, "exchange")
            }
        }
    }
}

fn io_outcome(e: &io::Error, stage: &str) -> RequestOutcome {
    match e.kind() {
        ErrorKind::TimedOut | ErrorKind::WouldBlock => RequestOutcome::TimedOut,
        _ => RequestOutcome::Error(format!("{stage}: {e}")),
    }
}

/// Whether `ip` is a loopback address or one assigned to this machine: the addresses a load
/// may be sent to. Decided without sending anything: loopback addresses are accepted at once,
/// the unspecified and multicast addresses refused, and any other address is accepted only if
/// a UDP socket can be bound to it (which the system allows only for its own addresses).
///
/// ```
/// use rtcompare_service::is_local_address;
/// assert!(is_local_address("127.0.0.1".parse().unwrap()));
/// assert!(!is_local_address("192.0.2.1".parse().unwrap())); // TEST-NET-1, nobody's
/// ```
pub fn is_local_address(ip: IpAddr) -> bool {
    if ip.is_loopback() {
        return true;
    }
    if ip.is_unspecified() || ip.is_multicast() {
        return false;
    }
    if let IpAddr::V4(v4) = ip
        && v4.is_broadcast()
    {
        return false;
    }
    UdpSocket::bind(SocketAddr::new(ip, 0)).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_local_addresses_are_accepted() {
        assert!(is_local_address("127.0.0.1".parse().unwrap()));
        assert!(is_local_address("127.3.4.5".parse().unwrap()));
        assert!(is_local_address("::1".parse().unwrap()));
        for bad in [
            "0.0.0.0",
            "8.8.8.8",
            "192.0.2.1",
            "255.255.255.255",
            "224.0.0.1",
        ] {
            assert!(!is_local_address(bad.parse().unwrap()), "{bad}");
        }
        let e = Tcp::new("x", "8.8.8.8:53", b"x".to_vec(), Framing::Length(1)).unwrap_err();
        assert!(matches!(e, Error::NotLocal { .. }), "{e}");
        assert!(e.to_string().contains("8.8.8.8:53"));
        assert!(Tcp::new("x", "127.0.0.1:9", b"x".to_vec(), Framing::Length(1)).is_ok());
        assert!(matches!(
            Tcp::new("x", "127.0.0.1:9", b"x".to_vec(), Framing::Length(0)),
            Err(Error::InvalidOption { .. })
        ));
    }

    #[test]
    fn a_closure_error_and_panic_are_outcomes() {
        let t = Call::new("t", |i: u64| {
            if i == 1 {
                Err("bad request")
            } else if i == 2 {
                panic!("boom")
            } else {
                Ok(())
            }
        });
        let d = Duration::from_secs(1);
        assert_eq!(t.call(&mut (), 0, d), RequestOutcome::Ok);
        assert_eq!(
            t.call(&mut (), 1, d),
            RequestOutcome::Error("bad request".into())
        );
        assert!(matches!(t.call(&mut (), 2, d), RequestOutcome::Error(m) if m.contains("boom")));
    }
}
