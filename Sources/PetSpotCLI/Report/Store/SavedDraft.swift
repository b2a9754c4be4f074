import Foundation

/// A draft as the store found it on disk.
public struct SavedDraft<Draft: FlowDraft>: Sendable {
    /// The draft.
    public var draft: Draft
    /// When it was last saved.
    public var savedAt: Date
    /// The file holding it.
    public var url: URL
}
