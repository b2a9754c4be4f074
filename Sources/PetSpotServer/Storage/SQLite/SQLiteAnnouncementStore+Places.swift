import GRDB

extension SQLiteAnnouncementStore: PlaceStoring {
    static let placeColumns = """
        p.id, p.name, p.country_code, p.population, p.latitude, p.longitude, p.admin1_code, p.feature_code,
        p.section, p.parent_id, p.ranked
        """

    public func replacePlaces(_ places: [Place]) async throws -> Int {
        try await pool.write { db in
            // Without secure_delete for this transaction: the gazetteer is public data, and
            // overwriting a million freed name rows would multiply the import's time.
            try db.execute(sql: "PRAGMA secure_delete = OFF")
            defer { try? db.execute(sql: "PRAGMA secure_delete = ON") }
            try db.execute(sql: "DELETE FROM place_name; DELETE FROM place_box; DELETE FROM place")
            let place = try db.makeStatement(sql: """
                INSERT INTO place (id, name, country_code, population, latitude, longitude, admin1_code, feature_code,
                                   section, parent_id, ranked)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            let box = try db.makeStatement(sql: "INSERT INTO place_box (id, min_latitude, max_latitude, min_longitude, max_longitude) VALUES (?, ?, ?, ?, ?)")
            let name = try db.makeStatement(sql: "INSERT INTO place_name (folded, place_id) VALUES (?, ?)")
            var names = 0
            for item in places {
                try place.execute(arguments: [item.id, item.name, item.countryCode, item.population, item.latitude, item.longitude,
                                              item.admin1Code, item.featureCode, item.standing?.isSection ?? false,
                                              item.standing?.parentID, item.standing != nil])
                try box.execute(arguments: [item.id, item.latitude, item.latitude, item.longitude, item.longitude])
                for folded in item.foldedNames {
                    try name.execute(arguments: [folded, item.id])
                    names += 1
                }
            }
            return names
        }
    }

    public func placeCount() async throws -> Int {
        try await pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM place") ?? 0 }
    }

    public func places(latitude: ClosedRange<Double>, longitude: [ClosedRange<Double>]) async throws -> [Place] {
        try await pool.read { db in
            var found: [Place] = []
            for range in longitude {
                let rows = try Row.fetchAll(db, sql: """
                    SELECT \(Self.placeColumns)
                    FROM place_box b JOIN place p ON p.id = b.id
                    WHERE b.min_latitude <= ? AND b.max_latitude >= ? AND b.min_longitude <= ? AND b.max_longitude >= ?
                    """, arguments: [latitude.upperBound, latitude.lowerBound, range.upperBound, range.lowerBound])
                found += rows.map(Self.place(row:))
            }
            return found
        }
    }

    public func places(named folded: String, limit: Int) async throws -> [Place] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT DISTINCT \(Self.placeColumns)
                FROM place_name n JOIN place p ON p.id = n.place_id
                WHERE n.folded = ? ORDER BY p.population DESC, p.id LIMIT ?
                """, arguments: [folded, limit]).map(Self.place(row:))
        }
    }

    public func places(prefix: String, box: PlaceBox?, limit: Int) async throws -> [Place] {
        try await pool.read { db in
            let names = "p.id IN (SELECT place_id FROM place_name WHERE folded >= ? AND folded < ?)"
            let bounds: [(any DatabaseValueConvertible)?] = [prefix, PlaceName.upperBound(prefix)]
            guard let box else {
                return try Row.fetchAll(db, sql: "SELECT \(Self.placeColumns) FROM place p WHERE \(names) ORDER BY p.population DESC, p.id LIMIT ?",
                                        arguments: StatementArguments(bounds + [limit])).map(Self.place(row:))
            }
            var found: [Place] = []
            for range in box.longitude {
                found += try Row.fetchAll(db, sql: """
                    SELECT \(Self.placeColumns) FROM place_box b JOIN place p ON p.id = b.id
                    WHERE b.min_latitude <= ? AND b.max_latitude >= ? AND b.min_longitude <= ? AND b.max_longitude >= ? AND \(names)
                    ORDER BY p.population DESC, p.id LIMIT ?
                    """, arguments: StatementArguments([box.latitude.upperBound, box.latitude.lowerBound, range.upperBound,
                                                        range.lowerBound] + bounds + [limit])).map(Self.place(row:))
            }
            return found
        }
    }

    public func places(ids: [Int]) async throws -> [Place] {
        guard !ids.isEmpty else { return [] }
        return try await pool.read { db in
            let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
            return try Row.fetchAll(db, sql: "SELECT \(Self.placeColumns) FROM place p WHERE p.id IN (\(marks))",
                                    arguments: StatementArguments(ids)).map(Self.place(row:))
        }
    }

    public func names(prefix: String, lengths: ClosedRange<Int>, limit: Int) async throws -> [(folded: String, place: Place)] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT n.folded, \(Self.placeColumns) FROM place_name n JOIN place p ON p.id = n.place_id
                WHERE n.folded >= ? AND n.folded < ? AND length(n.folded) BETWEEN ? AND ? LIMIT ?
                """, arguments: [prefix, PlaceName.upperBound(prefix), lengths.lowerBound, lengths.upperBound, limit])
                .map { (folded: $0["folded"], place: Self.place(row: $0)) }
        }
    }

    private static func place(row: Row) -> Place {
        let ranked: Bool = row["ranked"]
        return Place(id: row["id"], name: row["name"], countryCode: row["country_code"], population: row["population"],
                     latitude: row["latitude"], longitude: row["longitude"], admin1Code: row["admin1_code"],
                     featureCode: row["feature_code"],
                     standing: ranked ? Place.Standing(isSection: row["section"], parentID: row["parent_id"]) : nil)
    }
}
