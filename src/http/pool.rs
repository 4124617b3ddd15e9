//! Bounded CPU work: solves run on a dedicated rayon pool with one thread per solver slot,
//! never on the async workers.
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

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use tokio::sync::{oneshot, OwnedSemaphorePermit, Semaphore};
use tracing::Span;

use super::metrics::{Gauge, Metrics};
use super::problem::Problem;
use crate::engine::Solver;

/// The solver pool: how many solves run at once, how many may wait, and the search budget.
#[derive(Debug, Clone)]
pub struct SolvePool {
    threads: Arc<rayon::ThreadPool>,
    admitted: Arc<Semaphore>,
    budget: u64,
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
    /// One solver per pool thread, reused: its guess stack is allocated once.
    static SOLVER: std::cell::RefCell<Solver> = std::cell::RefCell::new(Solver::new());
}

impl SolvePool {
    /// `slots` solver threads (at least 1), `queue` more jobs waiting, `budget` guesses per
    /// solve.
    pub fn new(
        slots: usize,
        queue: usize,
        budget: u64,
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
            metrics,
        })
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
        self.spawn(admission, move || {
            SOLVER.with_borrow_mut(|solver| {
                solver.set_budget(budget);
                job(solver)
            })
        })
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

    #[tokio::test]
    async fn refuses_at_once_beyond_slots_and_queue() {
        let pool = SolvePool::new(1, 0, 10, Arc::new(Metrics::default())).unwrap();
        let (release, wait) = std::sync::mpsc::channel::<()>();
        let busy = {
            let pool = pool.clone();
            tokio::spawn(async move { pool.run(move |_| wait.recv().ok()).await })
        };
        // Give the first job time to take the only place.
        while pool.admitted.available_permits() != 0 {
            tokio::task::yield_now().await;
        }
        let refused = pool.run(|_| ()).await.unwrap_err();
        assert!(matches!(refused, Problem::Overloaded { .. }));
        release.send(()).unwrap();
        assert!(busy.await.unwrap().is_ok());
        assert!(pool.run(|_| 7).await.is_ok_and(|t| t.value == 7));
    }

    #[tokio::test]
    async fn each_job_gets_the_configured_budget() {
        let pool = SolvePool::new(1, 4, 42, Arc::new(Metrics::default())).unwrap();
        let timed = pool.run(|solver| solver.budget()).await.unwrap();
        assert_eq!(timed.value, 42);
    }
}
