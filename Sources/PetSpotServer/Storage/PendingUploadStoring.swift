import Foundation

/// Where the report forms' pending photos (``PendingUpload``) are recorded: beside the
/// announcements, so every replica finds a photo another one received, and in the photo
/// store's sweeps a pending photo counts as used (``AnnouncementStoring/referencedPhotoKeys()``,
/// ``AnnouncementStoring/removePhotoIfUnreferenced(_:remove:)``).
public protocol PendingUploadStoring: Sendable {
    /// Records `upload` after `storing` has written its photo's bytes, under the photo key's lock
    /// (the one ``AnnouncementStoring/removePhotoIfUnreferenced(_:remove:)`` takes), so no sweep
    /// removes the photo between its write and this row. When `storing` throws, nothing changes.
    func insertPendingUpload(_ upload: PendingUpload, storing: @escaping @Sendable () async throws -> Void) async throws

    /// The pending photo a form's token names, if it is still recorded.
    func pendingUpload(tokenDigest: String) async throws -> PendingUpload?

    /// Forgets one pending photo (once its announcement holds the photo).
    func removePendingUpload(tokenDigest: String) async throws

    /// Forgets the pending photos recorded before `date`.
    /// - Returns: their photo keys (for the caller to remove when nothing else uses them).
    func expirePendingUploads(before date: Date) async throws -> [String]
}
