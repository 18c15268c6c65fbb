package door

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/writes"
)

// metrics are the Prometheus metrics of the doors. Write outcomes and
// latencies are counted as the doors see them; the queue, drift and health
// gauges are read from the engine at each scrape, so they also count what
// the CLI and other processes did.
type metrics struct {
	writes   *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	waiting  prometheus.Gauge
}

func newMetrics(reg *prometheus.Registry, eng *engine.Engine) *metrics {
	m := &metrics{
		writes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "memgov_writes_total",
			Help: "Governed writes through the doors by outcome: status, the gate that decided and its reason code.",
		}, []string{"door", "status", "gate", "reason"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "memgov_write_duration_seconds",
			Help:    "Time the engine took to decide a governed write (waits for review excluded).",
			Buckets: []float64{.0005, .001, .002, .005, .01, .02, .05, .1, .25, .5, 1, 2.5},
		}, []string{"door", "status"}),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "memgov_http_requests_total",
			Help: "JSON API requests by route and HTTP status.",
		}, []string{"route", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "memgov_http_request_duration_seconds",
			Help:    "JSON API request latency by route.",
			Buckets: prometheus.DefBuckets,
		}, []string{"route"}),
		waiting: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "memgov_sync_waits",
			Help: "SYNC_BLOCK writes waiting for a person's decision now.",
		}),
	}
	reg.MustRegister(m.writes, m.latency, m.requests, m.duration, m.waiting, &engineCollector{eng: eng},
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

func (m *metrics) handler(reg *prometheus.Registry) http.Handler {
	return promhttp.HandlerFor(reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError})
}

func (m *metrics) observeWrite(door string, res memgov.WriteResult, err error, d time.Duration) {
	status := res.Status
	if err != nil {
		status = "ERROR"
	}
	m.writes.WithLabelValues(door, status, res.Gate, res.Reason).Inc()
	m.latency.WithLabelValues(door, status).Observe(d.Seconds())
}

// denied counts a write refused at the door because it named another agent.
func (m *metrics) denied(door string) {
	m.writes.WithLabelValues(door, memgov.StatusDenied, "door", "ACTING_AS_ANOTHER").Inc()
}

// statusWriter records the status a handler wrote.
type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (m *metrics) timed(route string, h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		h(sw, r)
		if sw.code == 0 {
			sw.code = http.StatusOK
		}
		m.requests.WithLabelValues(route, strconv.Itoa(sw.code)).Inc()
		m.duration.WithLabelValues(route).Observe(time.Since(start).Seconds())
	})
}

// engineCollector reads the review queue, drift and health from the engine
// at each scrape.
type engineCollector struct{ eng *engine.Engine }

var (
	queueDesc  = prometheus.NewDesc("memgov_review_queue_depth", "Open reviews by tier.", []string{"tier"}, nil)
	driftDesc  = prometheus.NewDesc("memgov_drift_episodes_open", "Open memory drift episodes.", nil, nil)
	healthDesc = prometheus.NewDesc("memgov_health_score", "The composite memory health score H_memory (0-1) over the last 30 days.", nil, nil)
	logDesc    = prometheus.NewDesc("memgov_log_entries", "Entries in the append-only log.", nil, nil)
	upDesc     = prometheus.NewDesc("memgov_engine_up", "1 when the engine answered the scrape.", nil, nil)
)

func (c *engineCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{queueDesc, driftDesc, healthDesc, logDesc, upDesc} {
		ch <- d
	}
}

func (c *engineCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	up := 1.0
	for _, tier := range []string{memgov.TierSync, writes.TierAsync} {
		_, n, err := c.eng.Reviews().List(ctx, memgov.ReviewQuery{Tier: tier, Limit: 1, Now: c.eng.Now()})
		if err != nil {
			up = 0
			continue
		}
		ch <- prometheus.MustNewConstMetric(queueDesc, prometheus.GaugeValue, float64(n), tier)
	}
	if es, err := c.eng.Baselines().ListDrift(ctx, memgov.DriftQuery{OpenOnly: true}); err == nil {
		ch <- prometheus.MustNewConstMetric(driftDesc, prometheus.GaugeValue, float64(len(es)))
	} else {
		up = 0
	}
	if m, err := c.eng.Audit().Metrics(ctx); err == nil {
		ch <- prometheus.MustNewConstMetric(healthDesc, prometheus.GaugeValue, m.Health)
	} else {
		up = 0
	}
	if n, err := c.eng.Audit().LogSize(ctx); err == nil {
		ch <- prometheus.MustNewConstMetric(logDesc, prometheus.GaugeValue, float64(n))
	} else {
		up = 0
	}
	ch <- prometheus.MustNewConstMetric(upDesc, prometheus.GaugeValue, up)
}
