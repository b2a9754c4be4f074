import PetSpot
import PetSpotClient

/// What happens to a draft once its submission ends (sent, or abandoned by the user).
enum SubmittedDraft {
    /// Clears the flow's draft and releases its photo — only when the draft is what the
    /// submission sent (a newer draft is left alone), so the same report is never sent twice.
    /// - Returns: whether the draft was cleared.
    static func clear(_ flow: ReportFlow, submitted record: SubmissionRecord, store: DraftStore, cache: CacheOptions) -> Bool {
        let draft = current(flow, store: store, cache: cache)
        guard let draft, draft.request == record.request else { return false }
        _ = try? store.discard(flow)
        // The draft's own photo (the submission may have sent a smaller copy of it).
        if let photoCache = try? cache.open(), let pinned = try? photoCache.currentAttachment(for: flow.cacheFlow),
           pinned.cacheKey == draft.photo?.cacheKey || pinned.cacheKey == record.photo?.cacheKey {
            try? photoCache.unpin(flow: flow.cacheFlow)
        }
        return true
    }

    /// The flow's draft as it is now: the request it would send (when complete) and its photo;
    /// `nil` when it cannot be read.
    static func current(_ flow: ReportFlow, store: DraftStore, cache: CacheOptions) -> (request: CreateAnnouncementRequest?, photo: PhotoReference?)? {
        func read<Draft: EditableDraft>(_ type: Draft.Type) -> (CreateAnnouncementRequest?, PhotoReference?)? {
            (try? DraftLoading.load(Draft.self, store: store, cache: cache).draft).map { (try? $0.makeRequest(today: .today()), $0.photo) }
        }
        return switch flow {
        case .missing: read(MissingReportDraft.self)
        case .found: read(FoundReportDraft.self)
        }
    }
}
