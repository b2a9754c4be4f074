import Foundation
import MultipartKit
import NIOCore

/// A part as a parser read it back.
struct ParsedPart: Equatable, CustomStringConvertible {
    var name: String?
    var filename: String?
    var contentType: String?
    var body: [UInt8]

    var description: String { "\(name ?? "nil") / \(filename ?? "nil") / \(contentType ?? "nil") / \(body.count) bytes" }
}

/// vapor/multipart-kit's streaming parser, fed in small pieces, as an independent reading.
enum KitParser {
    static func parse(_ body: [UInt8], boundary: String, feed: Int = 997) throws -> [ParsedPart] {
        let parser = MultipartParser(boundary: boundary)
        var parts: [ParsedPart] = []
        var headers: [(String, String)] = []
        var current: [UInt8] = []
        parser.onHeader = { name, value in headers.append((name, value)) }
        parser.onBody = { buffer in current += buffer.readBytes(length: buffer.readableBytes) ?? [] }
        parser.onPartComplete = {
            let disposition = headers.first { $0.0.lowercased() == "content-disposition" }?.1 ?? ""
            parts.append(ParsedPart(name: parameter("name", in: disposition), filename: parameter("filename", in: disposition),
                                    contentType: headers.first { $0.0.lowercased() == "content-type" }?.1, body: current))
            headers = []
            current = []
        }
        var offset = 0
        while offset < body.count {
            try parser.execute(Array(body[offset..<min(body.count, offset + feed)]))
            offset += feed
        }
        return parts
    }

    /// A quoted parameter with RFC 9110 quoted-pairs undone.
    static func parameter(_ key: String, in header: String) -> String? {
        guard let range = header.range(of: "; \(key)=\"") else { return nil }
        var value = ""
        var escaped = false
        for character in header[range.upperBound...] {
            if escaped { value.append(character); escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { return value } else { value.append(character) }
        }
        return nil
    }
}
