//! What `/metrics` reports, kept with `prometheus-client` (the Prometheus project's Rust
//! client) and rendered in the OpenMetrics text format, which Prometheus scrapes natively.
//!
//! Each server owns its own [`Metrics`] and `Registry` (no global recorder), so that test
//! servers in one process stay independent. Label values come from fixed sets (the service's
//! route patterns, standard methods, status codes) so a scanner probing random paths cannot
//! grow the series count.

use std::sync::OnceLock;
use std::time::Duration;

use prometheus_client::encoding::text::encode;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge as GaugeMetric;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;

/// Upper bounds of the latency buckets, in seconds.
const BUCKETS: [f64; 14] = [
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0,
];

/// The content type of [`Metrics::render`]'s output.
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    route: &'static str,
    method: &'static str,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabels {
    route: &'static str,
}

fn latency_histogram() -> Histogram {
    Histogram::new(BUCKETS)
}

/// Everything `/metrics` reports. The fields are handles into `registry` (cheap clones of
/// atomics), updated from the request path without a lock of ours.
#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    request_time: Family<RouteLabels, Histogram, fn() -> Histogram>,
    requests_in_flight: GaugeMetric,
    solve_time: Histogram,
    solves_in_flight: GaugeMetric,
    solves_queued: GaugeMetric,
    solves_rejected: Counter,
    budget_exhausted: Counter,
    solves_inline: Counter,
    /// The request series' handles, looked up in the families once per route (and method).
    handles: Handles,
}

/// Methods the `method` label takes (the observe middleware's fixed set).
const METHODS: [&str; 8] = [
    "GET", "POST", "HEAD", "OPTIONS", "PUT", "DELETE", "PATCH", "other",
];
/// Route slots: the service's patterns, then one for anything else ("unmatched").
const ROUTES: usize = super::ROUTE_PATTERNS.len() + 1;

/// Handles into the request families, resolved on first use: a family lookup hashes the
/// labels and takes the family's lock, every request, for the same few series. Resolved
/// lazily so that `/metrics` shows exactly the series that were used, as before. Only 200
/// answers have a cached counter (nearly every request); other statuses look theirs up.
#[derive(Debug)]
struct Handles {
    ok: [OnceLock<Counter>; ROUTES * METHODS.len()],
    time: [OnceLock<Histogram>; ROUTES],
}

impl Default for Handles {
    fn default() -> Self {
        Handles {
            ok: std::array::from_fn(|_| OnceLock::new()),
            time: std::array::from_fn(|_| OnceLock::new()),
        }
    }
}

fn route_slot(route: &str) -> usize {
    super::ROUTE_PATTERNS
        .iter()
        .position(|&p| p == route)
        .unwrap_or(ROUTES - 1)
}

fn method_slot(method: &str) -> usize {
    METHODS
        .iter()
        .position(|&m| m == method)
        .unwrap_or(METHODS.len() - 1)
}

impl Default for Metrics {
    fn default() -> Self {
        let mut registry = Registry::default();
        let requests = Family::<RequestLabels, Counter>::default();
        registry.register(
            "http_requests",
            "HTTP requests answered, by route, method and status",
            requests.clone(),
        );
        let request_time =
            Family::<RouteLabels, Histogram, fn() -> Histogram>::new_with_constructor(
                latency_histogram,
            );
        registry.register(
            "http_request_duration_seconds",
            "Time to answer a request, by route",
            request_time.clone(),
        );
        let requests_in_flight = GaugeMetric::default();
        registry.register(
            "http_requests_in_flight",
            "HTTP requests received and not yet answered (this one included)",
            requests_in_flight.clone(),
        );
        let solve_time = latency_histogram();
        registry.register(
            "solve_duration_seconds",
            "Time spent on the solver threads per job",
            solve_time.clone(),
        );
        let solves_in_flight = GaugeMetric::default();
        registry.register(
            "solves_in_flight",
            "Jobs running on the solver threads now",
            solves_in_flight.clone(),
        );
        let solves_queued = GaugeMetric::default();
        registry.register(
            "solves_queued",
            "Jobs admitted and waiting for a solver thread",
            solves_queued.clone(),
        );
        let solves_rejected = Counter::default();
        registry.register(
            "solves_rejected",
            "Jobs refused with 503 because the pool and its queue were full",
            solves_rejected.clone(),
        );
        let budget_exhausted = Counter::default();
        registry.register(
            "solves_budget_exhausted",
            "Jobs (or batch items) that used their whole work budget",
            budget_exhausted.clone(),
        );
        let solves_inline = Counter::default();
        registry.register(
            "solves_inline",
            "Solves finished within the inline budget on the request's own worker",
            solves_inline.clone(),
        );
        Metrics {
            registry,
            requests,
            request_time,
            requests_in_flight,
            solve_time,
            solves_in_flight,
            solves_queued,
            solves_rejected,
            budget_exhausted,
            solves_inline,
            handles: Handles::default(),
        }
    }
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
        self.metrics.gauge(self.gauge).dec();
    }
}

impl Metrics {
    fn gauge(&self, gauge: Gauge) -> &GaugeMetric {
        match gauge {
            Gauge::Requests => &self.requests_in_flight,
            Gauge::InFlight => &self.solves_in_flight,
            Gauge::Queued => &self.solves_queued,
        }
    }

    /// Holds `gauge` one higher while the guard lives.
    pub fn hold(&self, gauge: Gauge) -> GaugeGuard<'_> {
        self.gauge(gauge).inc();
        GaugeGuard {
            metrics: self,
            gauge,
        }
    }

    /// Raises `gauge` by one until a matching [`Metrics::release_detached`]; for a count that
    /// is raised on one thread and lowered on another.
    pub fn hold_detached(&self, gauge: Gauge) {
        self.gauge(gauge).inc();
    }

    /// Lowers a gauge raised with [`Metrics::hold_detached`].
    pub fn release_detached(&self, gauge: Gauge) {
        self.gauge(gauge).dec();
    }

    /// Records one answered request. `route` is a route pattern or "unmatched".
    pub fn observe_request(
        &self,
        route: &'static str,
        method: &'static str,
        status: u16,
        elapsed: Duration,
    ) {
        let labels = RequestLabels {
            route,
            method,
            status,
        };
        let slot = route_slot(route);
        if status == 200 {
            self.handles.ok[slot * METHODS.len() + method_slot(method)]
                .get_or_init(|| self.requests.get_or_create(&labels).clone())
                .inc();
        } else {
            self.requests.get_or_create(&labels).inc();
        }
        self.handles.time[slot]
            .get_or_init(|| {
                self.request_time
                    .get_or_create(&RouteLabels { route })
                    .clone()
            })
            .observe(elapsed.as_secs_f64());
    }

    /// Records the solver time of one job.
    pub fn observe_solve(&self, elapsed: Duration) {
        self.solve_time.observe(elapsed.as_secs_f64());
    }

    /// Records a solve that finished within the inline budget, without a hand-off.
    pub fn observe_inline_solve(&self, elapsed: Duration) {
        self.solves_inline.inc();
        self.observe_solve(elapsed);
    }

    /// Counts a job refused because every slot and queue place was taken.
    pub fn count_rejected(&self) {
        self.solves_rejected.inc();
    }

    /// Counts a job that used its whole work budget.
    pub fn count_budget_exhausted(&self) {
        self.budget_exhausted.inc();
    }

    /// The OpenMetrics text exposition ([`CONTENT_TYPE`]).
    pub fn render(&self) -> String {
        let mut out = String::with_capacity(8192);
        // Writing into a String cannot fail.
        let _ = encode(&mut out, &self.registry);
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
        for line in [
            "http_requests_total{route=\"/solve\",method=\"POST\",status=\"200\"} 2",
            "http_request_duration_seconds_bucket{le=\"0.0005\",route=\"/solve\"} 1",
            "http_request_duration_seconds_bucket{le=\"+Inf\",route=\"/solve\"} 2",
            "solve_duration_seconds_count 1",
            "solves_in_flight 1",
            "solves_rejected_total 0",
            "# EOF",
        ] {
            assert!(text.lines().any(|l| l == line), "missing {line} in\n{text}");
        }
        drop(guard);
        assert!(metrics.render().lines().any(|l| l == "solves_in_flight 0"));
    }

    /// The cached handles count into the families' own series: the counts of 200s (cached)
    /// and other statuses (looked up) add up per series, and unused series stay unlisted.
    #[test]
    fn cached_handles_count_into_the_same_series() {
        let metrics = Metrics::default();
        for _ in 0..3 {
            metrics.observe_request("/solve", "POST", 200, Duration::from_micros(50));
        }
        metrics.observe_request("/solve", "POST", 422, Duration::from_micros(50));
        metrics.observe_request("unmatched", "other", 200, Duration::from_micros(50));
        let text = metrics.render();
        for line in [
            "http_requests_total{route=\"/solve\",method=\"POST\",status=\"200\"} 3",
            "http_requests_total{route=\"/solve\",method=\"POST\",status=\"422\"} 1",
            "http_requests_total{route=\"unmatched\",method=\"other\",status=\"200\"} 1",
            "http_request_duration_seconds_count{route=\"/solve\"} 4",
            "http_request_duration_seconds_count{route=\"unmatched\"} 1",
        ] {
            assert!(text.lines().any(|l| l == line), "missing {line} in\n{text}");
        }
        assert!(!text.contains("route=\"/grade\""), "{text}");
    }
}
