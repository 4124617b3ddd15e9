//! Bounded CPU work: engine jobs run on the dedicated solver threads of a [`FairQueue`], one
//! thread per solver slot, shared fairly between clients; on the async workers only a capped
//! first attempt (below).
//!
//! # Bounds
//! * **Admission**: each client may hold `slots + queue` places (running or waiting), and all
//!   clients together [`CLIENT_SHARES`] times that; a request beyond either is refused at once
//!   with 503 + `Retry-After` instead of piling up. One client's worth of places is kept for
//!   clients that hold none, so however many addresses flood the pool, a newcomer still gets
//!   in. The place moves into the job and is released when the job ends on the CPU.
//! * **Generations** (seconds of work each) go in their client's own lane: one at a time per
//!   client, and never on every thread at once (see [`Lane::Generate`]), so a client looping
//!   generations slows nobody else's solves.
//! * **Fairness**: the solver threads take jobs lane by lane in turn (each client has a lane
//!   for single jobs and one for batch chunks; see [`FairQueue`]). A batch is queued as
//!   chunks of [`BATCH_CHUNK`] puzzles, so it shares the threads with everyone's single
//!   solves instead of taking them all.
//! * **Work and time**: every job gets a [`Budget`] of the configured work units, a deadline
//!   at the request's time limit, and a [`Cancel`] flag raised when the request's future is
//!   dropped (the time limit passed in the middleware, or the client went away). A running
//!   job then stops within a fraction of a millisecond, a queued one never starts, and the
//!   place is free again.
//! * **Counting**: a job whose budget ran out of work is counted here, once, whatever the
//!   endpoint made of it (an error, or a hint that says "undecided").
//!
//! The one exception to "CPU work on the solver threads" is
//! [`SolvePool::run_inline_first`]: a job is first tried on the request's own async worker
//! with the inline work budget (default 32 units: a few microseconds), and only a job that
//! needs more goes to the solver threads, from scratch, with the full budget. Most real
//! puzzles need no guess at all, and for them the hand-off to another thread and back cost
//! more than the solve (measured in BENCHMARKS.md). The bound that keeps the runtime
//! responsive still holds: no request spends more than the inline budget on a worker.
//!
//! The pool knows nothing of Sudoku: it hands jobs an [`Engine`] (one per thread, reused) and a
//! budget, and the engine decides what runs.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::oneshot;
use tracing::Span;

use super::client::Client;
use super::fair::{FairQueue, Lane};
use super::metrics::{Gauge, Metrics};
use super::problem::Problem;
use crate::engine::{Budget, Cancel, Engine, Stop};

/// How many clients' worth of places the pool has in all: a client may hold `slots + queue`
/// places, all clients together this many times that.
pub const CLIENT_SHARES: usize = 4;

/// Puzzles per job when a batch is queued: small enough that another client's job waits for
/// at most a few milliseconds of batch work, large enough that queueing costs nothing.
pub const BATCH_CHUNK: usize = 16;

/// How far ahead of its request's time limit a generation or a batch stops (at least; a
/// tenth of the limit when that is more): time to answer with what it has ("nothing found in
/// time", the items solved so far) before the request itself times out.
pub const GENERATION_MARGIN: Duration = Duration::from_millis(500);

/// Why the pool did not run a job.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PoolError {
    /// Every place this client may hold (or every place there is) is taken.
    #[error("all solver slots and queue places are taken")]
    Overloaded { retry_after_secs: u64 },
    /// The job panicked (a bug); it was contained.
    #[error("a solver job failed")]
    Crashed,
}

impl From<PoolError> for Problem {
    fn from(err: PoolError) -> Problem {
        match err {
            PoolError::Overloaded { retry_after_secs } => Problem::Overloaded { retry_after_secs },
            PoolError::Crashed => Problem::Internal,
        }
    }
}

/// What every job may spend.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Work units per job (per item, in a batch).
    pub work: u64,
    /// Work units per generation job ([`SolvePool::run_generation`]).
    pub generate_work: u64,
    /// Work a job may spend on the request's own async worker before it is handed over.
    pub inline_work: u64,
    /// The request's time limit: a job's deadline is this long after it was submitted.
    pub time: Duration,
}

/// The places of the pool, by client.
#[derive(Debug)]
struct Places {
    per_client: usize,
    total: usize,
    /// Places only a client that holds none may take: however many clients flood the pool,
    /// a newcomer still gets in.
    reserve: usize,
    held: Mutex<(usize, HashMap<Client, usize>)>,
}

impl Places {
    fn take(&self, client: Client) -> bool {
        let Ok(mut held) = self.held.lock() else {
            return false;
        };
        let (all, by_client) = &mut *held;
        let mine = by_client.entry(client).or_insert(0);
        let open = if *mine == 0 {
            self.total
        } else {
            self.total - self.reserve
        };
        if *all >= open || *mine >= self.per_client {
            if *mine == 0 {
                by_client.remove(&client);
            }
            return false;
        }
        *mine += 1;
        *all += 1;
        true
    }

    fn give_back(&self, client: Client) {
        if let Ok(mut held) = self.held.lock() {
            let (all, by_client) = &mut *held;
            *all -= 1;
            if let Some(mine) = by_client.get_mut(&client) {
                *mine -= 1;
                if *mine == 0 {
                    by_client.remove(&client);
                }
            }
        }
    }
}

/// The solver pool: how many jobs run at once, how many may wait, and what each may spend.
#[derive(Debug, Clone)]
pub struct SolvePool {
    queue: Arc<FairQueue>,
    places: Arc<Places>,
    limits: Limits,
    metrics: Arc<Metrics>,
}

/// A client's place in the pool (running or queued). Cloned into every job it covers and
/// released when the last clone is dropped, which for a job is when it has finished on the
/// CPU.
#[derive(Debug, Clone)]
pub struct Admission(Arc<Held>);

#[derive(Debug)]
struct Held {
    places: Arc<Places>,
    client: Client,
}

impl Drop for Held {
    fn drop(&mut self) {
        self.places.give_back(self.client);
    }
}

impl Admission {
    /// The client this place belongs to.
    pub fn client(&self) -> Client {
        self.0.client
    }
}

/// Raises its cancel flag when dropped: held by the future that waits for a job, so that
/// dropping the future (time limit, client gone) stops the job.
struct CancelOnDrop(Cancel);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// When a job must stop, counted from its submission.
#[derive(Debug, Clone, Copy)]
enum Due {
    /// At the request's time limit.
    TimeLimit,
    /// At [`SolvePool::answer_by`], to answer with what it has before the time limit.
    AnswerBy,
    /// At `answer_by` or at this instant, whichever comes first.
    By(Instant),
}

/// What a job returned, and how long it ran on the CPU.
#[derive(Debug)]
pub struct Timed<T> {
    pub value: T,
    pub elapsed: Duration,
}

thread_local! {
    /// One engine per thread that runs jobs (solver threads, and async workers for inline
    /// attempts), reused: its solvers' scratch space is allocated once.
    static ENGINE: std::cell::RefCell<Engine> = std::cell::RefCell::new(Engine::new());
}

/// Runs `job` with this thread's engine.
fn with_engine<T>(job: impl FnOnce(&mut Engine) -> T) -> T {
    ENGINE.with_borrow_mut(job)
}

impl SolvePool {
    /// `slots` solver threads (at least 1), `queue` more jobs waiting per client, `limits`
    /// per job.
    pub fn new(
        slots: usize,
        queue: usize,
        limits: Limits,
        metrics: Arc<Metrics>,
    ) -> std::io::Result<SolvePool> {
        let slots = slots.max(1);
        let per_client = slots + queue;
        Ok(SolvePool {
            queue: Arc::new(FairQueue::new(slots)?),
            places: Arc::new(Places {
                per_client,
                total: per_client * CLIENT_SHARES,
                reserve: per_client,
                held: Mutex::new((0, HashMap::new())),
            }),
            limits: Limits {
                inline_work: limits.inline_work.min(limits.work),
                ..limits
            },
            metrics,
        })
    }

    /// Counts a job (or batch item) whose budget ran out of work.
    fn note(&self, budget: &Budget) {
        if budget.stopped() == Some(Stop::Work) {
            self.metrics.count_budget_exhausted();
        }
    }

    /// Runs `job` within the inline work budget right here; when that is not enough, again
    /// on the solver threads with the full budget (see the module docs for why).
    pub async fn run_inline_first<T, F>(
        &self,
        client: Client,
        job: F,
    ) -> Result<Timed<T>, PoolError>
    where
        F: Fn(&mut Engine, &Budget) -> T + Send + 'static,
        T: Send + 'static,
    {
        if self.limits.inline_work > 0 {
            let started = Instant::now();
            let budget = Budget::work(self.limits.inline_work);
            // A panic here would unwind through the connection; on the solver threads it is
            // caught and becomes a 500, so it does here too.
            let value = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                with_engine(|engine| job(engine, &budget))
            }))
            .map_err(|_| {
                tracing::error!("an inline job panicked");
                PoolError::Crashed
            })?;
            let elapsed = started.elapsed();
            let enough = budget.stopped().is_none();
            // A job that ran out goes to the solver threads, unless the inline budget was the
            // whole budget: they would only repeat it.
            if enough || self.limits.inline_work == self.limits.work {
                if enough {
                    self.metrics.observe_inline_solve(elapsed);
                } else {
                    self.note(&budget);
                }
                return Ok(Timed { value, elapsed });
            }
        }
        self.run(client, job).await
    }

    /// Takes one of `client`'s places (running or waiting), or refuses at once when it has
    /// none left or the pool is full.
    pub fn admit(&self, client: Client) -> Result<Admission, PoolError> {
        if self.places.take(client) {
            Ok(Admission(Arc::new(Held {
                places: Arc::clone(&self.places),
                client,
            })))
        } else {
            self.metrics.count_rejected();
            Err(PoolError::Overloaded {
                retry_after_secs: 1,
            })
        }
    }

    /// Runs `job` with an engine and the full budget on the solver threads, or refuses at
    /// once when `client` has no place left.
    pub async fn run<T, F>(&self, client: Client, job: F) -> Result<Timed<T>, PoolError>
    where
        F: FnOnce(&mut Engine, &Budget) -> T + Send + 'static,
        T: Send + 'static,
    {
        self.run_in(Lane::Single, client, self.limits.work, Due::TimeLimit, job)
            .await
    }

    /// [`run`](SolvePool::run) for a generation: the generation work budget, the client's
    /// generation lane (one running at a time per client, and never every thread), and a
    /// deadline [`GENERATION_MARGIN`] ahead of the request's, so that a search that runs long
    /// ends with the generator's own answer (nothing found in time) before the request times
    /// out; never past `by` either, when given (a stream's end, so that its last puzzle stops
    /// with it).
    pub async fn run_generation<T, F>(
        &self,
        client: Client,
        by: Option<Instant>,
        job: F,
    ) -> Result<Timed<T>, PoolError>
    where
        F: FnOnce(&mut Engine, &Budget) -> T + Send + 'static,
        T: Send + 'static,
    {
        let due = by.map_or(Due::AnswerBy, Due::By);
        self.run_in(Lane::Generate, client, self.limits.generate_work, due, job)
            .await
    }

    /// Runs `job` in `client`'s `lane` with `work` units and the deadline `due` says.
    async fn run_in<T, F>(
        &self,
        lane: Lane,
        client: Client,
        work: u64,
        due: Due,
        job: F,
    ) -> Result<Timed<T>, PoolError>
    where
        F: FnOnce(&mut Engine, &Budget) -> T + Send + 'static,
        T: Send + 'static,
    {
        let admission = self.admit(client)?;
        let pool = self.clone();
        let submitted = Instant::now();
        let cancel = Cancel::new();
        let _cancel_on_drop = CancelOnDrop(cancel.clone());
        self.spawn(lane, admission, &cancel, move |cancel| {
            let deadline = match due {
                Due::TimeLimit => submitted + pool.limits.time,
                Due::AnswerBy => pool.answer_by(submitted),
                Due::By(by) => pool.answer_by(submitted).min(by),
            };
            let budget = Budget::work(work)
                .with_deadline(deadline)
                .with_cancel(cancel.clone());
            let value = with_engine(|engine| job(engine, &budget));
            pool.note(&budget);
            value
        })
        .await
    }

    /// Runs `job` for every item on the solver threads, queued in chunks of [`BATCH_CHUNK`]
    /// in the client's batch lane (each item with its own full budget), under an admission
    /// already taken, and returns the answers in input order: `None` for the items not
    /// answered by `deadline` (then the rest stop, and queued chunks never start). Items see
    /// the deadline in their budgets too, so a chunk under way stops at it. When the future
    /// is dropped, the remaining items stop the way single jobs do.
    pub async fn run_batch<I, T, F>(
        &self,
        admission: &Admission,
        items: Vec<I>,
        deadline: Instant,
        job: F,
    ) -> Result<Timed<Vec<Option<T>>>, PoolError>
    where
        I: Send + Sync + 'static,
        T: Send + 'static,
        F: Fn(&mut Engine, &Budget, &I) -> T + Send + Sync + 'static,
    {
        let cancel = Cancel::new();
        let _cancel_on_drop = CancelOnDrop(cancel.clone());
        let job = Arc::new(job);
        let mut chunks = Vec::new();
        let count = items.len();
        let mut items = items.into_iter();
        loop {
            let chunk: Vec<I> = items.by_ref().take(BATCH_CHUNK).collect();
            if chunk.is_empty() {
                break;
            }
            let (pool, job) = (self.clone(), Arc::clone(&job));
            chunks.push(
                self.spawn(Lane::Batch, admission.clone(), &cancel, move |cancel| {
                    chunk
                        .iter()
                        .map(|item| {
                            let budget = Budget::work(pool.limits.work)
                                .with_deadline(deadline)
                                .with_cancel(cancel.clone());
                            let value = with_engine(|engine| job(engine, &budget, item));
                            pool.note(&budget);
                            value
                        })
                        .collect::<Vec<T>>()
                }),
            );
        }
        let mut value = Vec::with_capacity(count);
        let mut elapsed = Duration::ZERO;
        for chunk in chunks {
            match tokio::time::timeout_at(deadline.into(), chunk).await {
                Ok(timed) => {
                    let timed = timed?;
                    value.extend(timed.value.into_iter().map(Some));
                    elapsed += timed.elapsed;
                }
                // Out of time: what is left is unanswered (and, as `cancel` is dropped with
                // this future's guard, stops).
                Err(_) => break,
            }
        }
        value.resize_with(count, || None);
        Ok(Timed { value, elapsed })
    }

    /// When a job submitted now must have its answer ready: a [`GENERATION_MARGIN`] (or a
    /// tenth of the time limit, when that is more; half of it at most) before the request's
    /// time limit, so that a long generation or batch still answers with what it has before
    /// the request times out.
    pub fn answer_by(&self, submitted: Instant) -> Instant {
        let ahead = (self.limits.time / 10)
            .max(GENERATION_MARGIN)
            .min(self.limits.time / 2);
        submitted + self.limits.time - ahead
    }

    /// Queues `work` in `admission`'s client's `lane`, holding the place until it ends; the
    /// returned future awaits its answer. `work` gets the cancel flag; a job whose flag is up
    /// before it starts is skipped.
    fn spawn<T, W>(
        &self,
        lane: Lane,
        admission: Admission,
        cancel: &Cancel,
        work: W,
    ) -> impl std::future::Future<Output = Result<Timed<T>, PoolError>>
    where
        W: FnOnce(&Cancel) -> T + Send + 'static,
        T: Send + 'static,
    {
        self.metrics.hold_detached(Gauge::Queued);
        let span = Span::current();
        let metrics = Arc::clone(&self.metrics);
        let (reply, answer) = oneshot::channel();
        let client = admission.client();
        let cancel = cancel.clone();
        self.queue.push(
            client,
            lane,
            Box::new(move || {
                metrics.release_detached(Gauge::Queued);
                if cancel.is_cancelled() {
                    // Nobody waits for this answer any more: do not start.
                    return;
                }
                let started = Instant::now();
                let value = {
                    let _entered = span.enter();
                    let _in_flight = metrics.hold(Gauge::InFlight);
                    work(&cancel)
                };
                let elapsed = started.elapsed();
                metrics.observe_solve(elapsed);
                // Free the place before answering, so a client that sends its next request
                // as soon as it has this answer finds the place free again.
                drop(admission);
                // The requester may be gone (timeout, disconnect); the answer is then dropped.
                let _ = reply.send(Timed { value, elapsed });
            }),
        );
        async move {
            answer.await.map_err(|_| {
                tracing::error!("solver job ended without an answer");
                PoolError::Crashed
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Grid, Puzzle};
    use std::net::{IpAddr, Ipv4Addr};
    use std::sync::atomic::{AtomicBool, Ordering};

    fn client(n: u8) -> Client {
        Client(IpAddr::V4(Ipv4Addr::new(10, 0, 0, n)))
    }

    fn one() -> Client {
        client(1)
    }

    fn limits(work: u64, inline_work: u64) -> Limits {
        Limits {
            work,
            generate_work: work,
            inline_work,
            time: Duration::from_secs(10),
        }
    }

    fn pool(slots: usize, queue: usize, limits: Limits) -> (SolvePool, Arc<Metrics>) {
        let metrics = Arc::new(Metrics::default());
        let pool = SolvePool::new(slots, queue, limits, metrics.clone()).unwrap();
        (pool, metrics)
    }

    /// Starts a job that holds a one-place pool's place until the sender is used or dropped.
    async fn occupy_the_only_place(
        pool: &SolvePool,
    ) -> (
        std::sync::mpsc::Sender<()>,
        tokio::task::JoinHandle<Result<Timed<Option<()>>, PoolError>>,
    ) {
        let (release, wait) = std::sync::mpsc::channel::<()>();
        let busy = {
            let pool = pool.clone();
            tokio::spawn(async move { pool.run(one(), move |_, _| wait.recv().ok()).await })
        };
        until("the job holds the place", || {
            pool.places.held.lock().unwrap().0 == 1
        })
        .await;
        (release, busy)
    }

    /// Polls `condition` until it holds, letting the runtime run between looks; fails the
    /// test after a minute instead of hanging `cargo test` when a regression means it never
    /// holds.
    async fn until(what: &str, mut condition: impl FnMut() -> bool) {
        let deadline = Instant::now() + Duration::from_secs(60);
        while !condition() {
            assert!(Instant::now() < deadline, "timed out waiting until {what}");
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }

    fn puzzle(line: &str) -> Puzzle {
        Puzzle::classic(Grid::from_line(line).unwrap()).unwrap()
    }

    /// Solved by propagation alone: no guess.
    const EASY: &str =
        "9.7.....6.2.6.945.46.3.......1...89....8.16......72....1..269.........3..9......1";
    /// Needs well over 32 guesses to count to two.
    const HARD: &str =
        "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";

    fn count_job(line: &'static str) -> impl Fn(&mut Engine, &Budget) -> Option<u32> + Send {
        let puzzle = puzzle(line);
        move |engine: &mut Engine, budget: &Budget| {
            engine.count(&puzzle, 2, budget).ok().map(|c| c.count)
        }
    }

    fn scalar(metrics: &Metrics, name: &str) -> String {
        metrics
            .render()
            .lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap()
            .to_string()
    }

    /// Places held by `client` (0 when it holds none: no entry is left behind).
    fn held_by(pool: &SolvePool, client: Client) -> usize {
        let held = pool.places.held.lock().unwrap();
        assert_ne!(held.1.get(&client), Some(&0), "an empty entry stays behind");
        held.1.get(&client).copied().unwrap_or(0)
    }

    #[test]
    fn places_are_counted_per_client_and_in_all_and_given_back() {
        // One place per client, four in all.
        let (pool, metrics) = pool(1, 0, limits(10, 0));
        let first = pool.admit(client(1)).unwrap();
        assert_eq!(held_by(&pool, client(1)), 1);
        assert!(
            pool.admit(client(1)).is_err(),
            "client 1 holds its one place"
        );
        let others: Vec<Admission> = (2..=4).map(|n| pool.admit(client(n)).unwrap()).collect();
        assert!(pool.admit(client(5)).is_err(), "all four places are taken");
        assert_eq!(held_by(&pool, client(5)), 0);
        assert_eq!(pool.places.held.lock().unwrap().0, 4);
        assert_eq!(
            scalar(&metrics, "solves_rejected_total"),
            "solves_rejected_total 2"
        );
        // A clone is the same place, given back when the last one goes.
        let clone = first.clone();
        assert_eq!(clone.client(), client(1));
        drop(first);
        assert_eq!(held_by(&pool, client(1)), 1);
        drop(clone);
        assert_eq!(held_by(&pool, client(1)), 0);
        assert!(pool.admit(client(5)).is_ok_and(|a| a.client() == client(5)));
        drop(others);
        assert_eq!(pool.places.held.lock().unwrap().0, 0);
        // Taken and given back many times over, the counts stay true.
        let (pool, _) = pool_of_two();
        for _ in 0..10 {
            let a = pool.admit(client(1)).unwrap();
            let b = pool.admit(client(1)).unwrap();
            assert!(pool.admit(client(1)).is_err());
            drop(a);
            assert_eq!(held_by(&pool, client(1)), 1);
            let c = pool.admit(client(1)).unwrap();
            assert!(pool.admit(client(1)).is_err(), "still two places at most");
            drop((b, c));
            assert_eq!(held_by(&pool, client(1)), 0);
        }
        assert_eq!(pool.places.held.lock().unwrap().0, 0);
    }

    /// A pool whose clients hold two places each.
    fn pool_of_two() -> (SolvePool, Arc<Metrics>) {
        pool(1, 1, limits(10, 0))
    }

    #[test]
    fn a_pool_error_becomes_its_problem() {
        assert_eq!(
            Problem::from(PoolError::Overloaded {
                retry_after_secs: 3
            }),
            Problem::Overloaded {
                retry_after_secs: 3
            }
        );
        assert_eq!(Problem::from(PoolError::Crashed), Problem::Internal);
    }

    #[tokio::test]
    async fn queued_jobs_take_turns_by_client() {
        // The one solver thread busy; then two jobs from client 1 and one from client 2.
        let (pool, _) = pool(1, 4, limits(10, 0));
        let (release, busy) = occupy_the_only_place(&pool).await;
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut jobs = Vec::new();
        for (n, label) in [(1, "1a"), (1, "1b"), (2, "2a")] {
            let (queued_on, order) = (pool.clone(), order.clone());
            jobs.push(tokio::spawn(async move {
                queued_on
                    .run(client(n), move |_, _| order.lock().unwrap().push(label))
                    .await
            }));
            let queued = jobs.len();
            until("the job is queued", || {
                pool.metrics
                    .render()
                    .contains(&format!("solves_queued {queued}\n"))
            })
            .await;
        }
        release.send(()).unwrap();
        assert!(busy.await.unwrap().is_ok());
        for job in jobs {
            job.await.unwrap().unwrap();
        }
        assert_eq!(*order.lock().unwrap(), ["1a", "2a", "1b"]);
    }

    #[tokio::test]
    async fn a_batch_answers_in_order_each_item_with_its_own_budget() {
        let (pool, metrics) = pool(2, 0, limits(100_000, 0));
        let admission = pool.admit(one()).unwrap();
        // More items than a chunk: each answer is its own item's count and budget.
        let lines: Vec<&'static str> = [EASY, HARD].repeat(BATCH_CHUNK + 3);
        let deadline = Instant::now() + Duration::from_secs(600);
        let answers = pool
            .run_batch(
                &admission,
                lines.clone(),
                deadline,
                |engine, budget, line| {
                    let counted = engine.count(&puzzle(line), 2, budget).unwrap().count;
                    (line.to_string(), counted, budget.limit(), budget.used())
                },
            )
            .await
            .unwrap();
        assert_eq!(answers.value.len(), lines.len());
        for (answer, sent) in answers.value.iter().zip(&lines) {
            let (line, count, limit, used) = answer.as_ref().expect("answered in time");
            assert_eq!(line, sent);
            assert_eq!((*count, *limit), (1, 100_000));
            if *sent == EASY {
                // An easy puzzle's solve costs a few units: a budget shared with the hard
                // items before it would show theirs too.
                assert!(*used < 10, "a fresh budget per item: {used}");
            }
        }
        assert!(answers.elapsed > Duration::ZERO);
        drop(admission);
        assert_eq!(pool.places.held.lock().unwrap().0, 0);
        assert_eq!(
            scalar(&metrics, "solves_budget_exhausted_total"),
            "solves_budget_exhausted_total 0"
        );
    }

    #[tokio::test]
    async fn pool_jobs_that_run_out_of_work_are_counted_once() {
        let (pool, metrics) = pool(1, 1, limits(5, 0));
        let timed = pool.run(one(), count_job(HARD)).await.unwrap();
        assert_eq!(timed.value, None, "out of budget");
        assert_eq!(
            scalar(&metrics, "solves_budget_exhausted_total"),
            "solves_budget_exhausted_total 1"
        );
        // A generation gets its own work budget, and a deadline at the time limit.
        let (generator, _) = self::pool(
            1,
            1,
            Limits {
                generate_work: 77,
                ..limits(5, 0)
            },
        );
        let before = Instant::now();
        let timed = generator
            .run_generation(one(), None, move |_, budget| {
                (budget.limit(), budget.check(), Instant::now())
            })
            .await
            .unwrap();
        let (limit, check, ran) = timed.value;
        assert_eq!(limit, 77);
        assert!(check.is_ok(), "the deadline is ahead, not behind");
        assert!(ran >= before);
    }

    #[tokio::test]
    async fn refuses_at_once_beyond_slots_and_queue() {
        let (pool, _) = pool(1, 0, limits(10, 0));
        let (release, busy) = occupy_the_only_place(&pool).await;
        let refused = pool.run(one(), |_, _| ()).await.unwrap_err();
        assert!(matches!(refused, PoolError::Overloaded { .. }));
        release.send(()).unwrap();
        assert!(busy.await.unwrap().is_ok());
        assert!(pool.run(one(), |_, _| 7).await.is_ok_and(|t| t.value == 7));
    }

    #[tokio::test]
    async fn one_client_cannot_take_another_clients_places() {
        let (pool, _) = pool(1, 1, limits(10, 0));
        let (release, busy) = occupy_the_only_place(&pool).await;
        // Client 1 holds one place and one more would be its last: the other is still free
        // for a different client, and the pool's total is far from reached.
        assert!(pool.admit(one()).is_ok());
        let _theirs = pool.admit(client(2)).unwrap();
        let _second = pool.admit(client(2)).unwrap();
        assert!(
            pool.admit(client(2)).is_err(),
            "client 2 holds its two places"
        );
        release.send(()).unwrap();
        assert!(busy.await.unwrap().is_ok());
    }

    #[tokio::test]
    async fn a_flood_from_many_clients_leaves_places_for_a_newcomer() {
        // Two places per client, eight in all, two of them kept for clients holding none.
        let (pool, _) = pool(1, 1, limits(10, 0));
        let mut held = Vec::new();
        for n in 1..=3 {
            for _ in 0..2 {
                held.push(pool.admit(client(n)).unwrap());
            }
        }
        // Six taken, the reserve is left: newcomers take it, one place each, though their own
        // share would allow two.
        held.push(pool.admit(client(4)).unwrap());
        assert!(pool.admit(client(4)).is_err(), "client 4 holds one now");
        held.push(pool.admit(client(5)).unwrap());
        assert!(pool.admit(client(5)).is_err());
        assert!(pool.admit(client(6)).is_err(), "every place is taken");
        held.clear();
        assert_eq!(pool.places.held.lock().unwrap().0, 0);
        assert!(pool.admit(client(4)).is_ok());
    }

    #[tokio::test]
    async fn each_job_gets_the_configured_budget() {
        let (pool, _) = pool(1, 4, limits(42, 0));
        let timed = pool.run(one(), |_, budget| budget.limit()).await.unwrap();
        assert_eq!(timed.value, 42);
    }

    #[tokio::test]
    async fn easy_puzzles_are_solved_inline_even_when_the_pool_is_full() {
        let (pool, metrics) = pool(1, 0, limits(100_000, 32));
        let (release, busy) = occupy_the_only_place(&pool).await;
        let timed = pool.run_inline_first(one(), count_job(EASY)).await.unwrap();
        assert_eq!(timed.value, Some(1));
        assert_eq!(
            scalar(&metrics, "solves_inline_total"),
            "solves_inline_total 1"
        );
        // A hard one needs the pool, which is full: refused, not solved on the async worker.
        let refused = pool
            .run_inline_first(one(), count_job(HARD))
            .await
            .unwrap_err();
        assert!(matches!(refused, PoolError::Overloaded { .. }));
        release.send(()).unwrap();
        assert!(busy.await.unwrap().is_ok());
    }

    #[tokio::test]
    async fn a_job_beyond_the_inline_budget_starts_again_on_the_pool() {
        let (pool, metrics) = pool(1, 1, limits(100_000, 32));
        let timed = pool.run_inline_first(one(), count_job(HARD)).await.unwrap();
        assert_eq!(timed.value, Some(1));
        assert_eq!(
            scalar(&metrics, "solves_inline_total"),
            "solves_inline_total 0"
        );
        assert_eq!(
            scalar(&metrics, "solves_budget_exhausted_total"),
            "solves_budget_exhausted_total 0",
            "running out of the inline budget is not running out"
        );
    }

    #[tokio::test]
    async fn an_inline_budget_of_zero_sends_everything_to_the_pool() {
        let (pool, metrics) = pool(1, 1, limits(100_000, 0));
        pool.run_inline_first(one(), count_job(EASY)).await.unwrap();
        assert_eq!(
            scalar(&metrics, "solves_inline_total"),
            "solves_inline_total 0"
        );
    }

    #[tokio::test]
    async fn with_a_budget_inside_the_inline_cap_the_search_is_not_repeated() {
        // No place on the pool at all: an answer can only come from the inline attempt.
        let (pool, metrics) = pool(1, 0, limits(10, 32));
        let (release, busy) = occupy_the_only_place(&pool).await;
        let timed = pool.run_inline_first(one(), count_job(HARD)).await.unwrap();
        assert_eq!(timed.value, None, "out of budget");
        assert_eq!(
            scalar(&metrics, "solves_budget_exhausted_total"),
            "solves_budget_exhausted_total 1"
        );
        release.send(()).unwrap();
        assert!(busy.await.unwrap().is_ok());
    }

    #[tokio::test]
    async fn a_dropped_request_stops_its_running_job_and_its_queued_ones_never_start() {
        let (pool, metrics) = pool(1, 4, limits(u64::MAX, 0));
        let open = puzzle(&".".repeat(81));
        let started = Arc::new(AtomicBool::new(false));
        let endless = {
            let (pool, open, started) = (pool.clone(), open.clone(), started.clone());
            tokio::spawn(async move {
                pool.run(one(), move |engine, budget| {
                    started.store(true, Ordering::Relaxed);
                    engine.count(&open, u32::MAX, budget)
                })
                .await
            })
        };
        until("the endless job runs", || started.load(Ordering::Relaxed)).await;
        let queued_ran = Arc::new(AtomicBool::new(false));
        let queued = {
            let (pool, ran) = (pool.clone(), queued_ran.clone());
            tokio::spawn(async move {
                pool.run(one(), move |_, _| ran.store(true, Ordering::Relaxed))
                    .await
            })
        };
        until("the second job is queued", || {
            scalar(&metrics, "solves_queued") == "solves_queued 1"
        })
        .await;
        // Both requesters go away (as on a timeout or a closed connection).
        queued.abort();
        endless.abort();
        until("the running job stops and both places are free", || {
            scalar(&metrics, "solves_in_flight") == "solves_in_flight 0"
                && pool.places.held.lock().unwrap().0 == 0
        })
        .await;
        assert_eq!(scalar(&metrics, "solves_queued"), "solves_queued 0");
        // The one solver thread takes this client's single jobs in order: once a job sent
        // now has answered, the queued one has been taken and either skipped or run, so a
        // wrongly started one cannot be missed by looking too early.
        let after = pool.run(one(), |_, _| 7).await.unwrap();
        assert_eq!(after.value, 7);
        assert!(
            !queued_ran.load(Ordering::Relaxed),
            "a cancelled job started"
        );
    }
}
