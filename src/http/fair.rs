//! [`FairQueue`]: the solver threads and the one queue they serve, shared fairly between
//! clients.
//!
//! Each client has two lanes, one for single jobs and one for batch chunks, and the threads
//! take jobs lane by lane in turn (round-robin over every lane with work). So a client that
//! floods the service with batches gets its turn like everyone else, and another client's
//! single solve waits for at most one job per busy lane, never for a whole flood; a lone
//! client still gets every thread. Within a lane jobs run in order.
//!
//! Written here rather than taken from rayon (the pool used before): rayon's queues are
//! per-thread FIFOs with stealing, which is fast but knows nothing of who submitted a job.
//! What rayon gave that mattered is kept: a thread that runs out of work spins briefly before
//! it sleeps, so a busy service hands jobs over without a wake-up per job (measured in
//! BENCHMARKS.md).

use std::collections::{HashMap, HashSet, VecDeque};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::client::Client;

/// A job: anything to run once on a solver thread.
pub type Job = Box<dyn FnOnce() + Send>;

/// Which of a client's lanes a job goes in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lane {
    /// Single requests (a solve, a hint, a grade).
    Single,
    /// Chunks of batches.
    Batch,
    /// Generations: seconds of work each. A client runs at most one at a time (the rest wait
    /// in this lane), and all clients together leave one thread free for everything else
    /// (when there are two or more), so a loop of generations never takes every core.
    Generate,
}

/// How long an idle thread keeps looking for work before it sleeps.
const SPIN: Duration = Duration::from_micros(50);

#[derive(Default)]
struct Lanes {
    /// Jobs waiting, by lane.
    waiting: HashMap<(Client, Lane), VecDeque<Job>>,
    /// The lanes with waiting jobs, in the order they get their next turn.
    turns: VecDeque<(Client, Lane)>,
    /// The clients with a generation running.
    generating: HashSet<Client>,
    /// Generations that may run at once, all clients together.
    generation_cap: usize,
    stopping: bool,
}

/// A job taken from the lanes, and the client whose generation it is (to be marked finished
/// when it ends).
type Taken = (Job, Option<Client>);

impl Lanes {
    fn new(generation_cap: usize) -> Lanes {
        Lanes {
            generation_cap: generation_cap.max(1),
            ..Lanes::default()
        }
    }

    /// Queues `job` at the end of `lane`; a lane that was empty gets a turn at the end.
    fn push(&mut self, lane: (Client, Lane), job: Job) {
        let queue = self.waiting.entry(lane).or_default();
        if queue.is_empty() {
            self.turns.push_back(lane);
        }
        queue.push_back(job);
    }

    /// Whether the next job of `lane` may start now: a generation only when its client has
    /// none running and the generations together are below their cap.
    fn may_start(&self, (client, lane): (Client, Lane)) -> bool {
        lane != Lane::Generate
            || (!self.generating.contains(&client) && self.generating.len() < self.generation_cap)
    }

    /// The next job that may start, lane by lane in turn (a generation lane that must wait
    /// keeps its place in the turns).
    fn next(&mut self) -> Option<Taken> {
        let at = self.turns.iter().position(|&lane| self.may_start(lane))?;
        let lane = self.turns.remove(at)?;
        let queue = self.waiting.get_mut(&lane)?;
        let job = queue.pop_front()?;
        if queue.is_empty() {
            self.waiting.remove(&lane);
        } else {
            self.turns.push_back(lane);
        }
        let generation = (lane.1 == Lane::Generate).then_some(lane.0);
        if let Some(client) = generation {
            self.generating.insert(client);
        }
        Some((job, generation))
    }

    /// `client`'s generation ended: its lane (and the cap) may start another.
    fn generation_done(&mut self, client: Client) {
        self.generating.remove(&client);
    }
}

struct Shared {
    lanes: Mutex<Lanes>,
    wake: Condvar,
    /// Jobs waiting, readable without the lock (for spinning threads).
    waiting: AtomicUsize,
    /// Threads asleep on `wake`.
    sleeping: AtomicUsize,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Lanes> {
        // A job never runs under the lock, so a poisoned lock only means a thread died
        // between two queue operations; the queue itself is consistent.
        self.lanes
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// See the module docs.
pub struct FairQueue {
    shared: Arc<Shared>,
    threads: Vec<JoinHandle<()>>,
}

impl std::fmt::Debug for FairQueue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FairQueue")
            .field("threads", &self.threads.len())
            .finish_non_exhaustive()
    }
}

impl FairQueue {
    /// Starts `threads` solver threads (at least one). Generations may use all but one of
    /// them (one, with a single thread).
    pub fn new(threads: usize) -> std::io::Result<FairQueue> {
        let threads = threads.max(1);
        let shared = Arc::new(Shared {
            lanes: Mutex::new(Lanes::new(threads - 1)),
            wake: Condvar::new(),
            waiting: AtomicUsize::new(0),
            sleeping: AtomicUsize::new(0),
        });
        let threads = (0..threads)
            .map(|i| {
                let shared = Arc::clone(&shared);
                std::thread::Builder::new()
                    .name(format!("solver-{i}"))
                    .spawn(move || work(&shared))
            })
            .collect::<std::io::Result<Vec<_>>>()?;
        Ok(FairQueue { shared, threads })
    }

    /// Queues `job` in `client`'s `lane`.
    pub fn push(&self, client: Client, lane: Lane, job: Job) {
        self.shared.lock().push((client, lane), job);
        self.shared.waiting.fetch_add(1, Ordering::SeqCst);
        if self.shared.sleeping.load(Ordering::SeqCst) > 0 {
            self.shared.wake.notify_one();
        }
    }
}

impl Drop for FairQueue {
    fn drop(&mut self) {
        self.shared.lock().stopping = true;
        self.shared.wake.notify_all();
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// A solver thread: take the next job in turn, run it, repeat; spin a little, then sleep,
/// when there is none.
fn work(shared: &Shared) {
    loop {
        let job = {
            let spin_until = Instant::now() + SPIN;
            while shared.waiting.load(Ordering::SeqCst) == 0 && Instant::now() < spin_until {
                std::hint::spin_loop();
            }
            let mut lanes = shared.lock();
            loop {
                if let Some(taken) = lanes.next() {
                    shared.waiting.fetch_sub(1, Ordering::SeqCst);
                    break taken;
                }
                if lanes.stopping {
                    return;
                }
                shared.sleeping.fetch_add(1, Ordering::SeqCst);
                lanes = shared
                    .wake
                    .wait(lanes)
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
                shared.sleeping.fetch_sub(1, Ordering::SeqCst);
            }
        };
        let (job, generation) = job;
        // A panicking job must not take the thread with it; its requester sees its reply
        // dropped (a 500).
        if catch_unwind(AssertUnwindSafe(job)).is_err() {
            tracing::error!("a solver job panicked");
        }
        if let Some(client) = generation {
            shared.lock().generation_done(client);
            // A generation that had to wait may start now, on any sleeping thread.
            if shared.sleeping.load(Ordering::SeqCst) > 0 {
                shared.wake.notify_all();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::{IpAddr, Ipv4Addr};
    use std::sync::mpsc;

    fn client(n: u8) -> Client {
        Client(IpAddr::V4(Ipv4Addr::new(10, 0, 0, n)))
    }

    #[test]
    fn lanes_take_turns_and_keep_their_own_order() {
        let mut lanes = Lanes::new(1);
        let (tx, rx) = mpsc::channel();
        let push = |lanes: &mut Lanes, key: (Client, Lane), label: &'static str| {
            let tx = tx.clone();
            lanes.push(key, Box::new(move || tx.send(label).unwrap()));
        };
        // A flood from client 1, then one job each from client 2 and client 1's other lane.
        for label in ["a1", "a2", "a3"] {
            push(&mut lanes, (client(1), Lane::Batch), label);
        }
        push(&mut lanes, (client(2), Lane::Single), "b1");
        push(&mut lanes, (client(1), Lane::Single), "c1");
        while let Some((job, _)) = lanes.next() {
            job();
        }
        let order: Vec<&str> = rx.try_iter().collect();
        assert_eq!(order, ["a1", "b1", "c1", "a2", "a3"]);
        assert!(lanes.waiting.is_empty() && lanes.turns.is_empty());
    }

    #[test]
    fn a_client_runs_one_generation_at_a_time_and_all_leave_room_for_solves() {
        // Two generation places in all: client 1's second generation waits for its first,
        // while client 2's starts, and a third client's waits for the cap; solves go by.
        let mut lanes = Lanes::new(2);
        let job = || -> Job { Box::new(|| ()) };
        lanes.push((client(1), Lane::Generate), job());
        lanes.push((client(1), Lane::Generate), job());
        lanes.push((client(2), Lane::Generate), job());
        lanes.push((client(3), Lane::Generate), job());
        lanes.push((client(4), Lane::Single), job());
        let mut started = Vec::new();
        while let Some((_, generation)) = lanes.next() {
            started.push(generation);
        }
        assert_eq!(started, [Some(client(1)), Some(client(2)), None]);
        assert_eq!(
            lanes.waiting.len(),
            2,
            "client 1's second and client 3's wait"
        );
        lanes.generation_done(client(1));
        let (_, next) = lanes.next().unwrap();
        assert_eq!(
            next,
            Some(client(3)),
            "client 3 has waited its turn longest"
        );
        assert!(lanes.next().is_none(), "the cap is reached again");
        lanes.generation_done(client(2));
        assert_eq!(lanes.next().unwrap().1, Some(client(1)));
        assert!(lanes.next().is_none() && lanes.turns.is_empty());
    }

    #[test]
    fn a_waiting_generation_starts_on_a_thread_when_the_running_one_ends() {
        let queue = FairQueue::new(2).unwrap();
        let (release, held) = mpsc::channel::<()>();
        let (tx, rx) = mpsc::channel();
        let started = tx.clone();
        queue.push(
            client(1),
            Lane::Generate,
            Box::new(move || {
                started.send("first").unwrap();
                held.recv_timeout(Duration::from_secs(60)).unwrap();
            }),
        );
        let second = tx.clone();
        queue.push(
            client(1),
            Lane::Generate,
            Box::new(move || second.send("second").unwrap()),
        );
        queue.push(
            client(2),
            Lane::Single,
            Box::new(move || tx.send("solve").unwrap()),
        );
        fn wait(rx: &mpsc::Receiver<&'static str>) -> &'static str {
            rx.recv_timeout(Duration::from_secs(60)).unwrap()
        }
        assert_eq!(wait(&rx), "first");
        assert_eq!(wait(&rx), "solve", "the other thread serves the solve");
        // The free thread takes the next job in turn: were the second generation allowed, it
        // would come (its lane's turn is first) before this later solve.
        let (probe_tx, probe) = mpsc::channel();
        queue.push(
            client(3),
            Lane::Single,
            Box::new(move || probe_tx.send("probe").unwrap()),
        );
        assert_eq!(wait(&probe), "probe");
        assert!(
            rx.try_recv().is_err(),
            "the client's second generation waits for its first"
        );
        release.send(()).unwrap();
        assert_eq!(wait(&rx), "second");
    }

    #[test]
    fn jobs_run_on_the_threads_and_a_panic_spares_the_thread() {
        let queue = FairQueue::new(1).unwrap();
        queue.push(client(1), Lane::Single, Box::new(|| panic!("a bug")));
        let (tx, rx) = mpsc::channel();
        for n in 0..3 {
            let tx = tx.clone();
            queue.push(
                client(2),
                Lane::Single,
                Box::new(move || tx.send(n).unwrap()),
            );
        }
        let got: Vec<i32> = (0..3)
            .map(|_| rx.recv_timeout(Duration::from_secs(10)).unwrap())
            .collect();
        assert_eq!(got, [0, 1, 2]);
    }
}
