extension OutboxItem.Cap.Scope {
    /// The `outbox` column a cap counts rows by, as SQL, and the value it must equal: both
    /// backends name the columns alike, and a recipient is compared without case.
    var countedColumn: (sql: String, value: String) {
        switch self {
        case .announcement(let id): ("announcement_id", id)
        case .related(let id): ("related_id", id)
        case .recipient(let address): ("lower(recipient)", address.lowercased())
        }
    }
}
