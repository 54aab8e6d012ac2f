import ArgumentParser
import FitClient
import FitJSON
import FitProtocol

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the daemon's version, generation and cache figures.",
        discussion: HelpText.discussion("""
            Examples:
              fitctl status
              fitctl status --json
              fitctl status --local        # the engine in this process

            Exits 69 when no daemon answers (without --local): fitctl status is a health check.
            """))

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let client = try await ClientFactory.daemon(common, command: "status")
        let version: String
        let generation: UInt64
        let stats: ServiceStatistics
        let toolkit: String?
        let toolkitSettings: String?
        do {
            version = try await client.version()
            generation = try await client.generation()
            stats = try await client.statistics()
            let scale = try await client.textScale()
            (toolkit, toolkitSettings) = (scale.toolkit, scale.toolkitSettings)
        } catch {
            throw CommandFailure(error.description)
        }
        let mode = client.isEmbedded ? "in-process" : "daemon"
        if common.json {
            // Order: mode, version, generation, requests_served, uptime_seconds, caches (each:
            // name, entries, bytes, byte_limit, hits, misses, evictions).
            JSONOutput.print { w in
                w.beginObject()
                w.member("mode", mode)
                w.member("version", version)
                w.member("generation", generation)
                if let toolkit { w.member("toolkit", toolkit) }
                if let toolkitSettings { w.member("toolkit_settings", toolkitSettings) }
                w.member("requests_served", stats.requestsServed)
                w.member("uptime_seconds", stats.uptimeSeconds)
                w.key("caches")
                w.beginArray()
                for cache in stats.caches {
                    w.beginObject()
                    w.member("name", cache.name)
                    w.member("entries", cache.entries)
                    w.member("bytes", cache.bytes)
                    w.member("byte_limit", cache.byteLimit)
                    w.member("hits", cache.hits)
                    w.member("misses", cache.misses)
                    w.member("evictions", cache.evictions)
                    w.endObject()
                }
                w.endArray()
                w.endObject()
            }
            return
        }
        print("fitd \(version) (\(mode)), generation \(generation), \(stats.requestsServed) requests served, up \(MetricsText.format(stats.uptimeSeconds)) s")
        if let toolkit { print("measures as \(ToolkitText.describe(toolkit, settings: toolkitSettings))") }
        // The name column as wide as the longest name ("layout-replies").
        let nameWidth = max(13, (stats.caches.map(\.name.count).max() ?? 0) + 1)
        print("cache".padding(nameWidth) + "  entries        bytes       limit         hits       misses    evictions")
        for cache in stats.caches {
            let limit = cache.byteLimit > 0 ? String(cache.byteLimit) : "-"
            print(
                cache.name.padding(nameWidth) + String(cache.entries).leftPadding(9) + String(cache.bytes).leftPadding(13)
                    + limit.leftPadding(12) + String(cache.hits).leftPadding(13) + String(cache.misses).leftPadding(13)
                    + String(cache.evictions).leftPadding(13))
        }
    }
}

struct PingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ping",
        abstract: "Check that the daemon answers, and how fast.",
        discussion: HelpText.discussion("""
            Examples:
              fitctl ping
              fitctl ping --json

            Exits 69 when no daemon answers (without --local).
            """))

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let client = try await ClientFactory.daemon(common, command: "ping")
        let elapsed: Duration
        do {
            elapsed = try await client.ping()
        } catch {
            throw CommandFailure(error.description)
        }
        let microseconds = Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6
        if common.json {
            JSONOutput.print { w in
                w.beginObject()
                w.member("mode", client.isEmbedded ? "in-process" : "daemon")
                w.member("round_trip_us", microseconds)
                w.endObject()
            }
        } else {
            print(client.isEmbedded ? "in-process (--local): no daemon asked" : "fitd answered in \(MetricsText.format(microseconds)) µs")
        }
    }
}

extension String {
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    func leftPadding(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
