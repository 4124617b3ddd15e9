//! Bounded CPU work: solves run on tokio's blocking pool, never on the async workers, and
//! never more at once than the configured slots.
//!
//! Admission is two semaphores. `admitted` (slots + queue places) is taken with `try_acquire`,
//! so a request beyond the queue is refused at once with 503 + `Retry-After` instead of piling
//! up. `slots` (one per concurrent solve) is awaited. Both permits move into the blocking
//! closure: if the client goes away or the request times out, the slot stays taken until the
//! solver really stops, so the bound holds for CPU time, not just for futures.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::Semaphore;
use tracing::Span;

use super::metrics::{Gauge, Metrics};
use super::problem::Problem;
use crate::engine::Solver;

/// The solver pool: how many solves run at once, how many may wait, and the search budget.
#[derive(Debug, Clone)]
pub struct SolvePool {
    slots: Arc<Semaphore>,
    admitted: Arc<Semaphore>,
    budget: u64,
    metrics: Arc<Metrics>,
}

/// What a job returned, and how long it ran on the CPU.
#[derive(Debug)]
pub struct Timed<T> {
    pub value: T,
    pub elapsed: Duration,
}

impl SolvePool {
    /// `slots` concurrent solves (at least 1), `queue` more waiting, `budget` guesses per solve.
    pub fn new(slots: usize, queue: usize, budget: u64, metrics: Arc<Metrics>) -> SolvePool {
        let slots = slots.max(1);
        SolvePool {
            slots: Arc::new(Semaphore::new(slots)),
            admitted: Arc::new(Semaphore::new(slots + queue)),
            budget,
            metrics,
        }
    }

    /// Runs `job` with a solver on the blocking pool, or refuses at once when full.
    pub async fn run<T, F>(&self, job: F) -> Result<Timed<T>, Problem>
    where
        F: FnOnce(&mut Solver) -> T + Send + 'static,
        T: Send + 'static,
    {
        let Ok(admitted) = self.admitted.clone().try_acquire_owned() else {
            self.metrics.count_rejected();
            return Err(Problem::Overloaded {
                retry_after_secs: 1,
            });
        };
        let slot = {
            let _queued = self.metrics.hold(Gauge::Queued);
            self.slots
                .clone()
                .acquire_owned()
                .await
                .map_err(|_| Problem::ShuttingDown)?
        };
        let span = Span::current();
        let budget = self.budget;
        let metrics = self.metrics.clone();
        let handle = tokio::task::spawn_blocking(move || {
            let _permits = (admitted, slot);
            let _entered = span.enter();
            let _in_flight = metrics.hold(Gauge::InFlight);
            let mut solver = Solver::with_budget(budget);
            let started = Instant::now();
            let value = job(&mut solver);
            let elapsed = started.elapsed();
            metrics.observe_solve(elapsed);
            Timed { value, elapsed }
        });
        handle.await.map_err(|err| {
            tracing::error!(error = %err, "solver task failed");
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
        let pool = SolvePool::new(1, 0, 10, Arc::new(Metrics::default()));
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
}
