import Foundation
import Hummingbird
import MultipartKit
import NIOCore

/// Reads the body of a form as it arrives: `application/x-www-form-urlencoded` (collected whole,
/// it is small), or `multipart/form-data` parsed as it streams in (multipart-kit's parser behind
/// ``PartHeaderGuard``), its text fields kept, its one file part written to an ``UploadFile``
/// chunk by chunk and small binary parts kept in memory. Every amount is bounded before it is
/// buffered: the body, each field and all of them, the parts, each part's headers, the file.
///
/// A form's CSRF token comes before its file (it is the form's first input), so the caller can
/// refuse a forged post when the file part begins, before any of the file is written
/// (`beforeFile`).
struct FormBodyReader {
    struct Limits: Sendable {
        /// One text field's value, in bytes.
        var fieldBytes = 16 * 1024
        /// Every text field's name and value together.
        var textBytes = 64 * 1024
        /// Parts of a multipart body.
        var parts = 48
        /// The header lines of one part.
        var partHeaderBytes = 4 * 1024
        /// The part written to a file (`nil`: a file part is refused) and its limit.
        var filePart: String?
        var fileBytes = 0
        /// How many bytes past `fileBytes` are read and dropped, so that the fields after an
        /// oversized file still arrive and the form can say so beside the file (0: 413 at once).
        var fileOverflowBytes = 0
        /// Binary parts kept in memory, by name, each with its limit.
        var smallFiles: [String: Int] = [:]

        /// The most a whole body can hold.
        var bodyBytes: Int { textBytes + fileBytes + fileOverflowBytes + smallFiles.values.reduce(0, +) + parts * partHeaderBytes }
    }

    struct Body {
        var fields: FormFields
        /// The file part, when one came with at least one byte.
        var file: UploadFile?
        var smallFiles: [String: [UInt8]]
        /// The file part was larger than its limit: dropped (`file` is `nil`).
        var fileTooLarge = false
    }

    let limits: Limits
    /// Where the file part is written.
    let uploadDirectory: String

    /// Reads `request`'s body.
    /// - Parameter beforeFile: called with the fields read so far when the file part begins, and
    ///   at the end of a body without one; what it throws ends the read.
    /// - Throws: 415 for another content type, 413 past a limit, 400 for a body that is not
    ///   well-formed, or what `beforeFile` throws.
    func read(_ request: Request, context: some ContinueRequestContext,
              beforeFile: @escaping (FormFields) throws(APIFailure) -> Void) async throws -> Body {
        let type = HeaderParameters(request.headers[.contentType] ?? "")
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limits.bodyBytes {
            throw APIFailure.tooLarge(limit: limits.bodyBytes, what: "form")
        }
        switch type.value {
        case "application/x-www-form-urlencoded":
            try await context.continueIfExpected(request)
            let bytes: ByteBuffer
            do {
                bytes = try await request.body.collect(upTo: limits.textBytes)
            } catch is NIOTooManyBytesError {
                throw APIFailure.tooLarge(limit: limits.textBytes, what: "form")
            }
            let fields = URLEncodedForm.parse(bytes.readableBytesView)
            try check(fields)
            try beforeFile(fields)
            return Body(fields: fields, file: nil, smallFiles: [:])
        case "multipart/form-data":
            let boundary = try MultipartPhotoIntake.boundary(of: type)
            try await context.continueIfExpected(request)
            return try await readMultipart(request.body, boundary: boundary, beforeFile: beforeFile)
        default:
            throw APIFailure(status: .unsupportedMediaType, error: .init(code: .unsupportedMediaType, message:
                "A form is sent as application/x-www-form-urlencoded or multipart/form-data, as a browser sends it."))
        }
    }

    /// The field limits, for a urlencoded body read whole.
    private func check(_ fields: FormFields) throws {
        guard fields.pairs.count <= limits.parts else { throw APIFailure.malformed("The form has more fields than any of ours.") }
        for pair in fields.pairs where pair.value.utf8.count > limits.fieldBytes {
            throw APIFailure.tooLarge(limit: limits.fieldBytes, what: "form field \"\(pair.name.prefix(40))\"")
        }
    }

    /// 400 for a body ``PartHeaderGuard`` refuses, saying which limit it passed.
    static func failure(_ refusal: PartHeaderGuard.Refusal) -> APIFailure {
        switch refusal {
        case .nonASCIIName:
            .malformed("A part header name holds a byte outside ASCII; header names are ASCII tokens.")
        case .tooManyParts(let limit):
            .malformed("The form has more parts than any of ours (\(limit)).")
        case .headerTooLarge(let limit):
            .malformed("A part's headers are longer than \(limit) bytes.")
        case .tooManyHeaders(let limit):
            .malformed("A part has more than \(limit) header lines; a form's part needs a Content-Disposition and at most a Content-Type.")
        }
    }

    private func readMultipart(_ body: some AsyncSequence<ByteBuffer, any Error>, boundary: String,
                               beforeFile: @escaping (FormFields) throws(APIFailure) -> Void) async throws -> Body {
        let parser = MultipartParser(boundary: boundary)
        let state = FormPartState(limits: limits, uploadDirectory: uploadDirectory, beforeFile: beforeFile)
        parser.onHeader = { name, value in state.header(name, value) }
        parser.onBody = { buffer in state.body(&buffer) }
        parser.onPartComplete = { state.complete() }
        var guardrail = PartHeaderGuard(boundary: boundary, maxParts: limits.parts, maxHeaderBytes: limits.partHeaderBytes)
        var received = 0
        do {
            for try await chunk in body {
                received += chunk.readableBytes
                guard received <= limits.bodyBytes else { throw APIFailure.tooLarge(limit: limits.bodyBytes, what: "form") }
                if let refusal = chunk.withUnsafeReadableBytes({ guardrail.accept($0) }) { throw Self.failure(refusal) }
                try parser.execute(chunk)
                if let failure = state.failure { throw failure }
            }
        } catch let failure as APIFailure {
            throw failure
        } catch {
            throw APIFailure.malformed("The body is not well-formed multipart/form-data for its boundary.")
        }
        guard state.finished else {
            throw APIFailure.malformed("The form ends before its last part does: it was cut short. Send it again.")
        }
        if !state.fileBegun { try beforeFile(state.fields) }
        return Body(fields: state.fields, file: state.fileTooLarge ? nil : state.file.flatMap { $0.byteCount > 0 ? $0 : nil },
                    smallFiles: state.smallFiles, fileTooLarge: state.fileTooLarge)
    }
}

/// What the parser's callbacks have read so far; one per request, used from one task.
private final class FormPartState {
    let limits: FormBodyReader.Limits
    let uploadDirectory: String
    var fields = FormFields()
    var file: UploadFile?
    var smallFiles: [String: [UInt8]] = [:]
    var failure: APIFailure?
    /// Whether the file part has begun (and the caller let it be written).
    var fileBegun = false
    /// Whether the file passed its limit, and how much of it came.
    var fileTooLarge = false
    private var fileReceived = 0
    private let beforeFile: (FormFields) throws(APIFailure) -> Void
    /// Whether the last part ended (the closing delimiter follows it).
    var finished = false

    private enum Part {
        case text(name: String)
        case file
        case small(name: String)
        case skipped
    }
    private var headers: [(name: String, value: String)] = []
    private var current: Part?
    /// The bytes of the text or small-file part being read, appended in place (the parser calls
    /// back at every CR, so a copy per call would cost the square of the part's size).
    private var partBytes: [UInt8] = []
    private var textBytes = 0
    /// The file's bytes not yet written: the parser hands bodies over in pieces that end at
    /// every CR, gathered here into writes of `flushBytes`.
    private var pending: [UInt8] = []
    private static let flushBytes = 256 * 1024

    init(limits: FormBodyReader.Limits, uploadDirectory: String, beforeFile: @escaping (FormFields) throws(APIFailure) -> Void) {
        self.limits = limits
        self.uploadDirectory = uploadDirectory
        self.beforeFile = beforeFile
    }

    func header(_ name: String, _ value: String) {
        finished = false
        headers.append((name.lowercased(), value))
    }

    func body(_ buffer: inout ByteBuffer) {
        guard failure == nil, let part = begin() else { return }
        switch part {
        case .text(let name):
            partBytes.append(contentsOf: buffer.readableBytesView)
            textBytes += buffer.readableBytes
            if partBytes.count > limits.fieldBytes {
                failure = .tooLarge(limit: limits.fieldBytes, what: "form field \"\(name.prefix(40))\"")
            } else if textBytes > limits.textBytes {
                failure = .tooLarge(limit: limits.textBytes, what: "form")
            }
        case .small(let name):
            partBytes.append(contentsOf: buffer.readableBytesView)
            if partBytes.count > limits.smallFiles[name] ?? 0 {
                failure = .tooLarge(limit: limits.smallFiles[name] ?? 0, what: "form part \"\(name.prefix(40))\"")
            }
        case .file:
            fileReceived += buffer.readableBytes
            if fileReceived > limits.fileBytes + limits.fileOverflowBytes {
                failure = .photoTooLarge(maxPhotoBytes: limits.fileBytes)
            } else if fileReceived > limits.fileBytes {
                fileTooLarge = true
                pending.removeAll()
            } else {
                pending.append(contentsOf: buffer.readableBytesView)
                if pending.count >= Self.flushBytes { flush() }
            }
        case .skipped:
            break
        }
    }

    func complete() {
        if failure == nil, let part = begin() {
            switch part {
            case .text(let name):
                fields.append(name, String(decoding: partBytes, as: UTF8.self))
                textBytes += name.utf8.count
                if textBytes > limits.textBytes { failure = .tooLarge(limit: limits.textBytes, what: "form") }
            case .small(let name):
                smallFiles[name] = partBytes
            case .file:
                flush()
            case .skipped:
                break
            }
        }
        headers = []
        current = nil
        partBytes = []
        finished = true
    }

    /// The part being read, decided from its headers at its first body bytes (or its end).
    private func begin() -> Part? {
        if let current { return current }
        let disposition = headers.first { $0.name == "content-disposition" }.map { HeaderParameters($0.value) }
        guard disposition?.value == "form-data", let name = disposition?.parameters["name"] else {
            failure = .malformed("Every part of a form needs Content-Disposition: form-data with a name.")
            return nil
        }
        let part: Part
        if disposition?.parameters["filename"] != nil {
            if name == limits.filePart {
                guard !fileBegun else {
                    failure = .malformed("The form has more than one part named \"\(name.prefix(40))\"; send one file.")
                    return nil
                }
                fileBegun = true
                do throws(APIFailure) {
                    try beforeFile(fields)
                } catch {
                    failure = error
                    return nil
                }
                do {
                    file = try UploadFile(in: uploadDirectory)
                } catch {
                    failure = .storageUnavailable
                    return nil
                }
                part = .file
            } else if limits.smallFiles[name] != nil, smallFiles[name] == nil {
                part = .small(name: name)
            } else {
                part = .skipped
            }
        } else {
            part = .text(name: name)
        }
        current = part
        return part
    }

    private func flush() {
        guard failure == nil, !fileTooLarge, !pending.isEmpty, let file else { return }
        do {
            try pending.withUnsafeBytes { try file.append($0) }
        } catch {
            failure = .storageUnavailable
        }
        pending.removeAll(keepingCapacity: true)
    }
}

extension FormBodyReader {
    /// A form post's body, its CSRF token checked against the browser's cookie as soon as the
    /// fields before a file part are read (so a forged post is refused, 403, before a byte of its
    /// file is), with the browser it was checked for and when its form was shown.
    func readProtected(_ request: Request, context: some ContinueRequestContext,
                       forms: FormProtection) async throws -> (body: Body, browser: FormProtection.Browser, issuedAt: Date) {
        var accepted: (browser: FormProtection.Browser, issuedAt: Date)?
        let body = try await read(request, context: context) { fields throws(APIFailure) in
            let verdict = forms.verify(fields[FormProtection.fieldName], request: request)
            guard case .valid(let browser, let issuedAt) = verdict else { throw FormRefusal.forbidden(verdict) }
            accepted = (browser, issuedAt)
        }
        guard let accepted else { throw FormRefusal.forbidden(.wrongToken) }
        return (body, accepted.browser, accepted.issuedAt)
    }
}
