import ArgumentParser
import PetSpot
import PhotoCLI

/// The announcement id every `pet` command takes, checked the same way everywhere.
enum AnnouncementIDArgument {
    /// `id` as an ``AnnouncementID``; a usage error (exit 64) naming what is wrong otherwise.
    static func parse(_ id: String) throws -> AnnouncementID {
        guard let announcementID = AnnouncementID(rawValue: id) else {
            throw ValidationError("\"\(Terminal.escaped(id))\" cannot be an announcement id (empty, too long, or holds /, :, ?, #, % or spaces).")
        }
        return announcementID
    }
}
