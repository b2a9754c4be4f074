import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PetSpot
import Testing

/// Shortcuts for the two-step flow.
extension TestClientProtocol {
    /// Creates an announcement and returns the decoded 201 body.
    func createAnnouncement(_ body: ByteBuffer = RequestBodies.announcement(), headers: HTTPFields = RequestBodies.jsonHeaders) async throws -> AnnouncementResponse {
        let response = try await executeRequest(uri: "/api/v1/announcements", method: .post, headers: headers, body: body)
        try #require(response.status == .created, "\(String(buffer: response.body))")
        return try PetSpotJSON.decode(AnnouncementResponse.self, from: Data(buffer: response.body))
    }

    /// Posts a raw body to an announcement's photo route with its own credentials.
    func postPhotoBody(_ body: ByteBuffer, contentType: String, to created: AnnouncementResponse) async throws -> TestResponse {
        try await execute(uri: AnnouncementsAPI.photosPath(id: created.id), method: .post,
                          headers: [.contentType: contentType, .authorization: RequestBodies.basic(created.id.rawValue, created.managementPassword)],
                          body: body)
    }

    /// Posts a photo part for an announcement.
    func uploadPhoto(_ data: [UInt8], to created: AnnouncementResponse, password: String? = nil,
                     filename: String = "photo.jpg") async throws -> TestResponse {
        let (body, contentType) = RequestBodies.multipart(filename: filename, data: data)
        return try await executeRequest(
            uri: AnnouncementsAPI.photosPath(id: created.id), method: .post,
            headers: [.contentType: contentType,
                      .authorization: RequestBodies.basic(created.id.rawValue, password ?? created.managementPassword)],
            body: body)
    }
}

extension TestResponse {
    /// The error body's `error` object.
    func apiError() throws -> APIError {
        try PetSpotJSON.decode(APIErrorBody.self, from: Data(buffer: body)).error
    }
}
