import Hummingbird
import HummingbirdCore
import Logging

/// At most `limit` connections open at once: at the limit the server stops accepting (new
/// connections wait in the kernel's listen queue, they are not refused) and says so once, at
/// warning level, until the count falls below the limit again.
struct ConnectionCap: AvailableConnectionsDelegate {
    let limit: Int
    let logger: Logger
    private var open = 0
    private var atLimit = false

    init(limit: Int, logger: Logger) {
        self.limit = limit
        self.logger = logger
    }

    mutating func connectionOpened() {
        open += 1
        if open >= limit && !atLimit {
            atLimit = true
            logger.warning("\(open) connections open, the --max-connections limit: new connections wait until one closes",
                           metadata: ["connections": .stringConvertible(open)])
        }
    }

    mutating func connectionClosed() {
        open -= 1
        if atLimit && open < limit * 9 / 10 {
            atLimit = false
            logger.notice("connections below the limit again", metadata: ["connections": .stringConvertible(open)])
        }
    }

    func isAcceptingNewConnections() -> Bool {
        open < limit
    }
}
