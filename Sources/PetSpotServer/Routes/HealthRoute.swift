import Hummingbird
import PetSpot

/// `GET /health` (readiness): 200 `{"status":"ok"}` while this replica can write its database,
/// reach its photo store and write its upload folder; else 503 `storage_unavailable` whose
/// `field` says which — `database`, `photos` or `uploads` — so a load balancer takes the
/// replica out and an operator sees why. A full disk fails every upload, so it must not look
/// healthy. `GET /health/live` (liveness): 200 while the process answers at all, whatever its
/// storage does — restarting a replica does not bring back a database. The checks run at most
/// once a second (``HealthProbe``); in between, the last answer is given again.
struct HealthRoute<Context: RequestContext> {
    let services: ServerServices
    /// The checks run at most once a second; requests meanwhile get their answer.
    let probe = HealthProbe()

    func register(on router: Router<Context>) {
        router.get("/health/live") { _, _ in
            try JSONResponse.make(status: .ok, body: ["status": "ok"])
        }
        router.get("/health") { _, context in
            let services = self.services, logger = context.logger
            let outcome = await probe.answer {
                for (part, check) in Self.checks(services) {
                    do {
                        try await check()
                    } catch {
                        logger.error("health: \(part) is not available: \(error)")
                        return .unavailable(part: part)
                    }
                }
                return .ready
            }
            if case .unavailable(let part) = outcome {
                throw APIFailure(status: .serviceUnavailable, error: APIError(
                    code: .storageUnavailable, message: "This server cannot use its \(healthPartNames[part] ?? part) right now. Try again later.",
                    field: part), headers: [.retryAfter: "5"])
            }
            return try JSONResponse.make(status: .ok, body: ["status": "ok"])
        }
    }

    /// The parts checked, in order: the database is written, the photo store reached, and a small
    /// file written and flushed where uploads land (the disk has room for at least that).
    private static func checks(_ services: ServerServices) -> [(String, @Sendable () async throws -> Void)] {
        [
            ("database", { try await services.store.ping() }),
            ("photos", { try await services.photos.checkAvailable() }),
            ("uploads", {
                let probe = try UploadFile(in: services.uploadDirectory)
                try [UInt8](repeating: 0, count: 4096).withUnsafeBytes { try probe.append($0) }
                try probe.sync()
            }),
        ]
    }
}

/// What `/health`'s parts are called in its messages.
private let healthPartNames = ["database": "database", "photos": "photo store", "uploads": "upload folder (disk full or read-only?)"]
