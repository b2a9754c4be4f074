import PetSpot
import PetSpotClient

/// What happens to a draft once its submission ends (sent, or abandoned by the user).
enum SubmittedDraft {
    /// Clears the flow's draft and releases its photo — only when the draft is what the
    /// submission sent (a newer draft is left alone), so the same report is never sent twice.
    /// - Returns: whether the draft was cleared.
    static func clear(_ flow: ReportFlow, submitted record: SubmissionRecord, store: DraftStore, cache: CacheOptions) -> Bool {
        let draft: (request: CreateAnnouncementRequest?, photo: PhotoReference?)? = switch flow {
        case .missing: (try? DraftLoading.load(MissingReportDraft.self, store: store, cache: cache).draft).map { (try? $0.makeRequest(today: .today()), $0.photo) }
        case .found: (try? DraftLoading.load(FoundReportDraft.self, store: store, cache: cache).draft).map { (try? $0.makeRequest(today: .today()), $0.photo) }
        }
        guard let draft, draft.request == record.request else { return false }
        _ = try? store.discard(flow)
        // The draft's own photo (the submission may have sent a smaller copy of it).
        if let photoCache = try? cache.open(), let pinned = try? photoCache.currentAttachment(for: flow.cacheFlow),
           pinned.cacheKey == draft.photo?.cacheKey || pinned.cacheKey == record.photo?.cacheKey {
            try? photoCache.unpin(flow: flow.cacheFlow)
        }
        return true
    }
}
