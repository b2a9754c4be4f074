import ArgumentParser
import Foundation
import Logging
import Metrics
import Prometheus

/// How log lines are written: `text` for people, `json` for log shippers.
enum LogFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

enum LogSetup {
    static func bootstrap(format: LogFormat, level: Logger.Level) {
        LoggingSystem.bootstrap { label in
            switch format {
            case .text:
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            case .json:
                var handler = JSONLogHandler(label: label)
                handler.logLevel = level
                return handler
            }
        }
    }

    /// Sends swift-metrics to a Prometheus registry and returns it for `/metrics`.
    static func bootstrapMetrics() -> PrometheusCollectorRegistry {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [.milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
                                                   .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
                                                   .milliseconds(2500), .seconds(5), .seconds(10)]
        factory.defaultValueHistogramBuckets = [10_000, 50_000, 100_000, 250_000, 500_000, 1_000_000, 2_500_000, 5_000_000, 20_000_000]
        MetricsSystem.bootstrap(factory)
        return registry
    }
}

/// One JSON object per line on standard error: `time` (ISO 8601, UTC, ms), `level`, `label`,
/// `message`, then the metadata (`request_id`, `client`, `status`, …) as string fields.
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(label: String) {
        self.label = label
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var fields: [String: String] = [:]
        for (key, value) in metadata { fields[key] = "\(value)" }
        for (key, value) in metadataProvider?.get() ?? [:] { fields[key] = "\(value)" }
        for (key, value) in event.metadata ?? [:] { fields[key] = "\(value)" }
        // Hummingbird's own id is the request_id already.
        if fields["request_id"] != nil { fields["hb.request.id"] = nil }
        fields["time"] = Self.timestamp()
        fields["level"] = event.level.rawValue
        fields["label"] = label
        fields["message"] = "\(event.message)"
        var line = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        line.append(0x0A)
        FileHandle.standardError.write(line)
    }

    private static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var time = tm()
        var seconds = now.tv_sec
        gmtime_r(&seconds, &time)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", time.tm_year + 1900, time.tm_mon + 1, time.tm_mday,
                      time.tm_hour, time.tm_min, time.tm_sec, now.tv_nsec / 1_000_000)
    }
}
