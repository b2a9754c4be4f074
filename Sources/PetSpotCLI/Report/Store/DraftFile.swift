import Foundation

/// The on-disk shape of a draft: the draft wrapped with its format version, flow and save time.
///
/// ```json
/// {"draft": {…}, "flow": "missing", "saved_at": "2025-11-18T10:15:00Z", "schema_version": 1}
/// ```
/// The draft itself is encoded by the domain's own `Codable` conformance.
struct DraftFile<Draft: FlowDraft>: Codable {
    /// The format this version writes and the newest it reads.
    static var currentSchemaVersion: Int { DraftFileHeader.currentSchemaVersion }

    var schemaVersion: Int
    var flow: ReportFlow
    var savedAt: Date
    var draft: Draft

    enum CodingKeys: String, CodingKey {
        case schemaVersion = "schema_version"
        case flow
        case savedAt = "saved_at"
        case draft
    }
}

/// The part of a draft file read first, so a newer format is recognised before its draft is decoded.
struct DraftFileHeader: Decodable {
    /// Version 1: the first format.
    static let currentSchemaVersion = 1

    var schemaVersion: Int
    var flow: ReportFlow

    enum CodingKeys: String, CodingKey {
        case schemaVersion = "schema_version"
        case flow
    }
}
