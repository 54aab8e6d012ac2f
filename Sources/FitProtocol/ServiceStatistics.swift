import FitBus
import FitTypes

/// What GetStats returns: per-cache figures, requests served, uptime.
public struct ServiceStatistics: Sendable, Equatable, Codable {
    public var caches: [CacheStatistics]
    public var requestsServed: UInt64
    public var uptimeSeconds: Double

    public init(caches: [CacheStatistics], requestsServed: UInt64, uptimeSeconds: Double) {
        self.caches = caches
        self.requestsServed = requestsServed
        self.uptimeSeconds = uptimeSeconds
    }

    public var dbusValues: [DBusValue] {
        [
            .array(elementSignature: "(suttttt)", caches.map { cache in
                .structure([
                    .string(cache.name), .uint32(UInt32(clamping: cache.entries)), .uint64(UInt64(max(0, cache.bytes))),
                    .uint64(UInt64(max(0, cache.byteLimit))), .uint64(cache.hits), .uint64(cache.misses), .uint64(cache.evictions),
                ])
            }),
            .uint64(requestsServed), .double(uptimeSeconds),
        ]
    }

    public init(dbusValues values: [DBusValue]) throws(DBusError) {
        guard values.count == 3, case .array(_, let entries) = values[0], case .uint64(let served) = values[1],
            case .double(let uptime) = values[2]
        else { throw DBusError(.invalidArgs, "GetStats reply is not a(suttttt)td") }
        var caches: [CacheStatistics] = []
        for entry in entries {
            guard case .structure(let f) = entry, f.count == 7, case .string(let name) = f[0], case .uint32(let count) = f[1],
                case .uint64(let bytes) = f[2], case .uint64(let limit) = f[3], case .uint64(let hits) = f[4],
                case .uint64(let misses) = f[5], case .uint64(let evictions) = f[6]
            else { throw DBusError(.invalidArgs, "cache statistics are not (suttttt)") }
            caches.append(CacheStatistics(
                name: name, entries: Int(count), bytes: Int(clamping: bytes), byteLimit: Int(clamping: limit),
                hits: hits, misses: misses, evictions: evictions))
        }
        self.init(caches: caches, requestsServed: served, uptimeSeconds: uptime)
    }
}
