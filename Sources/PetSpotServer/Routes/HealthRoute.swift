import Hummingbird

/// `GET /health`: 200 `{"status":"ok"}` while the database and the upload folder can both be
/// written and the photo store answers, else 503 `storage_unavailable` — a full disk fails every upload, so it must not
/// look healthy.
struct HealthRoute<Context: RequestContext> {
    let services: ServerServices

    func register(on router: Router<Context>) {
        router.get("/health") { _, context in
            do {
                try await services.store.ping()
                try await services.photos.checkAvailable()
                // A small file where uploads land: the disk has room for at least that.
                let probe = try UploadFile(in: services.uploadDirectory)
                try [UInt8](repeating: 0, count: 4096).withUnsafeBytes { try probe.append($0) }
                try probe.sync()
            } catch {
                context.logger.error("health: storage cannot write: \(error)")
                throw APIFailure.storageUnavailable
            }
            return try JSONResponse.make(status: .ok, body: ["status": "ok"])
        }
    }
}
