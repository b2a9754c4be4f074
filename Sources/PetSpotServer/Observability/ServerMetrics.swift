import CoreMetrics
import Foundation

/// The server's metrics through swift-metrics (a no-op until `petspot-server --metrics-port`
/// bootstraps the Prometheus factory). Labels are bounded: routes are the registered patterns
/// (`/api/v1/announcements/{id}/photos`), never raw paths.
enum ServerMetrics {
    /// One finished request: `petspot_http_requests_total{route,method,status}` and
    /// `petspot_http_request_duration_seconds{route,method}`.
    static func request(route: String, method: String, status: Int, duration: Duration) {
        Counter(label: "petspot_http_requests_total",
                dimensions: [("route", route), ("method", method), ("status", String(status))]).increment()
        Timer(label: "petspot_http_request_duration_seconds", dimensions: [("route", route), ("method", method)])
            .recordNanoseconds(nanoseconds(duration))
    }

    /// One photo through the pipeline: its time, the bytes in and out.
    static func photoProcessed(inputBytes: Int, outputBytes: Int, duration: Duration, keptAsSent: Bool) {
        Timer(label: "petspot_photo_processing_seconds", dimensions: [("kept_as_sent", String(keptAsSent))])
            .recordNanoseconds(nanoseconds(duration))
        Recorder(label: "petspot_photo_input_bytes", aggregate: true).record(inputBytes)
        Recorder(label: "petspot_photo_output_bytes", aggregate: true).record(outputBytes)
    }

    /// One photo variant made and stored (`variant`: its name, one of the fixed set).
    static func variantGenerated(variant: String, outputBytes: Int, duration: Duration) {
        Timer(label: "petspot_variant_generation_seconds", dimensions: [("variant", variant)])
            .recordNanoseconds(nanoseconds(duration))
        Recorder(label: "petspot_variant_output_bytes", aggregate: true).record(outputBytes)
    }

    /// A database or photo-store failure that reached a client as 503 (`store`: database or photos).
    static func storageError(store: String) {
        Counter(label: "petspot_storage_errors_total", dimensions: [("store", store)]).increment()
    }

    /// Photo uploads received or processed right now.
    static func uploadsInFlight(_ count: Int) {
        Gauge(label: "petspot_uploads_in_flight").record(count)
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }
}
