import Hummingbird

/// `GET /health`: 200 `{"status":"ok"}` while the database answers, else 503.
struct HealthRoute<Context: RequestContext> {
    let services: ServerServices

    func register(on router: Router<Context>) {
        router.get("/health") { _, _ in
            do {
                try await services.store.ping()
            } catch {
                throw APIFailure.unavailable
            }
            return try JSONResponse.make(status: .ok, body: ["status": "ok"])
        }
    }
}
