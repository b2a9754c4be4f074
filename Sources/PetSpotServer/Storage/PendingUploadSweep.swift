import Foundation

/// Forgets the report forms' pending photos (``PendingUpload``) nobody used within
/// ``PendingUpload/lifetime``: their rows, then each photo and its sizes, once no announcement
/// and no other pending row holds it (checked under the photo key's lock). Run by
/// ``MaintenanceService`` on every backend: disk and bucket alike.
enum PendingUploadSweep {
    /// - Returns: how many photos were removed.
    static func run(store: any PendingUploadStoring & AnnouncementStoring, photos: any PhotoStoring, now: Date) async throws -> Int {
        let keys = try await store.expirePendingUploads(before: now.addingTimeInterval(-PendingUpload.lifetime))
        var removed = 0
        for key in keys {
            let gone = try await store.removePhotoIfUnreferenced(key) { try await photos.removeWithSizes(key) }
            if gone { removed += 1 }
        }
        return removed
    }
}
