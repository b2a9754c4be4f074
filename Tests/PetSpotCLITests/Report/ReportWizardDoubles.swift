import PetSpot
import PhotoCache
import PhotoPipeline
@testable import PetSpotCLI

/// A person answering the wizard from a list; `nil` (or running out) is the end of input (Ctrl-D).
final class ScriptedPrompter: Prompting {
    private var answers: [String?]
    /// Everything shown and asked, in order.
    private(set) var transcript: [String] = []
    /// The questions asked, in order.
    private(set) var questions: [String] = []

    init(_ answers: [String?]) {
        self.answers = answers
    }

    func say(_ text: String) {
        transcript.append(text)
    }

    /// What Tab would complete at each question, in order.
    private(set) var completions: [AnswerCompletion] = []

    func ask(_ question: String, completing completion: AnswerCompletion) -> String? {
        transcript.append(question)
        questions.append(question)
        completions.append(completion)
        guard !answers.isEmpty else { return nil }
        return answers.removeFirst()
    }

    /// The step headers shown, e.g. "Step 2 of 4 · Photo".
    var headers: [String] {
        transcript.map { $0.trimmingCharacters(in: .newlines) }.filter { $0.hasPrefix("Step ") }
    }

    /// How many questions started with `prefix`.
    func timesAsked(_ prefix: String) -> Int {
        questions.count { $0.hasPrefix(prefix) }
    }
}

/// Photos attached without a cache: known paths attach, others are refused as unreadable.
final class FakePhotos: PhotoAttaching {
    private let files: [String: GPSCoordinate?]
    private(set) var pinned: PhotoReference?
    /// Whether each attach asked for the location.
    private(set) var locationRequests: [Bool] = []

    init(_ files: [String: GPSCoordinate?]) {
        self.files = files
    }

    func attach(path: String, readingLocation: Bool) throws(CacheError) -> AttachedPhoto {
        locationRequests.append(readingLocation)
        guard let gps = files[path] else {
            throw .photo(.unreadableFile(path: path, reason: "No such file or directory"))
        }
        let reference = PhotoReference(cacheKey: "key-\(path)", path: "/cache/\(path)", mimeType: "image/jpeg",
                                       byteCount: 1_000, width: 640, height: 480)
        pinned = reference
        return AttachedPhoto(reference: reference, location: readingLocation ? gps : nil, wasCached: false)
    }

    func detach() throws(CacheError) {
        pinned = nil
    }

    func current() throws(CacheError) -> PhotoReference? { pinned }
}

/// Records every save the wizard makes.
final class SaveLog<Draft: FlowDraft> {
    private(set) var saves: [Draft] = []

    func record(_ draft: Draft) {
        saves.append(draft)
    }
}
