//! [`Budget`]: the one limit every search runs under, whatever the engine.
//!
//! A budget bounds three things at once:
//! * **work**: units the engines charge as they go, each about one microsecond of CPU on the
//!   reference machine (a guess of the band solver; a thousand cell or combination visits of
//!   the general solver; see each engine's docs). Work is deterministic: the same puzzle
//!   and budget give the same answer on a fast or a slow machine, so a 422 "too hard" is
//!   reproducible.
//! * **time**: an optional deadline (the request's time limit), and
//! * **cancellation**: an optional [`Cancel`] handle, raised when nobody waits for the answer
//!   any more (the client went away, the request timed out).
//!
//! Reading the clock and the flag costs more than charging, so they are looked at only every
//! [`CHECK_EVERY`] units (a quarter of a millisecond of work): a cancelled or timed-out search stops
//! within a few milliseconds, and charging stays one add and one compare.
//!
//! A budget is spent by one job on one thread (interior mutability, not `Sync`); several
//! searches in one job (a hint counts solutions, then reasons) share it, so the job as a
//! whole is bounded.

use std::cell::Cell;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Work units between two looks at the clock and the cancel flag.
pub const CHECK_EVERY: u64 = 256;

/// Why a search stopped before it knew the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stop {
    /// It used all its work units: the puzzle is too hard (or too open) for the limit.
    Work,
    /// The deadline passed.
    Deadline,
    /// Whoever asked does not want the answer any more.
    Cancelled,
}

/// A search stopped early, and how much work it had done.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub struct Exhausted {
    pub stop: Stop,
    /// Work units used when it stopped.
    pub work: u64,
}

impl fmt::Display for Exhausted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.stop {
            Stop::Work => write!(f, "gave up after {} units of work", self.work),
            Stop::Deadline => write!(
                f,
                "stopped at the time limit after {} units of work",
                self.work
            ),
            Stop::Cancelled => write!(f, "cancelled after {} units of work", self.work),
        }
    }
}

/// A cancel flag shared between whoever waits for a search and the search itself. Cloning
/// shares the flag.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A flag not raised yet.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Raises the flag: every budget holding it stops at its next check.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// True once [`cancel`](Cancel::cancel) was called on any clone.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// See the module docs.
#[derive(Debug)]
pub struct Budget {
    limit: u64,
    used: Cell<u64>,
    /// Thousandths of a unit charged by [`charge_milli`](Budget::charge_milli) and not yet
    /// making a whole one.
    milli: Cell<u64>,
    /// `used` at which the clock and the flag are next looked at.
    next_check: Cell<u64>,
    deadline: Option<Instant>,
    cancel: Option<Cancel>,
    stopped: Cell<Option<Stop>>,
}

impl Budget {
    /// No limit at all (tests, benchmarks, offline tools).
    pub fn unlimited() -> Budget {
        Budget::work(u64::MAX)
    }

    /// At most `units` of work, no deadline, no cancellation.
    pub fn work(units: u64) -> Budget {
        Budget {
            limit: units,
            used: Cell::new(0),
            milli: Cell::new(0),
            next_check: Cell::new(CHECK_EVERY),
            deadline: None,
            cancel: None,
            stopped: Cell::new(None),
        }
    }

    /// The same budget, also stopping at `deadline`.
    pub fn with_deadline(mut self, deadline: Instant) -> Budget {
        self.deadline = Some(deadline);
        self
    }

    /// The same budget, also stopping once `cancel` is raised.
    pub fn with_cancel(mut self, cancel: Cancel) -> Budget {
        self.cancel = Some(cancel);
        self
    }

    /// Charges `units` of work; `Err` once the budget is spent, the deadline passed or the
    /// search was cancelled (and on every later call: a stopped budget stays stopped).
    #[inline]
    pub fn charge(&self, units: u64) -> Result<(), Exhausted> {
        let used = self.used.get().saturating_add(units);
        self.used.set(used);
        if used > self.limit {
            return Err(self.stop(Stop::Work));
        }
        if used >= self.next_check.get() {
            self.next_check.set(used.saturating_add(CHECK_EVERY));
            self.check()?;
        }
        Ok(())
    }

    /// Charges `milli` thousandths of a unit: for work far smaller than a unit (a cheap
    /// technique look costs a fraction of a microsecond), whose whole units are charged as
    /// they add up.
    #[inline]
    pub fn charge_milli(&self, milli: u64) -> Result<(), Exhausted> {
        let total = self.milli.get().saturating_add(milli);
        self.milli.set(total % 1000);
        self.charge(total / 1000)
    }

    /// Looks at the deadline and the cancel flag now, whatever was charged; for the start of
    /// a job (a queued job whose requester left never starts) and for code between charges.
    pub fn check(&self) -> Result<(), Exhausted> {
        if let Some(stop) = self.stopped.get() {
            return Err(self.exhausted(stop));
        }
        if self.cancel.as_ref().is_some_and(Cancel::is_cancelled) {
            return Err(self.stop(Stop::Cancelled));
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(self.stop(Stop::Deadline));
        }
        Ok(())
    }

    /// A budget for one attempt that may fail without failing the caller: at most `units`
    /// of this budget's remaining work, with its deadline and cancel flag. Charge what the
    /// attempt used back with [`absorb`](Budget::absorb). A generator uses it to give up on
    /// one unlucky draw (a search that would thrash) and try another.
    pub fn trial(&self, units: u64) -> Budget {
        Budget {
            limit: units.min(self.limit.saturating_sub(self.used.get())),
            used: Cell::new(0),
            milli: Cell::new(0),
            next_check: Cell::new(CHECK_EVERY),
            deadline: self.deadline,
            cancel: self.cancel.clone(),
            stopped: Cell::new(None),
        }
    }

    /// Charges the work `trial` used. `Err` when that spends this budget, or when the trial
    /// stopped for this budget's deadline or cancellation (an attempt that only ran out of
    /// its own units is the caller's to retry).
    pub fn absorb(&self, trial: &Budget) -> Result<(), Exhausted> {
        self.charge(trial.used())?;
        match trial.stopped() {
            Some(Stop::Deadline | Stop::Cancelled) => self.check(),
            _ => Ok(()),
        }
    }

    /// Work units charged so far.
    pub fn used(&self) -> u64 {
        self.used.get()
    }

    /// The work limit.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// Why the budget stopped a search, if it did.
    pub fn stopped(&self) -> Option<Stop> {
        self.stopped.get()
    }

    fn stop(&self, stop: Stop) -> Exhausted {
        if self.stopped.get().is_none() {
            self.stopped.set(Some(stop));
        }
        self.exhausted(self.stopped.get().unwrap_or(stop))
    }

    fn exhausted(&self, stop: Stop) -> Exhausted {
        Exhausted {
            stop,
            work: self.used.get(),
        }
    }
}

/// Charges a budget for fine-grained operations (cell visits, combination checks) in whole
/// units: `per_unit` operations make one unit, the rest is carried to the next add. For
/// engines whose steps are far smaller than a unit.
#[derive(Debug)]
pub struct Meter<'a> {
    budget: &'a Budget,
    per_unit: u64,
    ops: u64,
}

impl<'a> Meter<'a> {
    pub fn new(budget: &'a Budget, per_unit: u64) -> Meter<'a> {
        Meter {
            budget,
            per_unit: per_unit.max(1),
            ops: 0,
        }
    }

    /// Counts `ops` operations; charges the budget when they make whole units.
    #[inline]
    pub fn add(&mut self, ops: u64) -> Result<(), Exhausted> {
        self.ops += ops;
        if self.ops >= self.per_unit {
            let units = self.ops / self.per_unit;
            self.ops %= self.per_unit;
            self.budget.charge(units)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trial_spends_the_callers_work_and_keeps_its_stops() {
        let budget = Budget::work(100);
        budget.charge(70).unwrap();
        let trial = budget.trial(50);
        assert_eq!(trial.limit(), 30, "no more than what is left");
        assert!(trial.charge(31).is_err());
        assert_eq!(trial.stopped(), Some(Stop::Work));
        assert!(
            budget.absorb(&trial).is_err(),
            "the caller's work is spent too"
        );

        let cancel = Cancel::new();
        let budget = Budget::work(1_000).with_cancel(cancel.clone());
        let trial = budget.trial(10);
        trial.charge(5).unwrap();
        budget.absorb(&trial).unwrap();
        assert_eq!(budget.used(), 5);
        cancel.cancel();
        assert_eq!(trial.check().unwrap_err().stop, Stop::Cancelled);
        assert_eq!(budget.absorb(&trial).unwrap_err().stop, Stop::Cancelled);
    }
    use std::time::Duration;

    #[test]
    fn work_runs_out_exactly_at_the_limit_and_stays_out() {
        let budget = Budget::work(10);
        assert!(budget.charge(10).is_ok());
        let err = budget.charge(1).unwrap_err();
        assert_eq!(
            err,
            Exhausted {
                stop: Stop::Work,
                work: 11
            }
        );
        assert_eq!(budget.stopped(), Some(Stop::Work));
        assert_eq!(budget.charge(0).unwrap_err().stop, Stop::Work);
        assert_eq!(err.to_string(), "gave up after 11 units of work");
    }

    #[test]
    fn cancellation_is_seen_within_check_every_units() {
        let cancel = Cancel::new();
        let budget = Budget::unlimited().with_cancel(cancel.clone());
        budget.charge(1).unwrap();
        cancel.cancel();
        let mut charged = 0;
        while budget.charge(1).is_ok() {
            charged += 1;
        }
        assert!(charged < CHECK_EVERY, "{charged}");
        assert_eq!(budget.stopped(), Some(Stop::Cancelled));
        assert_eq!(budget.check().unwrap_err().stop, Stop::Cancelled);
    }

    #[test]
    fn thousandths_add_up_to_units() {
        let budget = Budget::work(3);
        budget.charge_milli(600).unwrap();
        assert_eq!(budget.used(), 0);
        budget.charge_milli(600).unwrap();
        assert_eq!(budget.used(), 1, "1.2 units, the 0.2 carried");
        budget.charge_milli(1_800).unwrap();
        assert_eq!(budget.used(), 3, "0.2 + 1.8 make two more");
        budget.charge_milli(999).unwrap();
        assert_eq!(budget.charge_milli(1).unwrap_err().stop, Stop::Work);
    }

    #[test]
    fn a_meter_charges_whole_units_and_carries_the_rest() {
        let budget = Budget::work(2);
        let mut meter = Meter::new(&budget, 100);
        meter.add(150).unwrap();
        assert_eq!(budget.used(), 1);
        meter.add(49).unwrap();
        assert_eq!(budget.used(), 1);
        meter.add(1).unwrap();
        assert_eq!(budget.used(), 2);
        assert_eq!(meter.add(100).unwrap_err().stop, Stop::Work);
    }

    #[test]
    fn a_passed_deadline_stops_at_the_next_check() {
        let budget = Budget::unlimited().with_deadline(Instant::now() - Duration::from_millis(1));
        assert!(budget.charge(CHECK_EVERY - 1).is_ok());
        assert_eq!(budget.charge(1).unwrap_err().stop, Stop::Deadline);
        let open = Budget::unlimited().with_deadline(Instant::now() + Duration::from_secs(60));
        assert!(open.charge(10 * CHECK_EVERY).is_ok());
        assert!(open.check().is_ok());
        assert_eq!(open.used(), 10 * CHECK_EVERY);
    }
}
