import PhotoCache
import PhotoCLI

extension ExitStatus {
    /// The status for a cache error: its photo's status, 73 when the cache cannot be written,
    /// 74 for a full disk, a damaged index or another I/O failure.
    public static func of(_ error: CacheError) -> ExitStatus {
        switch error {
        case .photo(let error): of(error)
        case .cannotCreateDirectory, .cannotWrite: .cannotCreate
        case .diskFull, .indexCorrupt, .indexUnavailable, .ioError: .ioError
        case .unknownEntry: .dataError
        }
    }

    /// The status for a draft store error: 73 when the drafts folder cannot be written, 66 when
    /// a draft cannot be read, 65 when it is damaged or newer, 74 when it cannot be removed, 75
    /// while another process's wizard has it open or `report submit` is sending it (try again once
    /// that ends).
    public static func of(_ error: DraftStoreError) -> ExitStatus {
        switch error {
        case .cannotCreateDirectory, .cannotWrite: .cannotCreate
        case .diskFull: .ioError
        case .unreadable: .noInput
        case .corrupt, .newerSchema: .dataError
        case .cannotRemove: .ioError
        case .openElsewhere, .beingSubmitted: .tempFail
        }
    }
}
