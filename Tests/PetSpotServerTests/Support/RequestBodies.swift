import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PetSpot

/// Request bodies and headers the tests send.
enum RequestBodies {
    /// A valid create body (keys as the contract spells them). `overrides` maps a key to raw
    /// JSON text for its value, or to `nil` to leave the key out.
    static func announcement(_ overrides: [String: String?] = [:]) -> ByteBuffer {
        var fields: [String: String] = [
            "species": #""DOG""#, "sex": #""MALE""#, "last_seen_date": #""2025-11-18""#,
            "location_latitude": "52.2297", "location_longitude": "21.0122",
            "email": #""owner@example.com""#, "phone": #""+48123456789""#, "status": #""MISSING""#,
            "microchip_number": #""123456789012345""#, "description": #""Brown \"Rex\", red collar\n$5 tag 🐶""#,
        ]
        for (key, value) in overrides { fields[key] = value }
        let text = "{" + fields.keys.sorted().map { "\"\($0)\":\(fields[$0]!)" }.joined(separator: ",") + "}"
        return ByteBuffer(string: text)
    }

    static let jsonHeaders: HTTPFields = [.contentType: "application/json"]

    /// A multipart/form-data body with one file part and optional extra text fields.
    static func multipart(partName: String = "photo", filename: String = "photo.jpg", contentType: String = "image/jpeg",
                          data: [UInt8], fields: [(String, String)] = [], boundary: String = "petspot-test-boundary-7d3f",
                          closed: Bool = true) -> (body: ByteBuffer, contentType: String) {
        var bytes: [UInt8] = []
        for (name, value) in fields {
            bytes += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        bytes += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(partName)\"; filename=\"\(filename)\"\r\nContent-Type: \(contentType)\r\n\r\n".utf8)
        bytes += data
        if closed { bytes += Array("\r\n--\(boundary)--\r\n".utf8) }
        return (ByteBuffer(bytes: bytes), "multipart/form-data; boundary=\(boundary)")
    }

    static func basic(_ id: String, _ password: String) -> String {
        "Basic " + Data("\(id):\(password)".utf8).base64EncodedString()
    }
}

/// The project's own sample files.
enum TestImages {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TestImages")

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// A 12 MP camera photo from the shared corpus (`PETSPOT_CORPUS`), for what needs more bytes
    /// than the project's small samples prepare to.
    static func cameraPhoto() throws -> [UInt8] {
        let corpus = ProcessInfo.processInfo.environment["PETSPOT_CORPUS"] ?? "../shared/corpus"
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: corpus + "/photos/olympus-ep3_4032x3024.jpg")))
    }
}
