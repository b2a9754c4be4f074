import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PetSpot

/// After posting, with the owner's Basic credentials: `PATCH /api/v1/announcements/{id}` (a
/// JSON merge patch; `If-Match` makes it conditional), `DELETE …/{id}/photo` (the photo and its
/// sizes), `DELETE …/{id}` (taken down: 410 Gone afterwards, its details erased).
struct AnnouncementLifecycleRoutes<Context: ClientRequestContext & ContinueRequestContext> {
    let services: ServerServices
    var owner: OwnerCheck { OwnerCheck(services: services) }

    func register(on router: Router<Context>) {
        router.patch("/api/v1/announcements/:id") { request, context in
            try await patch(request, idText: context.parameters.get("id") ?? "", context: context)
        }
        router.delete("/api/v1/announcements/:id/photo") { request, context in
            try await deletePhoto(request, idText: context.parameters.get("id") ?? "", context: context)
        }
        router.delete("/api/v1/announcements/:id") { request, context in
            try await takeDown(request, idText: context.parameters.get("id") ?? "", context: context)
        }
    }

    /// The media types a patch may be sent as.
    static var patchTypes: Set<String> { ["application/json", "application/merge-patch+json"] }

    private func patch(_ request: Request, idText: String, context: Context) async throws -> Response {
        var current = try await owner.authorized(request, idText: idText, context: context)
        guard Self.patchTypes.contains(HeaderParameters(request.headers[.contentType] ?? "").value) else {
            throw APIFailure(status: .unsupportedMediaType, error: APIError(
                code: .unsupportedMediaType,
                message: "Send the change as a JSON merge patch: Content-Type application/merge-patch+json or application/json."))
        }
        // An empty If-Match names no version: as if absent.
        let ifMatch = request.headers[.ifMatch].flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        let body = try await request.smallBody(upTo: CreateRequestIntake.maximumBodyBytes, what: "patch", context: context)
        // Without If-Match a change made meanwhile is read again and the patch applied over it
        // (a merge patch says what to set, not what was seen); with it, that is 412.
        for _ in 0..<3 {
            // A patch the rules refuse is 400 whatever version it names.
            var changed = try AnnouncementPatch.apply(Data(buffer: body), to: current, now: services.now())
            if changed.request.locationLatitude != current.request.locationLatitude
                || changed.request.locationLongitude != current.request.locationLongitude {
                changed.placeText = await services.placeText(for: changed.request, logger: context.logger)
            }
            if let ifMatch, !AnnouncementETag.matches(ifMatch, current) { throw APIFailure.changedMeanwhile }
            if let stored = try await services.store.update(changed, outbox: services.outboxForChangedReport(changed, at: changed.updatedAt)) {
                services.mail?.queued()
                return try await ownerView(stored, status: .ok)
            }
            current = try await owner.live(idText)
        }
        throw APIFailure.changedMeanwhile
    }

    private func deletePhoto(_ request: Request, idText: String, context: Context) async throws -> Response {
        let current = try await owner.authorized(request, idText: idText, context: context)
        guard let previous = try await services.store.detachPhoto(id: current.id, at: services.now()) else {
            throw APIFailure.gone
        }
        if let key = previous { await services.removePhotoIfUnreferenced(key, logger: context.logger) }
        return try await noContent(current.id)
    }

    private func takeDown(_ request: Request, idText: String, context: Context) async throws -> Response {
        let current = try await owner.authorized(request, idText: idText, context: context)
        guard let previous = try await services.store.takeDown(id: current.id, at: services.now()) else {
            throw APIFailure.gone
        }
        if let key = previous { await services.removePhotoIfUnreferenced(key, logger: context.logger) }
        context.logger.info("announcement taken down by its owner", metadata: ["announcement": .string(current.id.rawValue)])
        return Response(status: .noContent, headers: [.cacheControl: "no-store"])
    }

    private func noContent(_ id: AnnouncementID) async throws -> Response {
        guard case .live(let now) = try await services.store.lookup(id: id) else {
            return Response(status: .noContent, headers: [.cacheControl: "no-store"])
        }
        return Response(status: .noContent, headers: [.cacheControl: "no-store", .eTag: AnnouncementETag.value(now, ownerView: true)])
    }

    /// The announcement as its owner sees it (contact details even when closed), with its ETag.
    func ownerView(_ stored: StoredAnnouncement, status: HTTPResponse.Status) async throws -> Response {
        let details = await services.details([stored], showContact: true)[0]
        return try JSONResponse.make(status: status, body: details,
                                     headers: [.eTag: AnnouncementETag.value(stored, ownerView: true), .cacheControl: "no-store"])
    }
}
