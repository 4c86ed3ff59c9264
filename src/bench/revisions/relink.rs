//! Making the layouts of a run: each build's captured link command run again with the
//! layout's seed (`link.rs`), ahead of the worker pairs on the CPUs they leave free, or, for a
//! build whose link command could not be captured, cargo's relink (`cargo rustc`, a compile of
//! the bench crate) when a pair needs it.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Instant;

use super::cargo::{How, Target, Tree, build, layout_seed};
use super::link::LinkCommand;
use crate::error::{Error, Result};
use crate::interrupt::InterruptGuard;

/// How one build's layouts are made.
#[derive(Debug, Clone)]
pub(crate) enum Maker {
    /// By running its captured link command.
    Link(LinkCommand),
    /// By cargo's relink.
    Cargo,
}

/// Why layout 0 of a build could not be made as planned.
pub(crate) enum FirstFailure {
    /// The linker refused `--shuffle-sections` (its words).
    NoShuffle(String),
    /// The captured link command did not run again (the linker's words).
    Link(String),
}

/// One link of layout `.0` of build `.1` (0 the baseline, 1 the head).
type Job = (usize, usize);

/// What the linking threads and the run share.
struct Shared {
    state: Mutex<State>,
    changed: Condvar,
    stop: AtomicBool,
}

#[derive(Default)]
struct State {
    queue: VecDeque<Job>,
    started: BTreeSet<Job>,
    done: BTreeMap<Job, std::result::Result<PathBuf, String>>,
    /// Wall time of every link and relink, in seconds.
    seconds: f64,
}

/// The layouts of a run's two builds, made as the worker pairs need them: up to `threads`
/// layouts ahead of the last asked for, each link at the lowest CPU priority (`SCHED_IDLE`,
/// so that it takes only time no worker wants), in a directory of the run's own under the
/// target directory, removed with everything in it when this drops (the threads stopped and
/// their linkers killed first).
pub(crate) struct Relinker<'r> {
    trees: &'r [Tree; 2],
    target: &'r Target,
    makers: [Maker; 2],
    dir: PathBuf,
    seed: u64,
    count: usize,
    ahead: usize,
    shared: Arc<Shared>,
    threads: Vec<JoinHandle<()>>,
    interrupt: &'r InterruptGuard,
}

impl<'r> Relinker<'r> {
    /// A relinker for `count` layouts of the run seeded `seed`, its files in `dir` (created).
    /// Errors: [`Error::Io`] when the directory cannot be created.
    pub(crate) fn new(
        trees: &'r [Tree; 2],
        target: &'r Target,
        makers: [Maker; 2],
        dir: PathBuf,
        seed: u64,
        count: usize,
        interrupt: &'r InterruptGuard,
    ) -> Result<Relinker<'r>> {
        std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
        let cpus = crate::measure::pin::current_affinity().map_or(1, |c| c.len());
        // A CPU for the worker pair and one for rtcompare itself (which mostly waits): links
        // take what is left, and on two CPUs the waiting one's.
        let ahead = if makers.iter().any(|m| matches!(m, Maker::Link(_))) {
            cpus.saturating_sub(1).min(4)
        } else {
            0
        };
        let shared = Arc::new(Shared {
            state: Mutex::new(State::default()),
            changed: Condvar::new(),
            stop: AtomicBool::new(false),
        });
        let mut relinker = Relinker {
            trees,
            target,
            makers,
            dir,
            seed,
            count,
            ahead,
            shared,
            threads: Vec::new(),
            interrupt,
        };
        for n in 0..ahead {
            let (shared, makers) = (relinker.shared.clone(), relinker.makers.clone());
            let (dir, signalled) = (relinker.dir.clone(), interrupt.flag());
            let thread = std::thread::Builder::new()
                .name(format!("rtcompare-link-{n}"))
                .spawn(move || linking_thread(&shared, &makers, &dir, seed, &signalled))
                .map_err(|e| Error::io(Path::new("a linking thread"), e))?;
            relinker.threads.push(thread);
        }
        Ok(relinker)
    }

    /// The run's seed, from which each layout's code-order seed is derived.
    pub(crate) fn seed(&self) -> u64 {
        self.seed
    }

    /// How the build `side` makes its layouts.
    pub(crate) fn maker(&self, side: usize) -> &Maker {
        &self.makers[side]
    }

    /// Makes build `side` relink by cargo from now on (its link command would not run).
    pub(crate) fn use_cargo(&mut self, side: usize) {
        self.makers[side] = Maker::Cargo;
    }

    /// Seconds spent linking and relinking so far, in all threads.
    pub(crate) fn seconds(&self) -> f64 {
        self.state().seconds
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.shared.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The executables of layout `i` of both builds, linked with [`layout_seed`]`(seed, i)`;
    /// the next layouts are queued for the linking threads. Errors:
    /// [`Error::Variant`] with the linker's or cargo's last lines.
    pub(crate) fn layout(&mut self, i: usize) -> Result<(PathBuf, PathBuf)> {
        self.prefetch(i);
        let base = self.one(i, 0)?;
        let head = self.one(i, 1)?;
        Ok((base, head))
    }

    /// Queues the layouts after `i` that the linking threads may make ahead.
    pub(crate) fn prefetch(&self, i: usize) {
        let mut state = self.state();
        for next in (i + 1..self.count).take(self.ahead) {
            for side in 0..2 {
                let job = (next, side);
                let link = matches!(self.makers[side], Maker::Link(_));
                let known = state.started.contains(&job) || state.queue.contains(&job);
                if link && !known && !state.done.contains_key(&job) {
                    state.queue.push_back(job);
                }
            }
        }
        self.shared.changed.notify_all();
    }

    /// Layout `i` of build `side`: taken from the threads, waited for, or made here.
    fn one(&mut self, i: usize, side: usize) -> Result<PathBuf> {
        let failed = |reason: String| Error::Variant { variant: i, reason };
        let Maker::Link(command) = &self.makers[side] else {
            let started = Instant::now();
            let seed = layout_seed(self.seed, i);
            let made = build(
                &self.trees[side],
                self.target,
                How::Relink(seed),
                self.interrupt,
            )
            .map_err(|e| failed(e.to_string()))
            .and_then(|r| r.map_err(|f| failed(f.error.to_string())));
            self.state().seconds += started.elapsed().as_secs_f64();
            return made;
        };
        let job = (i, side);
        let mut state = self.state();
        loop {
            if let Some(made) = state.done.remove(&job) {
                return made.map_err(failed);
            }
            // A thread that ended without its link (it panicked) leaves the link to be made
            // here rather than waited for forever.
            let orphaned = self.threads.iter().all(JoinHandle::is_finished);
            if !state.started.contains(&job) || orphaned {
                break;
            }
            state = self
                .shared
                .changed
                .wait_timeout(state, std::time::Duration::from_millis(100))
                .map_or_else(|e| e.into_inner().0, |r| r.0);
        }
        state.queue.retain(|j| *j != job);
        state.started.insert(job);
        drop(state);
        let started = Instant::now();
        let out = self.output(i, side);
        let seed = layout_seed(self.seed, i);
        let made = command.link(Some(seed), &out, |c| {
            super::child::run(c, "the linker", self.interrupt)
        });
        self.state().seconds += started.elapsed().as_secs_f64();
        made.map(|()| out).map_err(|f| failed(f.text))
    }

    /// Makes layout 0 of build `side` here and now, with a failure the caller decides on:
    /// the linker refusing the shuffle, or a captured command that would not run again.
    /// Errors: cargo's relink failing otherwise, as [`Error::Build`]; [`Error::Cancelled`].
    pub(crate) fn first(
        &mut self,
        side: usize,
    ) -> Result<std::result::Result<PathBuf, FirstFailure>> {
        let started = Instant::now();
        let seed = layout_seed(self.seed, 0);
        let made = match &self.makers[side] {
            Maker::Link(command) => {
                let out = self.output(0, side);
                let linked = command.link(Some(seed), &out, |c| {
                    super::child::run(c, "the linker", self.interrupt)
                });
                match linked {
                    Ok(()) => Ok(out),
                    Err(f) if f.no_shuffle => Err(FirstFailure::NoShuffle(f.text)),
                    Err(f) => Err(FirstFailure::Link(f.text)),
                }
            }
            Maker::Cargo => {
                match build(
                    &self.trees[side],
                    self.target,
                    How::Relink(seed),
                    self.interrupt,
                )? {
                    Ok(exe) => Ok(exe),
                    Err(f) if f.no_shuffle => Err(FirstFailure::NoShuffle(f.error.to_string())),
                    Err(f) => return Err(f.error),
                }
            }
        };
        self.state().seconds += started.elapsed().as_secs_f64();
        Ok(made)
    }

    fn output(&self, i: usize, side: usize) -> PathBuf {
        output(&self.dir, i, side)
    }
}

/// Where layout `i` of build `side` is linked to.
fn output(dir: &Path, i: usize, side: usize) -> PathBuf {
    dir.join(format!("{}-{i}", ["baseline", "head"][side]))
}

/// A linking thread: takes queued links until the relinker drops, each at the lowest CPU
/// priority, stopped at once by a signal or the drop.
fn linking_thread(
    shared: &Shared,
    makers: &[Maker; 2],
    dir: &Path,
    seed: u64,
    signalled: &(dyn Fn() -> bool + Send),
) {
    let stop = || shared.stop.load(Ordering::SeqCst) || signalled();
    loop {
        let job = {
            let mut state = shared.state.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if stop() {
                    return;
                }
                if let Some(job) = state.queue.pop_front() {
                    state.started.insert(job);
                    break job;
                }
                state = shared
                    .changed
                    .wait_timeout(state, std::time::Duration::from_millis(50))
                    .map_or_else(|e| e.into_inner().0, |r| r.0);
            }
        };
        let (i, side) = job;
        let started = Instant::now();
        let made = match &makers[side] {
            Maker::Link(command) => {
                let out = output(dir, i, side);
                command
                    .link(Some(layout_seed(seed, i)), &out, |mut c| {
                        idle(&mut c);
                        super::child::run_until(c, "the linker", &stop)
                    })
                    .map(|()| out)
                    .map_err(|f| f.text)
            }
            Maker::Cargo => Err("relinked by cargo, not here".into()),
        };
        let mut state = shared.state.lock().unwrap_or_else(|e| e.into_inner());
        state.seconds += started.elapsed().as_secs_f64();
        state.done.insert(job, made);
        shared.changed.notify_all();
    }
}

/// Makes `command` run at the lowest CPU priority, where the system has one (`SCHED_IDLE` on
/// Linux): it runs only on a CPU no other process wants.
fn idle(command: &mut std::process::Command) {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: between fork and exec the closure makes one system call on the child's own
        // scheduling, allocating nothing and taking no lock.
        unsafe {
            command.pre_exec(|| {
                let param = libc::sched_param { sched_priority: 0 };
                libc::sched_setscheduler(0, libc::SCHED_IDLE, &param);
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = command;
}

impl Drop for Relinker<'_> {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        self.shared.changed.notify_all();
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
