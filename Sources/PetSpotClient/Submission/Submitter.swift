import Foundation
import PetSpot
import PhotoPipeline

/// The two-step submission — create the announcement, then upload its photo — journalled so it
/// never creates two announcements and never loses one:
///
/// 1. The record (with a fresh Idempotency-Key) is saved before the create request; a retried or
///    resumed create sends the same key, so the server answers with the same announcement.
/// 2. The id and management password are saved before the photo step starts; a failed or killed
///    photo step is resumed alone by the next submission of the same flow.
public struct Submitter: Sendable {
    public let client: PetSpotAPIClient
    public let journal: SubmissionJournal

    /// What happened at each stage, for `--verbose` and progress output.
    public enum Event: Sendable {
        case resuming(SubmissionRecord)
        /// Nothing was confirmed on the server the submission was first sent to: it goes to the
        /// server of this run instead.
        case movedServer(from: String, to: String)
        case creating(attempt: Int)
        case created(AnnouncementID)
        case uploading(attempt: Int, total: Int64)
        case uploadProgress(sent: Int64, total: Int64)
        case retrying(step: SubmissionError.Step, attempt: Int, wait: Duration, cause: SubmissionError)
        /// The server refused the photo as too large and said its limit: it was prepared again under
        /// it, to `to` bytes and `width` × `height` pixels.
        case photoPreparedAgain(from: Int, to: Int, limit: Int, width: Int, height: Int)
        case completed(photoURL: String?)
    }

    public init(client: PetSpotAPIClient, journal: SubmissionJournal) {
        self.client = client
        self.journal = journal
    }

    /// Sends a report, or resumes the flow's unfinished submission when there is one.
    /// - Parameters:
    ///   - request: the create request built from the finished draft (ignored when resuming).
    ///   - photo: the prepared photo in the cache, if the report has one.
    /// - Returns: the completed record (id, password, photo URL).
    /// - Throws: ``SubmissionError``; the journal then says where to resume.
    public func submit(flow: String, request: CreateAnnouncementRequest, photo: PhotoReference?,
                       events: @escaping @Sendable (Event) -> Void = { _ in }) async throws(SubmissionError) -> SubmissionRecord {
        var record: SubmissionRecord
        if var unfinished = try journal.unfinished(flow: flow) {
            events(.resuming(unfinished))
            // This client's server is the one the run chose; a submission that never reached its
            // own server follows it (the caller refuses the other moves, see `ServerChoice`).
            if unfinished.server != client.configuration.server, unfinished.canMoveToAnotherServer {
                events(.movedServer(from: unfinished.server, to: client.configuration.server))
                unfinished.server = client.configuration.server
                try journal.save(unfinished)
            }
            record = unfinished
        } else {
            record = SubmissionRecord(flow: flow, server: client.configuration.server, request: request, photo: photo)
            try journal.save(record)
        }
        return try await resume(record, events: events)
    }

    /// Carries a journalled submission on from where it stopped.
    public func resume(_ start: SubmissionRecord, events: @escaping @Sendable (Event) -> Void = { _ in }) async throws(SubmissionError) -> SubmissionRecord {
        var record = start
        do throws(SubmissionError) {
            if record.state == .creating {
                let key = record.idempotencyKey, request = record.request
                var reached = record.createMayHaveArrived ?? true
                // Until an attempt's outcome is known, the request may be on its way: a run
                // killed now must not let the next one move the submission to another server.
                if record.createMayHaveArrived != true {
                    record.createMayHaveArrived = true
                    try journal.save(record)
                }
                let created: AnnouncementResponse
                do throws(SubmissionError) {
                    created = try await client.configuration.retry.run({ (attempt) throws(SubmissionError) in
                        events(.creating(attempt: attempt))
                        return try await client.createAnnouncement(request, idempotencyKey: key)
                    }, onRetry: { attempt, wait, cause in
                        reached = reached || cause.mayHaveReachedServer
                        events(.retrying(step: .create, attempt: attempt, wait: wait, cause: cause))
                    })
                } catch {
                    // Whether the server may hold the announcement decides, on the next run,
                    // whether the submission may move to another server.
                    record.createMayHaveArrived = reached || error.mayHaveReachedServer
                    throw error
                }
                record.announcementID = created.id
                record.managementPassword = created.managementPassword
                record.state = record.photo == nil ? .completed : .uploadingPhoto
                record.lastError = nil
                try journal.save(record)
                events(.created(created.id))
            }
            if record.state == .uploadingPhoto, let photo = record.photo, let credentials = record.credentials {
                let uploaded: PhotoUploadResponse
                do throws(SubmissionError) {
                    uploaded = try await upload(photo, credentials: credentials, events: events)
                } catch {
                    // The server says how large a photo may be: the person typed nothing wrong,
                    // so prepare it again under that limit (the byte budget) and send that.
                    guard case .http(413, let answer, .photo, _) = error, let limit = answer?.maxPhotoBytes, limit > 0,
                          photo.byteCount > limit, let smaller = try preparedAgain(photo, under: limit, for: record) else { throw error }
                    events(.photoPreparedAgain(from: photo.byteCount, to: smaller.byteCount, limit: limit,
                                               width: smaller.width, height: smaller.height))
                    record.photo = smaller
                    try journal.save(record)
                    uploaded = try await upload(smaller, credentials: credentials, events: events)
                }
                record.photoURL = uploaded.photoURL
                record.state = .completed
                record.lastError = nil
                try journal.save(record)
            }
        } catch {
            record.lastError = error.detail
            try? journal.save(record)
            throw error
        }
        events(.completed(photoURL: record.photoURL))
        return record
    }

    private func upload(_ photo: PhotoReference, credentials: AnnouncementCredentials,
                        events: @escaping @Sendable (Event) -> Void) async throws(SubmissionError) -> PhotoUploadResponse {
        try await client.configuration.retry.run({ (attempt) throws(SubmissionError) in
            let body = try PhotoUploadBody(photo: photo)
            events(.uploading(attempt: attempt, total: body.contentLength))
            let uploaded = try await client.uploadPhoto(body, credentials: credentials) { sent, total in
                events(.uploadProgress(sent: sent, total: total))
            }
            // The server answered: it has taken every byte.
            events(.uploadProgress(sent: body.contentLength, total: body.contentLength))
            return uploaded
        }, onRetry: { attempt, wait, cause in events(.retrying(step: .photo, attempt: attempt, wait: wait, cause: cause)) })
    }

    /// `photo` prepared again to fit in `limit` bytes (quality first, then size, within the
    /// byte budget's floors), saved beside the record; `nil` when it cannot be made that small.
    private func preparedAgain(_ photo: PhotoReference, under limit: Int, for record: SubmissionRecord) throws(SubmissionError) -> PhotoReference? {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(photo.path)
        } catch {
            throw .photoUnavailable(path: photo.path, reason: error.description)
        }
        let options = PrepareOptions(maxDimension: max(photo.width, photo.height), maxBytes: limit)
        guard let prepared = try? PhotoPipeline.prepare(bytes, options: options), prepared.data.count <= limit else { return nil }
        let path = try journal.savePhoto(prepared.data, for: record)
        return PhotoReference(cacheKey: "submission:\(record.id)", path: path, mimeType: prepared.mimeType,
                              byteCount: prepared.data.count, width: prepared.size.width, height: prepared.size.height)
    }
}
