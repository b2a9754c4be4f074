import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The parts of S3's XML answers the client reads: a ListObjectsV2 page
/// (`<Contents><Key>`, `<LastModified>`, `<IsTruncated>`, `<NextContinuationToken>`) and an
/// error's `<Code>` and `<Message>`.
final class S3XMLAnswer: NSObject, XMLParserDelegate {
    struct Object {
        var key: String
        var lastModified: Date?
    }

    private(set) var objects: [Object] = []
    private(set) var truncated = false
    private(set) var nextToken: String?
    private(set) var code: String?
    private(set) var message: String?

    private var text = ""
    private var key: String?
    private var modified: Date?

    static func parse(_ bytes: [UInt8]) -> S3XMLAnswer {
        let result = S3XMLAnswer()
        guard !bytes.isEmpty else { return result }
        let parser = XMLParser(data: Data(bytes))
        parser.delegate = result
        _ = parser.parse()
        return result
    }

    func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        text = ""
        if element == "Contents" { key = nil; modified = nil }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        switch element {
        case "Key": key = text
        case "LastModified": modified = Self.iso8601(text)
        case "Contents": if let key { objects.append(Object(key: key, lastModified: modified)) }
        case "IsTruncated": truncated = text == "true"
        case "NextContinuationToken": nextToken = text
        case "Code": code = text
        case "Message": message = text
        default: break
        }
    }

    private static func iso8601(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text)
    }
}
