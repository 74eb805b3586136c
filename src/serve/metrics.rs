//! Prometheus metrics at `/metrics`, in the text format: requests by route and status, their
//! latency, the computer player's searches (running, refused) and cache (hits, misses), and
//! the pictures drawn, refused and answered from their cache.
//!
//! One [`Metrics`] serves all the workers of a server (clones share the registry). Routes are
//! the patterns (`/api/v1/games/{game}/apply`), and paths no route took count as `unmatched`,
//! so a scanner cannot grow the label sets.

use std::sync::Arc;

use actix_web::http::{StatusCode, header};
use actix_web::{HttpResponse, get, web};
use prometheus::core::{Collector, Desc};
use prometheus::proto::{Counter, Gauge, LabelPair, Metric, MetricFamily, MetricType};
use prometheus::{
    Encoder, HistogramOpts, HistogramVec, IntCounterVec, Opts, Registry, TextEncoder,
};

use crate::compute::{Computer, Surface};
use crate::tables::Feed;
use crate::tables::health::StoreHealth;
use crate::tables::player_feed::Bells;
use crate::webhooks::DeliveryCounts;

/// Latency buckets, in seconds: most answers take tens of microseconds, searches up to seconds.
const BUCKETS: &[f64] = &[
    0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
    5.0,
];

/// The server's Prometheus registry: requests by route and status, their latency, and the
/// computer player's figures. Clones share it.
#[derive(Clone)]
pub struct Metrics {
    registry: Registry,
    requests: IntCounterVec,
    latency: HistogramVec,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Metrics")
    }
}

impl Metrics {
    /// A registry with the request metrics and `computer`'s search metrics.
    pub fn new<Api: Surface, Pages: Surface>(computer: &Computer<Api, Pages>) -> Self {
        let registry =
            Registry::new_custom(Some("moot".to_owned()), None).expect("a constant, valid prefix");
        let requests = IntCounterVec::new(
            Opts::new(
                "http_requests_total",
                "Requests answered, by route and status",
            ),
            &["method", "route", "status"],
        )
        .expect("constant, valid names");
        let latency = HistogramVec::new(
            HistogramOpts::new(
                "http_request_duration_seconds",
                "Time to answer a request (until the body starts), by route",
            )
            .buckets(BUCKETS.to_vec()),
            &["method", "route"],
        )
        .expect("constant, valid names");
        for collector in [
            Box::new(requests.clone()) as Box<dyn Collector>,
            Box::new(latency.clone()),
            Box::new(Searches::new(computer.clone())),
        ] {
            registry.register(collector).expect("names registered once");
        }
        Metrics {
            registry,
            requests,
            latency,
        }
    }

    /// Counts one answered request.
    pub fn record(&self, method: &str, route: &str, status: StatusCode, seconds: f64) {
        self.requests
            .with_label_values(&[method, route, status.as_str()])
            .inc();
        self.latency
            .with_label_values(&[method, route])
            .observe(seconds);
    }

    /// Adds the number of open event streams of `feed`'s tables, and of the players' feeds
    /// that `bells` rings.
    pub fn count_streams(&self, feed: Feed, bells: Arc<Bells>) {
        let gauges: [(&str, &str, OpenCount); 2] = [
            (
                "event_streams_open",
                "Tables' event streams open now",
                Box::new(move || feed.open()),
            ),
            (
                "player_feeds_open",
                "Players' feeds (event streams) open now",
                Box::new(move || bells.open()),
            ),
        ];
        for (name, help, open) in gauges {
            let collector = Streams {
                desc: Desc::new(name.to_owned(), help.to_owned(), vec![], Default::default())
                    .expect("constant, valid names"),
                open,
            };
            if let Err(error) = self.registry.register(Box::new(collector)) {
                tracing::warn!(%error, "the event streams are counted already");
            }
        }
    }

    /// Adds the tables' database: whether it takes writes, its writes by outcome and their
    /// latency, from `health`.
    pub fn count_database(&self, health: Arc<StoreHealth>) {
        let ready = DatabaseReady {
            desc: Desc::new(
                "database_ready".to_owned(),
                "1 while the tables' database takes writes, 0 since a write failed and until one succeeds".to_owned(),
                vec![],
                Default::default(),
            )
            .expect("constant, valid names"),
            health: health.clone(),
        };
        for collector in [
            Box::new(ready) as Box<dyn Collector>,
            Box::new(health.writes.clone()),
            Box::new(health.write_seconds.clone()),
        ] {
            if let Err(error) = self.registry.register(collector) {
                tracing::warn!(%error, "the database is counted already");
            }
        }
    }

    /// Adds the webhooks' deliveries by outcome, the outbox's backlog and the receivers whose
    /// breaker is open, from `counts`.
    pub fn count_webhooks(&self, counts: Arc<DeliveryCounts>) {
        let desc = |name: &str, help: &str, labels: Vec<String>| {
            Desc::new(name.to_owned(), help.to_owned(), labels, Default::default())
                .expect("constant, valid names")
        };
        let collector = Webhooks {
            descs: [
                desc(
                    "webhook_deliveries_total",
                    "Webhook delivery attempts, by outcome: delivered, retried (failed, tried again later), given_up",
                    vec!["outcome".to_owned()],
                ),
                desc(
                    "webhook_outbox_pending",
                    "Webhook events not yet delivered nor given up",
                    vec![],
                ),
                desc(
                    "webhook_outbox_oldest_seconds",
                    "Age of the oldest webhook event not yet delivered nor given up (0: none)",
                    vec![],
                ),
                desc(
                    "webhook_breakers_open",
                    "Webhook receivers (hosts) this process leaves alone until a trial: their circuit breaker is open",
                    vec![],
                ),
                desc(
                    "webhook_receiver_pending",
                    "Webhook events not yet delivered nor given up, by receiver (host and port; the 50 largest backlogs)",
                    vec!["receiver".to_owned()],
                ),
                desc(
                    "webhook_receiver_oldest_seconds",
                    "Age of each receiver's oldest webhook event not yet delivered nor given up (the 50 largest backlogs)",
                    vec!["receiver".to_owned()],
                ),
            ],
            counts,
        };
        if let Err(error) = self.registry.register(Box::new(collector)) {
            tracing::warn!(%error, "the webhooks are counted already");
        }
    }

    /// Every metric in Prometheus' text format.
    pub fn render(&self) -> String {
        let mut text = Vec::new();
        // Writing to a Vec fails only on an inconsistent family, which the registry prevents.
        let _ = TextEncoder::new().encode(&self.registry.gather(), &mut text);
        String::from_utf8(text).unwrap_or_default()
    }
}

/// `GET /metrics`: for a Prometheus server to scrape; keep it off the public internet (see
/// docs/deploy.md).
#[get("/metrics")]
pub async fn endpoint(metrics: web::Data<Metrics>) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, TextEncoder::new().format_type()))
        .body(metrics.render())
}

/// The computer player's numbers, read from its pools and the API's cache when scraped.
struct Searches<Api, Pages> {
    computer: Computer<Api, Pages>,
    descs: Vec<Desc>,
}

/// (name without the `moot_` prefix, help, type) of each search metric, in the order [`Searches::values`] gives them.
const SEARCH_METRICS: [(&str, &str, MetricType); 8] = [
    (
        "searches_running",
        "Searches (evaluate, hints, the computer's moves) running now",
        MetricType::GAUGE,
    ),
    (
        "searches_refused_total",
        "Searches refused because the most allowed at once were running (503 overloaded)",
        MetricType::COUNTER,
    ),
    (
        "evaluate_cache_hits_total",
        "evaluate answers found in the cache",
        MetricType::COUNTER,
    ),
    (
        "evaluate_cache_misses_total",
        "evaluate requests that could be cached but were not in the cache",
        MetricType::COUNTER,
    ),
    (
        "page_searches_total",
        "Play-page searches started (the computer's moves, hints); joined requests not counted",
        MetricType::COUNTER,
    ),
    (
        "pictures_drawn_total",
        "Pictures and animations drawn (not answered from the cache or with 304)",
        MetricType::COUNTER,
    ),
    (
        "pictures_refused_total",
        "Pictures refused because the most drawn at once were being drawn (503 overloaded)",
        MetricType::COUNTER,
    ),
    (
        "picture_cache_hits_total",
        "Pictures and animations answered from the cache of finished answers",
        MetricType::COUNTER,
    ),
];

impl<Api: Surface, Pages: Surface> Searches<Api, Pages> {
    fn new(computer: Computer<Api, Pages>) -> Self {
        let descs = SEARCH_METRICS
            .iter()
            .map(|(name, help, _)| {
                Desc::new(
                    (*name).to_owned(),
                    (*help).to_owned(),
                    vec![],
                    Default::default(),
                )
                .expect("constant, valid names")
            })
            .collect();
        Searches { computer, descs }
    }

    fn values(&self) -> [f64; 8] {
        let (api, pages) = (self.computer.api(), self.computer.pages());
        let renders = self.computer.renders();
        // The API's searches running and refused; the pages' searches started.
        [
            api.permits().running() as f64,
            api.permits().refused() as f64,
            api.cache_counts().0 as f64,
            api.cache_counts().1 as f64,
            pages.permits().started() as f64,
            renders.count() as f64,
            renders.pool().refused() as f64,
            renders.cache().hits() as f64,
        ]
    }
}

impl<Api: Surface, Pages: Surface> Collector for Searches<Api, Pages> {
    fn desc(&self) -> Vec<&Desc> {
        self.descs.iter().collect()
    }

    fn collect(&self) -> Vec<MetricFamily> {
        SEARCH_METRICS
            .iter()
            .zip(self.values())
            .map(|((name, help, kind), value)| {
                let metric = if *kind == MetricType::GAUGE {
                    let mut gauge = Gauge::default();
                    gauge.set_value(value);
                    Metric::from_gauge(gauge)
                } else {
                    let mut counter = Counter::default();
                    counter.set_value(value);
                    let mut metric = Metric::default();
                    metric.set_counter(counter);
                    metric
                };
                let mut family = MetricFamily::default();
                family.set_name((*name).to_owned());
                family.set_help((*help).to_owned());
                family.set_field_type(*kind);
                family.set_metric(vec![metric]);
                family
            })
            .collect()
    }
}

/// How many streams are open now.
type OpenCount = Box<dyn Fn() -> usize + Send + Sync>;

/// Open event streams, counted when scraped.
struct Streams {
    open: OpenCount,
    desc: Desc,
}

impl Collector for Streams {
    fn desc(&self) -> Vec<&Desc> {
        vec![&self.desc]
    }

    fn collect(&self) -> Vec<MetricFamily> {
        let mut gauge = Gauge::default();
        gauge.set_value((self.open)() as f64);
        let mut family = MetricFamily::default();
        family.set_name(self.desc.fq_name.clone());
        family.set_help(self.desc.help.clone());
        family.set_field_type(MetricType::GAUGE);
        family.set_metric(vec![Metric::from_gauge(gauge)]);
        vec![family]
    }
}

/// Whether the tables' database takes writes, read from its health when scraped.
struct DatabaseReady {
    health: Arc<StoreHealth>,
    desc: Desc,
}

impl Collector for DatabaseReady {
    fn desc(&self) -> Vec<&Desc> {
        vec![&self.desc]
    }

    fn collect(&self) -> Vec<MetricFamily> {
        let ready = self.health.failure().is_none();
        vec![family(
            &self.desc,
            MetricType::GAUGE,
            vec![gauge(if ready { 1.0 } else { 0.0 })],
        )]
    }
}

/// Keeps the shared metrics alive as app data for [`endpoint`].
pub fn data(metrics: &Metrics) -> web::Data<Metrics> {
    web::Data::from(Arc::new(metrics.clone()))
}

/// The webhooks' deliveries and outbox, read from the delivery worker's counts when scraped.
struct Webhooks {
    counts: Arc<DeliveryCounts>,
    descs: [Desc; 6],
}

fn family(desc: &Desc, kind: MetricType, metrics: Vec<Metric>) -> MetricFamily {
    let mut family = MetricFamily::default();
    family.set_name(desc.fq_name.clone());
    family.set_help(desc.help.clone());
    family.set_field_type(kind);
    family.set_metric(metrics);
    family
}

fn gauge(value: f64) -> Metric {
    let mut gauge = Gauge::default();
    gauge.set_value(value);
    Metric::from_gauge(gauge)
}

impl Collector for Webhooks {
    fn desc(&self) -> Vec<&Desc> {
        self.descs.iter().collect()
    }

    fn collect(&self) -> Vec<MetricFamily> {
        use std::sync::atomic::Ordering::Relaxed;
        let counts = &self.counts;
        let outcomes = [
            ("delivered", counts.delivered.load(Relaxed)),
            ("retried", counts.retried.load(Relaxed)),
            ("given_up", counts.given_up.load(Relaxed)),
        ]
        .into_iter()
        .map(|(outcome, value)| {
            let mut label = LabelPair::default();
            label.set_name("outcome".to_owned());
            label.set_value(outcome.to_owned());
            let mut counter = Counter::default();
            counter.set_value(value as f64);
            let mut metric = Metric::default();
            metric.set_label(vec![label]);
            metric.set_counter(counter);
            metric
        })
        .collect();
        let age = age_of(counts.oldest_pending.load(Relaxed));
        let receivers = counts
            .receivers
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        vec![
            family(&self.descs[0], MetricType::COUNTER, outcomes),
            family(
                &self.descs[1],
                MetricType::GAUGE,
                vec![gauge(counts.pending.load(Relaxed) as f64)],
            ),
            family(&self.descs[2], MetricType::GAUGE, vec![gauge(age)]),
            family(
                &self.descs[3],
                MetricType::GAUGE,
                vec![gauge(counts.breakers_open.load(Relaxed) as f64)],
            ),
            family(
                &self.descs[4],
                MetricType::GAUGE,
                by_receiver(&receivers, |r| r.pending as f64),
            ),
            family(
                &self.descs[5],
                MetricType::GAUGE,
                by_receiver(&receivers, |r| age_of(r.oldest)),
            ),
        ]
    }
}

/// Seconds since `at` (milliseconds since the epoch; 0: nothing, no age).
fn age_of(at: crate::tables::Millis) -> f64 {
    if at == 0 {
        0.0
    } else {
        (crate::tables::now() - at).max(0) as f64 / 1000.0
    }
}

/// A gauge per receiver, labelled with it, valued by `value`.
fn by_receiver(
    receivers: &[crate::tables::outbox::ReceiverBacklog],
    value: impl Fn(&crate::tables::outbox::ReceiverBacklog) -> f64,
) -> Vec<Metric> {
    receivers
        .iter()
        .map(|receiver| {
            let mut label = LabelPair::default();
            label.set_name("receiver".to_owned());
            label.set_value(receiver.host.clone());
            let mut metric = gauge(value(receiver));
            metric.set_label(vec![label]);
            metric
        })
        .collect()
}
