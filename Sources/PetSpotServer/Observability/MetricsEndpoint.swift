import Hummingbird
import Logging
import Prometheus

/// `GET /metrics` in the Prometheus text format, on its own listener (`--metrics-port`) so the
/// public port never shows it unless the operator points it there.
public enum MetricsEndpoint {
    /// An application serving `registry` at `/metrics` on `host:port`.
    public static func make(registry: PrometheusCollectorRegistry, host: String, port: Int, logger: Logger,
                            onListening: @escaping @Sendable (String) async -> Void = { _ in }) -> some ApplicationProtocol {
        let router = Router()
        router.get("/metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
        return Application(router: router, configuration: .init(address: .hostname(host, port: port), serverName: "petspot-server"),
                           onServerRunning: { channel in
                               await onListening(PublicURL.base(host: host, port: channel.localAddress?.port ?? port) + "/metrics")
                           }, logger: logger)
    }
}
