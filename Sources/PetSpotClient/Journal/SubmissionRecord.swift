import Foundation
import PetSpot

/// One submission, as the journal keeps it: what was sent, the key that makes the create step
/// safe to repeat, and — once the create step succeeded — the id and management password the
/// photo step needs. Written before each step, so a killed process resumes where it stopped.
public struct SubmissionRecord: Codable, Sendable, Hashable, Identifiable {
    public static let currentSchema = 1

    /// Where the submission is.
    public enum State: String, Codable, Sendable {
        /// The announcement may not exist yet: create it (again, with the same key).
        case creating
        /// The announcement exists; its photo still has to be uploaded.
        case uploadingPhoto
        /// Both steps are done.
        case completed
        /// Given up by the user (`submissions abandon`): kept for its id and password, never resumed.
        case abandoned

        /// Whether `report submit` and `submissions retry` carry it on.
        public var isPending: Bool { self == .creating || self == .uploadingPhoto }
    }

    public var schema = Self.currentSchema
    /// The journal's own id for this submission (its file name).
    public let id: String
    /// `missing` or `found`.
    public var flow: String
    /// The server it was sent to.
    public var server: String
    public var createdAt: Date
    public var updatedAt: Date
    public var state: State
    /// Sent with every create attempt, so a retried create never makes a second announcement.
    public var idempotencyKey: String
    public var request: CreateAnnouncementRequest
    /// The prepared photo in the cache (its key and file), when the report has one.
    public var photo: PhotoReference?
    public var announcementID: AnnouncementID?
    /// Kept here only (mode 0600 file): printed once, never logged.
    public var managementPassword: String?
    public var photoURL: String?
    /// The last failure's detail, for `submissions show`.
    public var lastError: String?
    /// Whether a create request may have reached ``server`` (a connection that broke after
    /// sending, a PetSpot server's failure): then only that server, asked again with the same
    /// key, can say whether the announcement exists. `false` while nothing was confirmed there
    /// (nothing answered, or what answered is not a PetSpot server), so the submission may move
    /// to another server. Absent in records of older versions: taken as `true`, the safe side.
    public var createMayHaveArrived: Bool?

    public init(id: String = UUID().uuidString.lowercased(), flow: String, server: String, request: CreateAnnouncementRequest,
                photo: PhotoReference?, now: Date = Date()) {
        self.id = id
        self.flow = flow
        self.server = server
        createdAt = now
        updatedAt = now
        state = .creating
        createMayHaveArrived = false
        idempotencyKey = UUID().uuidString.lowercased()
        self.request = request
        self.photo = photo
    }

    /// Whether the submission may move to another server: its create step is pending and never
    /// reached its server.
    public var canMoveToAnotherServer: Bool {
        state == .creating && createMayHaveArrived == false
    }

    /// The announcement's public page, `{server}/pets/{id}`, once it exists.
    public var pageURL: String? {
        announcementID.map { "\(server.hasSuffix("/") ? String(server.dropLast()) : server)/pets/\($0.rawValue)" }
    }

    /// The credentials for the photo step, once the create step succeeded.
    public var credentials: AnnouncementCredentials? {
        guard let announcementID, let managementPassword else { return nil }
        return AnnouncementCredentials(id: announcementID, managementPassword: managementPassword)
    }
}
