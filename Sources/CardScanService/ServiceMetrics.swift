import CardScan
import CoreMetrics
import Foundation
import Metrics
import NIOCore
import Prometheus

/// What the service counts and times, through swift-metrics into its own Prometheus registry
/// (not the process-wide metrics system, so a library user's own bootstrap is left alone).
final class ServiceMetrics: Sendable {
    private let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    private let cards: CoreMetrics.Counter
    private let failedCards: CoreMetrics.Counter
    private let stages: [Stage: CoreMetrics.Timer]
    private let requestTime: CoreMetrics.Timer
    private let queueDepth: CoreMetrics.Gauge
    private let busyWorkers: CoreMetrics.Gauge

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        // Per-stage latencies run from a few milliseconds (parse) to seconds (a large photo's OCR).
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
            .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800),
            .seconds(1.5), .seconds(3), .seconds(6), .seconds(12),
        ]
        self.factory = factory
        cards = CoreMetrics.Counter(label: "cardscan_cards_total", factory: factory)
        failedCards = CoreMetrics.Counter(label: "cardscan_card_errors_total", factory: factory)
        var stages: [Stage: CoreMetrics.Timer] = [:]
        for stage in Stage.allCases where stage != .total {
            stages[stage] = CoreMetrics.Timer(label: "cardscan_stage_duration_seconds", dimensions: [("stage", stage.rawValue)], factory: factory)
        }
        self.stages = stages
        requestTime = CoreMetrics.Timer(label: "cardscan_request_duration_seconds", factory: factory)
        queueDepth = CoreMetrics.Gauge(label: "cardscan_queue_waiting", factory: factory)
        busyWorkers = CoreMetrics.Gauge(label: "cardscan_workers_busy", factory: factory)
    }

    /// Counts an answer by endpoint and status code.
    func response(endpoint: String, status: Int) {
        CoreMetrics.Counter(label: "cardscan_http_responses_total",
                dimensions: [("endpoint", endpoint), ("code", String(status))], factory: factory).increment()
    }

    /// Counts a scanned card and records its stages' times.
    func scanned(_ record: ScanRecord) {
        (record.status == .ok ? cards : failedCards).increment()
        for (stage, milliseconds) in record.timings.measured where stage != .total {
            stages[stage]?.recordMilliseconds(milliseconds)
        }
    }

    func requestFinished(after duration: Duration) {
        requestTime.recordNanoseconds(TimeAmount(duration).nanoseconds)
    }

    /// The queue's state when the metrics are read.
    func queue(waiting: Int, running: Int) {
        queueDepth.record(waiting)
        busyWorkers.record(running)
    }

    /// The Prometheus text exposition of every metric.
    func exposition() -> [UInt8] { registry.emitToBuffer() }
}
