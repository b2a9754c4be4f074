import Foundation
import HTTPTypes
import Hummingbird
import PetSpot

/// JSON answers, written with the shared ``PetSpotJSON`` settings so client, server and tests
/// agree on every byte.
enum JSONResponse {
    /// A response whose body is `body` as JSON.
    static func make(status: HTTPResponse.Status, body: some Encodable, headers: HTTPFields = [:]) throws -> Response {
        let data = try PetSpotJSON.encode(body)
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.contentLength] = String(data.count)
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
