import PostgresNIO

extension PostgresAnnouncementStore: PlaceStoring {
    /// Places and names go in as arrays (`unnest`), a few thousand per statement.
    static let placeBatch = 5_000

    static let placeColumns = """
        p.id, p.name, p.country_code, p.population, p.latitude, p.longitude, p.admin1_code, p.feature_code,
        p.section, p.parent_id, p.ranked
        """

    public func replacePlaces(_ places: [Place]) async throws -> Int {
        try await mapped {
            try await transaction(long: true) { connection in
                try await connection.query("DELETE FROM place_name", logger: self.logger).collectAll()
                try await connection.query("DELETE FROM place", logger: self.logger).collectAll()
                var names = 0
                var start = 0
                while start < places.count {
                    let batch = places[start..<min(places.count, start + Self.placeBatch)]
                    start += Self.placeBatch
                    let ids = batch.map(\.id), titles = batch.map(\.name), countries = batch.map(\.countryCode)
                    let populations = batch.map(\.population), latitudes = batch.map(\.latitude), longitudes = batch.map(\.longitude)
                    // Arrays cannot hold NULL here: "" and 0 stand for none and are turned back.
                    let admin1 = batch.map { $0.admin1Code ?? "" }, codes = batch.map { $0.featureCode ?? "" }
                    let sections = batch.map { $0.standing?.isSection ?? false }, parents = batch.map { $0.standing?.parentID ?? 0 }
                    let ranked = batch.map { $0.standing != nil }
                    try await connection.query("""
                        INSERT INTO place (id, name, country_code, population, latitude, longitude, admin1_code, feature_code,
                                           section, parent_id, ranked)
                        SELECT id, name, country, population, latitude, longitude, NULLIF(admin1, ''), NULLIF(code, ''),
                               section, NULLIF(parent, 0), ranked
                        FROM unnest(\(ids)::integer[], \(titles)::text[], \(countries)::text[], \(populations)::integer[],
                                    \(latitudes)::double precision[], \(longitudes)::double precision[],
                                    \(admin1)::text[], \(codes)::text[], \(sections)::boolean[], \(parents)::integer[],
                                    \(ranked)::boolean[])
                             AS t(id, name, country, population, latitude, longitude, admin1, code, section, parent, ranked)
                        """, logger: self.logger).collectAll()
                    var folded: [String] = [], owners: [Int] = []
                    for place in batch {
                        for name in place.foldedNames {
                            folded.append(name)
                            owners.append(place.id)
                        }
                    }
                    names += folded.count
                    try await connection.query("""
                        INSERT INTO place_name (folded, place_id) SELECT * FROM unnest(\(folded)::text[], \(owners)::integer[])
                        """, logger: self.logger).collectAll()
                }
                return names
            }
        }
    }

    public func placeCount() async throws -> Int {
        try await mapped { try await leased { connection in
            var count = 0
            for try await value in try await connection.query("SELECT count(*) FROM place", logger: self.logger).decode(Int.self) {
                count = value
            }
            return count
        } }
    }

    public func places(latitude: ClosedRange<Double>, longitude: [ClosedRange<Double>]) async throws -> [Place] {
        try await mapped { try await leased { connection in
            var found: [Place] = []
            for range in longitude {
                let rows = try await connection.query("""
                    SELECT \(unescaped: Self.placeColumns) FROM place p
                    WHERE p.latitude BETWEEN \(latitude.lowerBound) AND \(latitude.upperBound)
                      AND p.longitude BETWEEN \(range.lowerBound) AND \(range.upperBound)
                    """, logger: self.logger)
                found += try await Self.places(rows)
            }
            return found
        } }
    }

    public func places(named folded: String, limit: Int) async throws -> [Place] {
        try await mapped { try await leased { connection in
            try await Self.places(try await connection.query("""
                SELECT \(unescaped: Self.placeColumns)
                FROM place p WHERE p.id IN (SELECT place_id FROM place_name WHERE folded = \(folded))
                ORDER BY p.population DESC, p.id LIMIT \(limit)
                """, logger: self.logger))
        } }
    }

    public func places(prefix: String, box: PlaceBox?, limit: Int) async throws -> [Place] {
        let upper = PlaceName.upperBound(prefix)
        return try await mapped { try await leased { connection in
            guard let box else {
                return try await Self.places(try await connection.query("""
                    SELECT \(unescaped: Self.placeColumns) FROM place p
                    WHERE p.id IN (SELECT place_id FROM place_name
                                   WHERE folded COLLATE "C" >= \(prefix) AND folded COLLATE "C" < \(upper))
                    ORDER BY p.population DESC, p.id LIMIT \(limit)
                    """, logger: self.logger))
            }
            var found: [Place] = []
            for range in box.longitude {
                found += try await Self.places(try await connection.query("""
                    SELECT \(unescaped: Self.placeColumns) FROM place p
                    WHERE p.latitude BETWEEN \(box.latitude.lowerBound) AND \(box.latitude.upperBound)
                      AND p.longitude BETWEEN \(range.lowerBound) AND \(range.upperBound)
                      AND p.id IN (SELECT place_id FROM place_name
                                   WHERE folded COLLATE "C" >= \(prefix) AND folded COLLATE "C" < \(upper))
                    ORDER BY p.population DESC, p.id LIMIT \(limit)
                    """, logger: self.logger))
            }
            return found
        } }
    }

    public func places(ids: [Int]) async throws -> [Place] {
        guard !ids.isEmpty else { return [] }
        return try await mapped { try await leased { connection in
            try await Self.places(try await connection.query(
                "SELECT \(unescaped: Self.placeColumns) FROM place p WHERE p.id = ANY(\(ids)::integer[])", logger: self.logger))
        } }
    }

    public func names(prefix: String, lengths: ClosedRange<Int>, limit: Int) async throws -> [(folded: String, place: Place)] {
        let upper = PlaceName.upperBound(prefix)
        return try await mapped { try await leased { connection in
            var found: [(folded: String, place: Place)] = []
            let rows = try await connection.query("""
                SELECT n.folded, \(unescaped: Self.placeColumns) FROM place_name n JOIN place p ON p.id = n.place_id
                WHERE n.folded COLLATE "C" >= \(prefix) AND n.folded COLLATE "C" < \(upper)
                  AND char_length(n.folded) BETWEEN \(lengths.lowerBound) AND \(lengths.upperBound)
                LIMIT \(limit)
                """, logger: self.logger)
            for try await row in rows {
                let access = row.makeRandomAccess()
                found.append((try access["folded"].decode(String.self), try Self.place(access)))
            }
            return found
        } }
    }

    private static func places(_ rows: PostgresRowSequence) async throws -> [Place] {
        var found: [Place] = []
        for try await row in rows {
            found.append(try place(row.makeRandomAccess()))
        }
        return found
    }

    private static func place(_ row: PostgresRandomAccessRow) throws -> Place {
        let ranked = try row["ranked"].decode(Bool.self)
        return Place(id: try row["id"].decode(Int.self), name: try row["name"].decode(String.self),
                     countryCode: try row["country_code"].decode(String.self), population: try row["population"].decode(Int.self),
                     latitude: try row["latitude"].decode(Double.self), longitude: try row["longitude"].decode(Double.self),
                     admin1Code: try row["admin1_code"].decode(String?.self), featureCode: try row["feature_code"].decode(String?.self),
                     standing: ranked ? Place.Standing(isSection: try row["section"].decode(Bool.self),
                                                       parentID: try row["parent_id"].decode(Int?.self)) : nil)
    }
}
