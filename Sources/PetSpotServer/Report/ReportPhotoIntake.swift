import Foundation
import Logging
import PetSpot
import PhotoPipeline

/// A photo a report form sent (with the form, or ahead of it from the page's script), prepared by
/// ``PhotoProcessor`` exactly as an API upload is — upright, at most 2048 px, no metadata — stored
/// by its content key and recorded as a ``PendingUpload`` for this browser, so the form refers to
/// it from then on. The original's GPS position is kept in the row (never in the photo) to be
/// offered for the location.
struct ReportPhotoIntake {
    let services: ServerServices

    enum Outcome {
        case kept(KeptPhoto)
        /// The pipeline refused the photo: the problem to show beside it.
        case refused(ValidationIssue)
    }

    /// Prepares and keeps `file`; `client`'s photos are prepared one at a time, as API uploads are.
    /// - Parameter header: the original's first bytes when the page's script made the photo
    ///   smaller before sending it (its GPS is read from them).
    func keep(_ file: UploadFile, header: [UInt8]?, browser: FormProtection.Browser, client: String, logger: Logger) async throws -> Outcome {
        guard let pending = services.store as? any PendingUploadStoring else { throw APIFailure.unavailable }
        let prepared: PhotoProcessor.Result
        do {
            let head = file.prefix(MediaSniffer.prefixLength)
            guard let type = MediaSniffer.sniff(head) else { throw PhotoError.notAnImage }
            guard type.isAccepted else { throw PhotoError.unsupportedType(type) }
            prepared = try await services.processor.process(file, client: client)
        } catch let error as PhotoError {
            guard let issue = PhotoRefusal.issue(for: error) else {
                logger.error("a report form's photo could not be prepared: \(error.code)")
                throw APIFailure.internalError
            }
            return .refused(issue)
        }
        let gps = prepared.gps ?? header.flatMap { try? PhotoPipeline.inspect($0).gps }
        let token = PendingUpload.newToken()
        let upload = PendingUpload(tokenDigest: PendingUpload.digest(ofToken: token), browserDigest: browser.digest,
                                   photoKey: prepared.key, width: prepared.size.width, height: prepared.size.height,
                                   latitude: gps?.latitude, longitude: gps?.longitude, createdAt: services.now())
        let photos = services.photos, data = prepared.data, key = prepared.key
        try await pending.insertPendingUpload(upload) { try await photos.store(data, as: key) }
        logger.debug("kept a report form's photo \(key) (\(data.count) bytes, \(prepared.keptAsSent ? "kept as sent" : "re-encoded"))")
        return .kept(KeptPhoto(token: token, upload: upload, place: await place(of: upload, logger: logger)))
    }

    /// The photo a form's token names, when it is this browser's and still usable; `nil` for a
    /// token that names none (never sent, or another browser's).
    /// - Throws: ``Expired`` for this browser's photo past ``PendingUpload/usableFor``.
    func kept(token: String, browser: FormProtection.Browser, logger: Logger) async throws -> KeptPhoto? {
        guard PendingUpload.isWellFormed(token), let pending = services.store as? any PendingUploadStoring,
              let upload = try await pending.pendingUpload(tokenDigest: PendingUpload.digest(ofToken: token)),
              upload.browserDigest == browser.digest else { return nil }
        guard services.now().timeIntervalSince(upload.createdAt) < PendingUpload.usableFor else { throw Expired() }
        return KeptPhoto(token: token, upload: upload, place: await place(of: upload, logger: logger))
    }

    struct Expired: Error {}

    /// Where the photo was taken in words, when it says and the gazetteer knows.
    private func place(of upload: PendingUpload, logger: Logger) async -> String? {
        guard let latitude = upload.latitude, let longitude = upload.longitude, let gazetteer = services.gazetteer else { return nil }
        do {
            return try await gazetteer.describe(latitude: latitude, longitude: longitude)
        } catch {
            logger.warning("no place name for a photo's position: \(error)")
            return nil
        }
    }
}
