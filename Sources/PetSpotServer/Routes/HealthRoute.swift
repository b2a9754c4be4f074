import Hummingbird
import PetSpot

/// `GET /health` (readiness): 200 `{"status":"ok"}` while this replica can write its database,
/// reach its photo store and write its upload folder; else 503 `storage_unavailable` whose
/// `field` says which — `database`, `photos` or `uploads` — so a load balancer takes the
/// replica out and an operator sees why. A full disk fails every upload, so it must not look
/// healthy. `GET /health/live` (liveness): 200 while the process answers at all, whatever its
/// storage does — restarting a replica does not bring back a database.
struct HealthRoute<Context: RequestContext> {
    let services: ServerServices

    func register(on router: Router<Context>) {
        router.get("/health/live") { _, _ in
            try JSONResponse.make(status: .ok, body: ["status": "ok"])
        }
        router.get("/health") { _, context in
            let services = self.services
            try await Self.probe("database", context: context) { try await services.store.ping() }
            try await Self.probe("photos", context: context) { try await services.photos.checkAvailable() }
            try await Self.probe("uploads", context: context) {
                // A small file where uploads land: the disk has room for at least that.
                let probe = try UploadFile(in: services.uploadDirectory)
                try [UInt8](repeating: 0, count: 4096).withUnsafeBytes { try probe.append($0) }
                try probe.sync()
            }
            return try JSONResponse.make(status: .ok, body: ["status": "ok"])
        }
    }

    /// Runs one check; a failure is 503 naming the part that failed.
    private static func probe(_ part: String, context: Context, _ check: () async throws -> Void) async throws {
        do {
            try await check()
        } catch {
            context.logger.error("health: \(part) is not available: \(error)")
            throw APIFailure(status: .serviceUnavailable, error: APIError(
                code: .storageUnavailable, message: "This server cannot use its \(healthPartNames[part] ?? part) right now. Try again later.",
                field: part), headers: [.retryAfter: "5"])
        }
    }
}

/// What `/health`'s parts are called in its messages.
private let healthPartNames = ["database": "database", "photos": "photo store", "uploads": "upload folder (disk full or read-only?)"]
