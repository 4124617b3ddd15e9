//! Bounded CPU work: solves run on a dedicated rayon pool with one thread per solver slot;
//! on the async workers only a capped first attempt (below).
//!
//! Why rayon rather than `spawn_blocking`: under load a request's solve takes microseconds,
//! and waking a parked thread per request (the blocking pool's condvar plus a semaphore
//! hand-off) cost more than the solve itself. Rayon's workers look for the next job for a
//! moment before they sleep, so a busy service hands jobs over without a wake-up each.
//!
//! Admission is one semaphore of `slots + queue` permits, taken with `try_acquire`: a request
//! beyond that is refused at once with 503 + `Retry-After` instead of piling up. The permit
//! moves into the job, so if the client goes away or the request times out, the place stays
//! taken until the solver really stops: the bound holds for CPU work, not just for futures.
//! The pool's thread count is the concurrency bound; the budget bounds each job.
//!
//! The one exception is [`SolvePool::count_solutions`]'s first attempt: a classic puzzle gets
//! a few guesses (the inline budget, default 32: a few microseconds, the order of parsing its
//! JSON) on the request's own async worker, and only a search that needs more goes to the
//! solver threads, from scratch, with the full budget. Most real puzzles need no guess at all,
//! and for them the hand-off to another thread and back cost more than the solve (measured in
//! BENCHMARKS.md). The bound that keeps the runtime responsive still holds: no request spends
//! more than the inline budget on a worker, however hard its puzzle.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use tokio::sync::{oneshot, OwnedSemaphorePermit, Semaphore};
use tracing::Span;

use super::metrics::{Gauge, Metrics};
use super::problem::Problem;
use crate::engine::{Counted, GaveUp, Puzzle, Solver};

/// The solver pool: how many solves run at once, how many may wait, and the search budget.
#[derive(Debug, Clone)]
pub struct SolvePool {
    threads: Arc<rayon::ThreadPool>,
    admitted: Arc<Semaphore>,
    budget: u64,
    /// Guesses a solve may spend on the request's async worker before it is handed over.
    inline_budget: u64,
    metrics: Arc<Metrics>,
}

/// A place in the pool (running or queued). Cloned into every job it covers and released
/// when the last clone is dropped, which for a job is when it has finished on the CPU.
#[derive(Debug, Clone)]
pub struct Admission {
    _permit: Arc<OwnedSemaphorePermit>,
}

/// Raises its flag when dropped.
struct AbandonOnDrop(Arc<AtomicBool>);

impl Drop for AbandonOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// What a job returned, and how long it ran on the CPU.
#[derive(Debug)]
pub struct Timed<T> {
    pub value: T,
    pub elapsed: Duration,
}

thread_local! {
    /// One solver per thread that solves (pool threads, and async workers for inline
    /// attempts), reused: its guess stack is allocated once.
    static SOLVER: std::cell::RefCell<Solver> = std::cell::RefCell::new(Solver::new());
}

/// Runs `job` with this thread's solver, set to `budget` guesses.
fn with_thread_solver<T>(budget: u64, job: impl FnOnce(&mut Solver) -> T) -> T {
    SOLVER.with_borrow_mut(|solver| {
        solver.set_budget(budget);
        job(solver)
    })
}

impl SolvePool {
    /// `slots` solver threads (at least 1), `queue` more jobs waiting, `budget` guesses per
    /// solve, of which `inline_budget` may be tried on the caller's thread first (0: none).
    pub fn new(
        slots: usize,
        queue: usize,
        budget: u64,
        inline_budget: u64,
        metrics: Arc<Metrics>,
    ) -> std::io::Result<SolvePool> {
        let slots = slots.max(1);
        let threads = rayon::ThreadPoolBuilder::new()
            .num_threads(slots)
            .thread_name(|i| format!("solver-{i}"))
            // Rayon aborts the process on a panicking job by default; log it instead. The
            // job's reply is dropped, so its request gets a 500 problem.
            .panic_handler(|_| tracing::error!("a solver job panicked"))
            .build()
            .map_err(std::io::Error::other)?;
        Ok(SolvePool {
            threads: Arc::new(threads),
            admitted: Arc::new(Semaphore::new(slots + queue)),
            budget,
            inline_budget: inline_budget.min(budget),
            metrics,
        })
    }

    /// Counts `puzzle`'s solutions up to `limit`: within the inline budget right here, else on
    /// the pool with the full budget (see the module docs for why).
    pub async fn count_solutions(
        &self,
        puzzle: Puzzle,
        limit: u32,
    ) -> Result<Timed<Result<Counted, GaveUp>>, Problem> {
        if self.inline_budget > 0 {
            let started = Instant::now();
            // A panic here would unwind through the connection; on the pool it is caught and
            // becomes a 500, so it does here too.
            let attempt = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                with_thread_solver(self.inline_budget, |solver| {
                    solver.count_solutions(&puzzle, limit)
                })
            }))
            .map_err(|_| {
                tracing::error!("an inline solve panicked");
                Problem::Internal
            })?;
            let elapsed = started.elapsed();
            if attempt.is_ok() {
                self.metrics.observe_inline_solve(elapsed);
            }
            // A search that gave up goes to the pool, unless the inline budget was the whole
            // budget: the pool would only repeat it.
            if attempt.is_ok() || self.inline_budget == self.budget {
                return Ok(Timed {
                    value: attempt,
                    elapsed,
                });
            }
        }
        self.run(move |solver| solver.count_solutions(&puzzle, limit))
            .await
    }

    /// Takes a place (slot or queue), or refuses at once with 503 when all are taken.
    pub fn admit(&self) -> Result<Admission, Problem> {
        match self.admitted.clone().try_acquire_owned() {
            Ok(permit) => Ok(Admission {
                _permit: Arc::new(permit),
            }),
            Err(_) => {
                self.metrics.count_rejected();
                Err(Problem::Overloaded {
                    retry_after_secs: 1,
                })
            }
        }
    }

    /// Runs `job` with a solver on the pool, or refuses at once when full.
    pub async fn run<T, F>(&self, job: F) -> Result<Timed<T>, Problem>
    where
        F: FnOnce(&mut Solver) -> T + Send + 'static,
        T: Send + 'static,
    {
        let admission = self.admit()?;
        let budget = self.budget;
        self.spawn(admission, move || with_thread_solver(budget, job))
            .await
    }

    /// Runs `job` on the pool with the search budget as its argument, for engines other than
    /// the 9x9 [`Solver`]; refuses at once when full.
    pub async fn run_with_budget<T, F>(&self, job: F) -> Result<Timed<T>, Problem>
    where
        F: FnOnce(u64) -> T + Send + 'static,
        T: Send + 'static,
    {
        let admission = self.admit()?;
        let budget = self.budget;
        self.spawn(admission, move || job(budget)).await
    }

    /// Solves `items` in parallel on the pool's threads (the same CPU bound as single
    /// solves) under an admission already taken, and returns the answers in input order.
    pub async fn run_batch<I, T, F>(
        &self,
        admission: &Admission,
        items: Vec<I>,
        job: F,
    ) -> Result<Timed<Vec<T>>, Problem>
    where
        I: Send + Sync + 'static,
        T: Send + 'static,
        F: Fn(&mut Solver, &I) -> T + Send + Sync + 'static,
    {
        let budget = self.budget;
        // Set when this future is dropped (timeout, client gone): the remaining items are
        // skipped instead of holding the solver threads for an answer nobody reads.
        let abandoned = AbandonOnDrop(Arc::new(AtomicBool::new(false)));
        let stop = Arc::clone(&abandoned.0);
        let timed = self
            .spawn(admission.clone(), move || {
                items
                    .par_iter()
                    .map_init(
                        || Solver::with_budget(budget),
                        |solver, item| (!stop.load(Ordering::Relaxed)).then(|| job(solver, item)),
                    )
                    .collect::<Vec<Option<T>>>()
            })
            .await?;
        Ok(Timed {
            value: timed.value.into_iter().flatten().collect(),
            elapsed: timed.elapsed,
        })
    }

    /// Queues `work` on the pool holding `admission` until it ends, and awaits its answer.
    async fn spawn<T, W>(&self, admission: Admission, work: W) -> Result<Timed<T>, Problem>
    where
        W: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        self.metrics.hold_detached(Gauge::Queued);
        let span = Span::current();
        let metrics = Arc::clone(&self.metrics);
        let (reply, answer) = oneshot::channel();
        self.threads.spawn(move || {
            metrics.release_detached(Gauge::Queued);
            let started = Instant::now();
            let value = {
                let _entered = span.enter();
                let _in_flight = metrics.hold(Gauge::InFlight);
                work()
            };
            let elapsed = started.elapsed();
            metrics.observe_solve(elapsed);
            // Free the place before answering, so a client that sends its next request as
            // soon as it has this answer finds the place free again.
            drop(admission);
            // The requester may be gone (timeout, disconnect); the answer is then dropped.
            let _ = reply.send(Timed { value, elapsed });
        });
        answer.await.map_err(|_| {
            tracing::error!("solver job ended without an answer");
            Problem::Internal
        })
    }

    /// Counts a solve that hit the search budget (for `/metrics`).
    pub fn note_budget_exhausted(&self) {
        self.metrics.count_budget_exhausted();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Starts a job that holds a one-place pool's place until the sender is used or dropped.
    async fn occupy_the_only_place(
        pool: &SolvePool,
    ) -> (
        std::sync::mpsc::Sender<()>,
        tokio::task::JoinHandle<Result<Timed<Option<()>>, Problem>>,
    ) {
        let (release, wait) = std::sync::mpsc::channel::<()>();
        let busy = {
            let pool = pool.clone();
            tokio::spawn(async move { pool.run(move |_| wait.recv().ok()).await })
        };
        while pool.admitted.available_permits() != 0 {
            tokio::task::yield_now().await;
        }
        (release, busy)
    }

    #[tokio::test]
    async fn refuses_at_once_beyond_slots_and_queue() {
        let pool = SolvePool::new(1, 0, 10, 0, Arc::new(Metrics::default())).unwrap();
        let (release, busy) = occupy_the_only_place(&pool).await;
        let refused = pool.run(|_| ()).await.unwrap_err();
        assert!(matches!(refused, Problem::Overloaded { .. }));
        release.send(()).unwrap();
        assert!(busy.await.unwrap().is_ok());
        assert!(pool.run(|_| 7).await.is_ok_and(|t| t.value == 7));
    }

    #[tokio::test]
    async fn each_job_gets_the_configured_budget() {
        let pool = SolvePool::new(1, 4, 42, 0, Arc::new(Metrics::default())).unwrap();
        let timed = pool.run(|solver| solver.budget()).await.unwrap();
        assert_eq!(timed.value, 42);
    }

    fn puzzle(line: &str) -> Puzzle {
        Puzzle::new(crate::engine::Board::from_line(line).unwrap()).unwrap()
    }

    /// Solved by propagation alone: no guess.
    const EASY: &str =
        "9.7.....6.2.6.945.46.3.......1...89....8.16......72....1..269.........3..9......1";
    /// Needs well over 32 guesses to count to two.
    const HARD: &str =
        "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";

    fn inline_count(metrics: &Metrics) -> String {
        let text = metrics.render();
        text.lines()
            .find(|l| l.starts_with("solves_inline_total "))
            .unwrap()
            .to_string()
    }

    #[tokio::test]
    async fn easy_puzzles_are_solved_inline_even_when_the_pool_is_full() {
        let metrics = Arc::new(Metrics::default());
        let pool = SolvePool::new(1, 0, 100_000, 32, metrics.clone()).unwrap();
        let (release, busy) = occupy_the_only_place(&pool).await;
        let timed = pool.count_solutions(puzzle(EASY), 2).await.unwrap();
        assert_eq!(timed.value.unwrap().count, 1);
        assert_eq!(inline_count(&metrics), "solves_inline_total 1");
        // A hard one needs the pool, which is full: refused, not solved on the async worker.
        let refused = pool.count_solutions(puzzle(HARD), 2).await.unwrap_err();
        assert!(matches!(refused, Problem::Overloaded { .. }));
        release.send(()).unwrap();
        assert!(busy.await.unwrap().is_ok());
    }

    #[tokio::test]
    async fn a_search_beyond_the_inline_budget_starts_again_on_the_pool() {
        let metrics = Arc::new(Metrics::default());
        let pool = SolvePool::new(1, 1, 100_000, 32, metrics.clone()).unwrap();
        let expected = Solver::new().count_solutions(&puzzle(HARD), 2).unwrap();
        assert!(expected.stats.guesses > 32);
        let counted = pool
            .count_solutions(puzzle(HARD), 2)
            .await
            .unwrap()
            .value
            .unwrap();
        assert_eq!(counted.count, expected.count);
        assert_eq!(counted.first, expected.first);
        assert_eq!(
            counted.stats.guesses, expected.stats.guesses,
            "a fresh, full search"
        );
        assert_eq!(inline_count(&metrics), "solves_inline_total 0");
    }

    #[tokio::test]
    async fn an_inline_budget_of_zero_sends_everything_to_the_pool() {
        let metrics = Arc::new(Metrics::default());
        let pool = SolvePool::new(1, 1, 100_000, 0, metrics.clone()).unwrap();
        pool.count_solutions(puzzle(EASY), 2).await.unwrap();
        assert_eq!(inline_count(&metrics), "solves_inline_total 0");
    }

    #[tokio::test]
    async fn with_a_budget_inside_the_inline_cap_the_search_is_not_repeated() {
        let metrics = Arc::new(Metrics::default());
        // No place on the pool at all: an answer can only come from the inline attempt.
        let pool = SolvePool::new(1, 0, 10, 32, metrics.clone()).unwrap();
        let (release, busy) = occupy_the_only_place(&pool).await;
        let timed = pool.count_solutions(puzzle(HARD), 2).await.unwrap();
        assert!(timed.value.unwrap_err().stats.guesses >= 10);
        release.send(()).unwrap();
        assert!(busy.await.unwrap().is_ok());
    }
}
