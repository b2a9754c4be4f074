import Foundation
import PetSpot

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
        case creating(attempt: Int)
        case created(AnnouncementID)
        case uploading(attempt: Int, total: Int64)
        case uploadProgress(sent: Int64, total: Int64)
        case retrying(step: SubmissionError.Step, attempt: Int, wait: Duration, cause: SubmissionError)
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
        if let unfinished = try journal.unfinished(flow: flow) {
            record = unfinished
            events(.resuming(unfinished))
        } else {
            record = SubmissionRecord(flow: flow, server: client.configuration.server, request: request, photo: photo)
            try journal.save(record)
        }
        return try await resume(record, events: events)
    }

    /// Carries a journalled submission on from where it stopped.
    public func resume(_ start: SubmissionRecord, events: @escaping @Sendable (Event) -> Void = { _ in }) async throws(SubmissionError) -> SubmissionRecord {
        var record = start
        do {
            if record.state == .creating {
                let key = record.idempotencyKey, request = record.request
                let created = try await client.configuration.retry.run({ (attempt) throws(SubmissionError) in
                    events(.creating(attempt: attempt))
                    return try await client.createAnnouncement(request, idempotencyKey: key)
                }, onRetry: { attempt, wait, cause in events(.retrying(step: .create, attempt: attempt, wait: wait, cause: cause)) })
                record.announcementID = created.id
                record.managementPassword = created.managementPassword
                record.state = record.photo == nil ? .completed : .uploadingPhoto
                record.lastError = nil
                try journal.save(record)
                events(.created(created.id))
            }
            if record.state == .uploadingPhoto, let photo = record.photo, let credentials = record.credentials {
                let uploaded = try await client.configuration.retry.run({ (attempt) throws(SubmissionError) in
                    let body = try PhotoUploadBody(photo: photo)
                    events(.uploading(attempt: attempt, total: body.contentLength))
                    return try await client.uploadPhoto(body, credentials: credentials) { sent, total in
                        events(.uploadProgress(sent: sent, total: total))
                    }
                }, onRetry: { attempt, wait, cause in events(.retrying(step: .photo, attempt: attempt, wait: wait, cause: cause)) })
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
}
