//! Prometheus metrics, rendered in the text exposition format.
//!
//! Hand-rolled rather than a global recorder crate: each server (and each test server in one
//! process) owns its own [`Metrics`], and the set is small enough to read at a glance. Label
//! values come from fixed sets (matched route patterns, standard methods) so a scanner probing
//! random paths cannot blow up the series count.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Upper bounds of the latency buckets, in seconds.
const BUCKETS: [f64; 14] = [
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0,
];

/// A cumulative latency histogram.
#[derive(Debug, Default, Clone)]
struct Histogram {
    /// Observations per bucket (not cumulative; summed when rendered).
    counts: [u64; BUCKETS.len()],
    count: u64,
    sum_seconds: f64,
}

impl Histogram {
    fn observe(&mut self, elapsed: Duration) {
        let secs = elapsed.as_secs_f64();
        if let Some(i) = BUCKETS.iter().position(|&le| secs <= le) {
            self.counts[i] += 1;
        }
        self.count += 1;
        self.sum_seconds += secs;
    }

    fn render(&self, out: &mut String, name: &str, labels: &str) {
        let sep = if labels.is_empty() { "" } else { "," };
        let mut cumulative = 0;
        for (le, n) in BUCKETS.iter().zip(self.counts) {
            cumulative += n;
            let _ = writeln!(
                out,
                "{name}_bucket{{{labels}{sep}le=\"{le}\"}} {cumulative}"
            );
        }
        let _ = writeln!(
            out,
            "{name}_bucket{{{labels}{sep}le=\"+Inf\"}} {}",
            self.count
        );
        let labels = if labels.is_empty() {
            String::new()
        } else {
            format!("{{{labels}}}")
        };
        let _ = writeln!(out, "{name}_sum{labels} {}", self.sum_seconds);
        let _ = writeln!(out, "{name}_count{labels} {}", self.count);
    }
}

/// Request counts and latency of one route.
#[derive(Debug, Default)]
struct RouteStats {
    /// (method, status) -> requests answered.
    answered: BTreeMap<(&'static str, u16), u64>,
    latency: Histogram,
}

/// Everything `/metrics` reports.
#[derive(Debug, Default)]
pub struct Metrics {
    /// Route pattern -> its stats; one lock and no allocation per request once a route is seen.
    routes: Mutex<BTreeMap<String, RouteStats>>,
    /// Time spent inside the solver, per solve.
    solve_time: Mutex<Histogram>,
    requests_in_flight: AtomicI64,
    solves_in_flight: AtomicI64,
    solves_queued: AtomicI64,
    solves_rejected: AtomicU64,
    budget_exhausted: AtomicU64,
    solves_inline: AtomicU64,
}

/// Which gauge a [`GaugeGuard`] holds up.
#[derive(Debug, Clone, Copy)]
pub enum Gauge {
    /// HTTP requests between their headers and their answer.
    Requests,
    InFlight,
    Queued,
}

/// Increments a gauge now and decrements it when dropped, so the count stays right even when
/// a request is cancelled half-way (client gone, timeout).
#[derive(Debug)]
pub struct GaugeGuard<'a> {
    metrics: &'a Metrics,
    gauge: Gauge,
}

impl Drop for GaugeGuard<'_> {
    fn drop(&mut self) {
        self.metrics
            .gauge(self.gauge)
            .fetch_sub(1, Ordering::Relaxed);
    }
}

impl Metrics {
    fn gauge(&self, gauge: Gauge) -> &AtomicI64 {
        match gauge {
            Gauge::Requests => &self.requests_in_flight,
            Gauge::InFlight => &self.solves_in_flight,
            Gauge::Queued => &self.solves_queued,
        }
    }

    /// Holds `gauge` one higher while the guard lives.
    pub fn hold(&self, gauge: Gauge) -> GaugeGuard<'_> {
        self.gauge(gauge).fetch_add(1, Ordering::Relaxed);
        GaugeGuard {
            metrics: self,
            gauge,
        }
    }

    /// Raises `gauge` by one until a matching [`Metrics::release_detached`]; for a count that
    /// is raised on one thread and lowered on another.
    pub fn hold_detached(&self, gauge: Gauge) {
        self.gauge(gauge).fetch_add(1, Ordering::Relaxed);
    }

    /// Lowers a gauge raised with [`Metrics::hold_detached`].
    pub fn release_detached(&self, gauge: Gauge) {
        self.gauge(gauge).fetch_sub(1, Ordering::Relaxed);
    }

    /// Records one answered request.
    pub fn observe_request(
        &self,
        route: &str,
        method: &'static str,
        status: u16,
        elapsed: Duration,
    ) {
        let Ok(mut routes) = self.routes.lock() else {
            return;
        };
        if !routes.contains_key(route) {
            routes.insert(route.to_string(), RouteStats::default());
        }
        if let Some(stats) = routes.get_mut(route) {
            *stats.answered.entry((method, status)).or_default() += 1;
            stats.latency.observe(elapsed);
        }
    }

    /// Records the solver time of one solve.
    pub fn observe_solve(&self, elapsed: Duration) {
        if let Ok(mut h) = self.solve_time.lock() {
            h.observe(elapsed);
        }
    }

    /// Records a solve that finished within the inline budget, without a hand-off.
    pub fn observe_inline_solve(&self, elapsed: Duration) {
        self.solves_inline.fetch_add(1, Ordering::Relaxed);
        self.observe_solve(elapsed);
    }

    /// Counts a solve refused because every slot and queue place was taken.
    pub fn count_rejected(&self) {
        self.solves_rejected.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts a solve that hit its search budget.
    pub fn count_budget_exhausted(&self) {
        self.budget_exhausted.fetch_add(1, Ordering::Relaxed);
    }

    /// The text exposition format (version 0.0.4).
    pub fn render(&self) -> String {
        let mut out = String::with_capacity(4096);
        out.push_str(
            "# HELP http_requests_total HTTP requests answered, by route, method and status.\n\
             # TYPE http_requests_total counter\n",
        );
        let routes = self.routes.lock().ok();
        let routes = routes.as_deref().into_iter().flatten();
        for (route, stats) in routes.clone() {
            for ((method, status), n) in &stats.answered {
                let _ = writeln!(
                    out,
                    "http_requests_total{{route=\"{route}\",method=\"{method}\",status=\"{status}\"}} {n}"
                );
            }
        }
        out.push_str(
            "# HELP http_request_duration_seconds Time to answer a request, by route.\n\
             # TYPE http_request_duration_seconds histogram\n",
        );
        for (route, stats) in routes {
            let labels = format!("route=\"{route}\"");
            stats
                .latency
                .render(&mut out, "http_request_duration_seconds", &labels);
        }
        out.push_str(
            "# HELP solve_duration_seconds Time spent in the solver per solve.\n\
             # TYPE solve_duration_seconds histogram\n",
        );
        if let Ok(h) = self.solve_time.lock() {
            h.render(&mut out, "solve_duration_seconds", "");
        }
        let scalars = [
            (
                "http_requests_in_flight",
                "gauge",
                "HTTP requests received and not yet answered (this one included).",
                self.requests_in_flight.load(Ordering::Relaxed),
            ),
            (
                "solves_in_flight",
                "gauge",
                "Solves running on the CPU pool now.",
                self.solves_in_flight.load(Ordering::Relaxed),
            ),
            (
                "solves_queued",
                "gauge",
                "Solves admitted and waiting for a CPU slot.",
                self.solves_queued.load(Ordering::Relaxed),
            ),
            (
                "solves_rejected_total",
                "counter",
                "Solves refused with 503 because the pool and its queue were full.",
                self.solves_rejected.load(Ordering::Relaxed) as i64,
            ),
            (
                "solves_inline_total",
                "counter",
                "Solves finished within the inline budget on the request's own worker.",
                self.solves_inline.load(Ordering::Relaxed) as i64,
            ),
            (
                "solves_budget_exhausted_total",
                "counter",
                "Solves that hit the search budget.",
                self.budget_exhausted.load(Ordering::Relaxed) as i64,
            ),
        ];
        for (name, kind, help, value) in scalars {
            let _ = writeln!(
                out,
                "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}"
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_counters_histograms_and_gauges() {
        let metrics = Metrics::default();
        metrics.observe_request("/solve", "POST", 200, Duration::from_micros(300));
        metrics.observe_request("/solve", "POST", 200, Duration::from_millis(20));
        metrics.observe_solve(Duration::from_micros(40));
        let guard = metrics.hold(Gauge::InFlight);
        let text = metrics.render();
        assert!(
            text.contains("http_requests_total{route=\"/solve\",method=\"POST\",status=\"200\"} 2")
        );
        assert!(
            text.contains("http_request_duration_seconds_bucket{route=\"/solve\",le=\"0.0005\"} 1")
        );
        assert!(
            text.contains("http_request_duration_seconds_bucket{route=\"/solve\",le=\"+Inf\"} 2")
        );
        assert!(text.contains("solve_duration_seconds_count 1"));
        assert!(text.contains("solves_in_flight 1"));
        drop(guard);
        assert!(metrics.render().contains("solves_in_flight 0"));
    }
}
