/// The methods each path of the API answers, for `405 Method Not Allowed` with `Allow`: a
/// known path asked with another method is not "not found". Kept beside the routes it mirrors
/// (``AnnouncementRoutes``, ``PhotoUploadRoute``, ``PhotoFileRoutes``, ``PageRoutes``, ``ShareRoutes``,
/// ``PlacesRoute``, ``HealthRoute``, ``ReportRoutes``, ``ManageRoutes``, ``MailLinkRoutes``, ``AreaAlertRoutes``);
/// `ContractEdgeTests` checks each listed method is served and the others are 405.
enum RouteMethods {
    /// Path patterns, `*` standing for one segment.
    static let table: [(pattern: [Substring], methods: [String])] = [
        (["health"], ["GET"]),
        (["health", "live"], ["GET"]),
        (["api", "v1", "announcements"], ["GET", "POST"]),
        (["api", "v1", "announcements", "*"], ["GET", "PATCH", "DELETE"]),
        (["api", "v1", "announcements", "*", "photos"], ["POST"]),
        (["api", "v1", "announcements", "*", "photo"], ["DELETE"]),
        (["api", "v1", "announcements", "*", "matches"], ["GET"]),
        (["photos", "*"], ["GET", "HEAD"]),
        (["photos", "*", "*"], ["GET", "HEAD"]),
        ([""], ["GET", "HEAD"]),
        (["api", "v1", "places"], ["GET"]),
        (["pets", "*"], ["GET", "HEAD"]),
        (["pets", "*", "flyer.pdf"], ["GET", "HEAD"]),
        (["pets", "*", "card.jpg"], ["GET", "HEAD"]),
        (["static", "*"], ["GET", "HEAD"]),
        (["robots.txt"], ["GET", "HEAD"]),
        (["feed.atom"], ["GET", "HEAD"]),
        (["report"], ["GET", "HEAD"]),
        (["report", "missing"], ["GET", "POST"]),
        (["report", "found"], ["GET", "POST"]),
        (["report", "photo"], ["POST"]),
        (["report", "sent", "*"], ["GET"]),
        (["pets", "*", "manage"], ["GET", "POST"]),
        (["pets", "*", "manage", "sign-in"], ["POST"]),
        (["pets", "*", "manage", "status"], ["POST"]),
        (["pets", "*", "manage", "take-down"], ["GET", "POST"]),
        (["pets", "*", "manage", "password"], ["POST"]),
        (["pets", "*", "manage", "sign-out"], ["POST"]),
        (["mail", "unsubscribe", "*"], ["GET", "POST"]),
        (["alerts", "confirm", "*"], ["GET", "POST"]),
        (["alerts"], ["POST"]),
        (["alerts", "new"], ["GET"]),
        (["alerts", "check-email"], ["GET"]),
    ]

    /// The methods `path` answers, or `nil` when no route has that shape.
    static func allowed(for path: String) -> [String]? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        return table.first { entry in
            entry.pattern.count == segments.count
                && zip(entry.pattern, segments).allSatisfy { pattern, segment in pattern == "*" ? !segment.isEmpty : pattern == segment }
        }?.methods
    }
}
