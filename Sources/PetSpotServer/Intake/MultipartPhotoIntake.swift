import Foundation
import Hummingbird
import MultipartKit
import PetSpot

/// Receives the body of a photo upload: multipart/form-data parsed as it streams in
/// (multipart-kit's parser), the `photo` part written to an ``UploadFile`` chunk by chunk, every
/// other part counted and dropped. The body is never held whole, and reading stops as soon as it
/// passes the limit, or as soon as its parts or their headers pass ``PartHeaderGuard``'s. The part's filename and Content-Type are ignored: the bytes decide.
struct MultipartPhotoIntake {
    /// The photo part's limit.
    let maxPhotoBytes: Int
    /// Room for the part headers and small fields around the photo.
    static let envelopeBytes = 64 * 1024

    var maxBodyBytes: Int { maxPhotoBytes + Self.envelopeBytes }

    /// The boundary of a `multipart/form-data` Content-Type.
    static func boundary(contentType: String?) throws(APIFailure) -> String {
        let header = HeaderParameters(contentType ?? "")
        guard header.value == "multipart/form-data" else {
            throw .malformed("The photo must be sent as multipart/form-data with a file part named \"photo\".",
                             field: AnnouncementsAPI.photoPartName)
        }
        return try boundary(of: header)
    }

    /// The boundary parameter of a `multipart/form-data` Content-Type, as RFC 2046 bounds it.
    static func boundary(of header: HeaderParameters) throws(APIFailure) -> String {
        guard let boundary = header.parameters["boundary"], (1...70).contains(boundary.utf8.count) else {
            throw .malformed("The multipart/form-data Content-Type needs a boundary of 1 to 70 characters.")
        }
        return boundary
    }

    /// 400 for a body ``PartHeaderGuard`` refuses, saying which limit it passed.
    static func failure(_ refusal: PartHeaderGuard.Refusal) -> APIFailure {
        switch refusal {
        case .nonASCIIName:
            .malformed("A part header name holds a byte outside ASCII; header names are ASCII tokens.")
        case .tooManyParts(let limit):
            .malformed("The body has more than \(limit) parts; a photo upload needs one, named \"photo\".")
        case .headerTooLarge(let limit):
            .malformed("A part's headers take more than \(limit / 1024) KiB; a part needs a Content-Disposition and a Content-Type.")
        case .tooManyHeaders(let limit):
            .malformed("A part has more than \(limit) header lines; a part needs a Content-Disposition and a Content-Type.")
        }
    }

    /// Streams `body` into `file`.
    /// - Throws: 413 past the limits, 400 for a body that is not well-formed multipart or has no
    ///   complete `photo` part (or two of them).
    func receive(_ body: some AsyncSequence<ByteBuffer, any Error>, boundary: String, into file: UploadFile) async throws(APIFailure) {
        let parser = MultipartParser(boundary: boundary)
        let state = PartState()
        parser.onHeader = { name, value in state.headers.append((name.lowercased(), value)) }
        parser.onBody = { buffer in state.body(&buffer, into: file, limit: maxPhotoBytes) }
        parser.onPartComplete = { state.complete(into: file) }

        var received = 0
        var guardrail = PartHeaderGuard(boundary: boundary)
        do {
            for try await chunk in body {
                received += chunk.readableBytes
                guard received <= maxBodyBytes else { throw APIFailure.photoTooLarge(maxPhotoBytes: maxPhotoBytes, what: "request body") }
                if let refusal = chunk.withUnsafeReadableBytes({ guardrail.accept($0) }) { throw Self.failure(refusal) }
                try parser.execute(chunk)
                if let failure = state.failure { throw failure }
            }
        } catch let failure as APIFailure {
            throw failure
        } catch {
            throw .malformed("The body is not well-formed multipart/form-data for its boundary.")
        }
        switch state.photo {
        case .complete: return
        case .receiving:
            throw .malformed("The body ends before the photo part does: the upload was cut short. Send it again.",
                             field: AnnouncementsAPI.photoPartName)
        case .absent:
            throw .malformed("The body has no file part named \"photo\".", field: AnnouncementsAPI.photoPartName)
        }
    }
}

/// The parser's callbacks write here; one per request, used from one task.
private final class PartState {
    enum Photo { case absent, receiving, complete }

    var headers: [(name: String, value: String)] = []
    var photo = Photo.absent
    var failure: APIFailure?
    /// Whether the part being read is the photo; decided at its first body bytes.
    private var current: Bool?

    /// The photo's bytes not yet written. The parser hands the body over in pieces that end
    /// wherever a boundary might start (at every CR, one byte in 256 of a JPEG); they are
    /// gathered and written to the file in `flushBytes` writes instead of thousands of small ones.
    private var pending: [UInt8] = []
    private var received = 0
    private static let flushBytes = 256 * 1024

    func body(_ buffer: inout ByteBuffer, into file: UploadFile, limit: Int) {
        guard failure == nil, decide() else { return }
        received += buffer.readableBytes
        if received > limit {
            failure = .photoTooLarge(maxPhotoBytes: limit)
            return
        }
        if pending.isEmpty { pending.reserveCapacity(Self.flushBytes) }
        buffer.withUnsafeReadableBytes { pending.append(contentsOf: $0) }
        if pending.count >= Self.flushBytes { flush(into: file) }
    }

    func complete(into file: UploadFile) {
        if decide() {
            flush(into: file)
            if failure == nil { photo = .complete }
        }
        headers = []
        current = nil
    }

    private func flush(into file: UploadFile) {
        guard failure == nil, !pending.isEmpty else { return }
        do {
            try pending.withUnsafeBytes { try file.append($0) }
        } catch {
            failure = .internalError
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// Whether the current part is the photo; a second photo part is refused.
    private func decide() -> Bool {
        if let current { return current }
        let disposition = headers.first { $0.name == "content-disposition" }.map { HeaderParameters($0.value) }
        let isPhoto = disposition?.value == "form-data" && disposition?.parameters["name"] == AnnouncementsAPI.photoPartName
        if isPhoto && photo != .absent {
            failure = .malformed("The body has more than one part named \"photo\"; send one photo per upload.",
                                 field: AnnouncementsAPI.photoPartName)
        } else if isPhoto {
            photo = .receiving
        }
        current = isPhoto
        return isPhoto && failure == nil
    }
}
