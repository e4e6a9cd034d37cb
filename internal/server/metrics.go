package server

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/watch"
)

// metrics are what /metrics shows: the server's requests, what it added,
// the index's contents and, when a watcher runs in the server, the
// watcher's counters.
type metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	added    *prometheus.CounterVec
}

func newMetrics(x Index, watcher func() watch.Totals) *metrics {
	m := &metrics{reg: prometheus.NewRegistry()}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "neardup_http_requests_total",
		Help: "HTTP requests answered, by route and status code."}, []string{"route", "code"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "neardup_http_request_duration_seconds",
		Help:    "Time to answer an HTTP request, by route.",
		Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}}, []string{"route"})
	m.added = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "neardup_documents_posted_total",
		Help: "Documents posted to this server, by what became of them (added, replaced, unchanged, exists, conflict, superseded, skipped)."}, []string{"status"})
	m.reg.MustRegister(m.requests, m.latency, m.added, &indexCollector{x: x},
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if watcher != nil {
		m.reg.MustRegister(&watchCollector{totals: watcher})
	}
	return m
}

// instrument counts and times each request by the route that served it.
func (m *metrics) instrument(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, code: http.StatusOK}
		next.ServeHTTP(sw, r)
		route := r.Pattern
		if route == "" {
			route = "other"
		}
		m.requests.WithLabelValues(route, strconv.Itoa(sw.code)).Inc()
		m.latency.WithLabelValues(route).Observe(time.Since(start).Seconds())
	})
}

// statusWriter remembers the status code written.
type statusWriter struct {
	http.ResponseWriter
	code  int
	wrote bool
}

func (w *statusWriter) WriteHeader(code int) {
	if !w.wrote {
		w.code, w.wrote = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	w.wrote = true
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// indexCollector shows the index's counts, as index.Index.RecentStats
// keeps them: counting a large index reads every document, so a scrape
// shows counts up to ten seconds old rather than wait for them.
type indexCollector struct {
	x Index
}

var (
	docsDesc     = prometheus.NewDesc("neardup_documents", "Documents stored in the index.", nil, nil)
	skippedDesc  = prometheus.NewDesc("neardup_documents_skipped", "Stored documents the method did not compare, by reason.", []string{"reason"}, nil)
	marksDesc    = prometheus.NewDesc("neardup_marks", "Pairs marked in the index, by label.", []string{"label"}, nil)
	clustersDesc = prometheus.NewDesc("neardup_clusters", "Clusters of duplicates in the index.", nil, nil)
	upDesc       = prometheus.NewDesc("neardup_index_up", "Whether the index's counts could be read (1) or not (0).", nil, nil)
)

func (c *indexCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{docsDesc, skippedDesc, marksDesc, clustersDesc, upDesc} {
		ch <- d
	}
}

func (c *indexCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	st, err := c.x.RecentStats(ctx)
	cancel()
	if err != nil {
		ch <- prometheus.MustNewConstMetric(upDesc, prometheus.GaugeValue, 0)
		return
	}
	ch <- prometheus.MustNewConstMetric(upDesc, prometheus.GaugeValue, 1)
	ch <- prometheus.MustNewConstMetric(docsDesc, prometheus.GaugeValue, float64(st.Documents))
	ch <- prometheus.MustNewConstMetric(clustersDesc, prometheus.GaugeValue, float64(st.Clusters))
	for reason, n := range st.Skipped {
		ch <- prometheus.MustNewConstMetric(skippedDesc, prometheus.GaugeValue, float64(n), string(reason))
	}
	for _, l := range []string{"duplicate", "similar"} {
		ch <- prometheus.MustNewConstMetric(marksDesc, prometheus.GaugeValue, float64(st.Marks[core.Label(l)]), l)
	}
}

// watchCollector shows a watcher's Totals.
type watchCollector struct {
	totals func() watch.Totals
}

var (
	pollsDesc = prometheus.NewDesc("neardup_watch_polls_total", "Feed polls by the watcher in this server, by status.", []string{"status"}, nil)
	itemsDesc = prometheus.NewDesc("neardup_watch_items_total", "New feed items the watcher dealt with, by outcome.", []string{"outcome"}, nil)
	watchUp   = prometheus.NewDesc("neardup_watch_up", "Whether the watcher in this server runs (1) or an error stopped it (0).", nil, nil)
)

func (c *watchCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- pollsDesc
	ch <- itemsDesc
	ch <- watchUp
}

func (c *watchCollector) Collect(ch chan<- prometheus.Metric) {
	t := c.totals()
	up := 1.0
	if t.Stopped != "" {
		up = 0
	}
	ch <- prometheus.MustNewConstMetric(watchUp, prometheus.GaugeValue, up)
	for k, n := range t.Polls {
		ch <- prometheus.MustNewConstMetric(pollsDesc, prometheus.CounterValue, float64(n), k)
	}
	for k, n := range t.Items {
		ch <- prometheus.MustNewConstMetric(itemsDesc, prometheus.CounterValue, float64(n), k)
	}
}
