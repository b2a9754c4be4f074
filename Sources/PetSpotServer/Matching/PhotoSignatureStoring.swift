import PhotoPipeline

/// Where photos' colour signatures are kept once computed (a photo's key never changes
/// meaning, so a signature never goes stale).
public protocol PhotoSignatureStoring: Sendable {
    func signature(for photoKey: String) async throws -> ColourSignature?
    func storeSignature(_ signature: ColourSignature, for photoKey: String) async throws
}
