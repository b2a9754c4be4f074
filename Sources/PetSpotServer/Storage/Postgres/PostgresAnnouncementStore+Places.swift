import PostgresNIO

extension PostgresAnnouncementStore: PlaceStoring {
    /// Places and names go in as arrays (`unnest`), a few thousand per statement.
    static let placeBatch = 5_000

    public func replacePlaces(_ places: [Place]) async throws -> Int {
        try await mapped {
            try await transaction { connection in
                try await connection.query("DELETE FROM place_name", logger: self.logger).collectAll()
                try await connection.query("DELETE FROM place", logger: self.logger).collectAll()
                var names = 0
                var start = 0
                while start < places.count {
                    let batch = places[start..<min(places.count, start + Self.placeBatch)]
                    start += Self.placeBatch
                    let ids = batch.map(\.id), titles = batch.map(\.name), countries = batch.map(\.countryCode)
                    let populations = batch.map(\.population), latitudes = batch.map(\.latitude), longitudes = batch.map(\.longitude)
                    try await connection.query("""
                        INSERT INTO place (id, name, country_code, population, latitude, longitude)
                        SELECT * FROM unnest(\(ids)::integer[], \(titles)::text[], \(countries)::text[], \(populations)::integer[],
                                             \(latitudes)::double precision[], \(longitudes)::double precision[])
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
                    SELECT id, name, country_code, population, latitude, longitude FROM place
                    WHERE latitude BETWEEN \(latitude.lowerBound) AND \(latitude.upperBound)
                      AND longitude BETWEEN \(range.lowerBound) AND \(range.upperBound)
                    """, logger: self.logger)
                for try await (id, name, country, population, lat, lon) in rows.decode((Int, String, String, Int, Double, Double).self) {
                    found.append(Place(id: id, name: name, countryCode: country, population: population, latitude: lat, longitude: lon))
                }
            }
            return found
        } }
    }

    public func places(named folded: String, limit: Int) async throws -> [Place] {
        try await mapped { try await leased { connection in
            var found: [Place] = []
            let rows = try await connection.query("""
                SELECT p.id, p.name, p.country_code, p.population, p.latitude, p.longitude
                FROM place p WHERE p.id IN (SELECT place_id FROM place_name WHERE folded = \(folded))
                ORDER BY p.population DESC, p.id LIMIT \(limit)
                """, logger: self.logger)
            for try await (id, name, country, population, lat, lon) in rows.decode((Int, String, String, Int, Double, Double).self) {
                found.append(Place(id: id, name: name, countryCode: country, population: population, latitude: lat, longitude: lon))
            }
            return found
        } }
    }
}
