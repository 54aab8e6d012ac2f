import FitBenchPeers

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

func formatTime(_ nanoseconds: Double) -> String {
    if nanoseconds >= 1_000_000 { return format(nanoseconds / 1_000_000, 2) + " ms" }
    if nanoseconds >= 1_000 { return format(nanoseconds / 1_000, 2) + " µs" }
    return format(nanoseconds, 0) + " ns"
}

func format(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite else { return "-" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = String(rounded)
    if decimals == 0, text.hasSuffix(".0") { text.removeLast(2) }
    if decimals > 0 {
        let fraction = text.split(separator: ".", omittingEmptySubsequences: false).last?.count ?? 0
        text += String(repeating: "0", count: max(0, decimals - fraction))
    }
    return text
}

func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return right ? padding + text : text + padding
}

/// How far fitd's widths are from Pango's on the same strings, so the table compares engines
/// that measure the same thing (the oracle's tolerance: max(0.5 px, 0.5 %)).
struct WidthAgreement {
    var within = 0
    var compared = 0
    var failures = 0

    init(peers: [any MeasuringPeer]) {
        guard let pango = peers.first(where: { $0.name == PeerName.pango.rawValue })?.widths(),
              let fitd = peers.first(where: { $0.name == PeerName.fitdCold.rawValue })?.widths()
        else { return }
        for (reference, measured) in zip(pango, fitd) {
            compared += 1
            if measured.isNaN { failures += 1; continue }
            if abs(measured - reference) <= max(0.5, 0.005 * reference) { within += 1 }
        }
    }
}

/// The table: per-string time (median over rounds), its spread, and the ratios.
struct RatioReport {
    let result: RunResult
    let agreement: WidthAgreement

    func times(of name: PeerName) -> [Double]? {
        result.names.firstIndex(of: name.rawValue).map { result.perString[$0] }
    }

    /// Median over rounds of (peer ÷ reference) within each round.
    func ratio(_ peer: [Double], to reference: [Double]?) -> Double {
        guard let reference else { return .nan }
        return median(zip(peer, reference).map { $0 / $1 })
    }

    var uncachedToPango: Double {
        guard let cold = times(of: .fitdCold) else { return .nan }
        return ratio(cold, to: times(of: .pango))
    }

    var warmShapingToPango: Double {
        guard let warm = times(of: .fitdWarmShaping) else { return .nan }
        return ratio(warm, to: times(of: .pango))
    }

    var cachedTime: Double { times(of: .fitdCached).map(median) ?? .nan }

    var targetsMet: Bool { uncachedToPango <= 0.25 && cachedTime < 1_000 }

    var text: String {
        var lines: [String] = []
        let rounds = result.perString.first?.count ?? 0
        lines.append("")
        lines.append("\(rounds) interleaved rounds, \(format(result.seconds, 1)) s in all; per-string time = pass time ÷ \(result.strings) strings")
        lines.append("")
        let header = [pad("peer", 18), pad("p50/string", 11, right: true), pad("min", 10, right: true),
                      pad("max", 10, right: true), pad("spread", 7, right: true), pad("÷ pango", 9, right: true),
                      pad("÷ hb-floor", 11, right: true), pad("passes", 7, right: true)]
        lines.append(header.joined(separator: "  "))
        lines.append(String(repeating: "-", count: header.joined(separator: "  ").count))
        let pango = times(of: .pango)
        let floor = times(of: .harfbuzzFloor)
        for (index, name) in result.names.enumerated() {
            let perString = result.perString[index]
            let p50 = median(perString)
            let low = perString.min() ?? .nan
            let high = perString.max() ?? .nan
            // Spread: (max − min) ÷ median over the rounds, the machine's noise for this peer.
            let spread = format((high - low) / p50 * 100, 0) + " %"
            lines.append([
                pad(name, 18), pad(formatTime(p50), 11, right: true), pad(formatTime(low), 10, right: true),
                pad(formatTime(high), 10, right: true), pad(spread, 7, right: true),
                pad(format(ratio(perString, to: pango), 3), 9, right: true),
                pad(format(ratio(perString, to: floor), 2), 11, right: true),
                pad(String(result.passes[index]), 7, right: true),
            ].joined(separator: "  "))
        }
        lines.append("")
        lines.append("ratios: median over rounds of (peer ÷ reference) in the same round; spread: (max − min) ÷ p50")
        if agreement.compared > 0 {
            lines.append("fitd vs pango widths: \(agreement.within) of \(agreement.compared) within max(0.5 px, 0.5 %)"
                + (agreement.failures > 0 ? ", \(agreement.failures) rejected by fitd" : ""))
        }
        let speedup = 1 / uncachedToPango
        lines.append("target cold ≤ 0.25 × pango:      \(format(uncachedToPango, 3)) (\(format(speedup, 2))× faster) — "
            + (uncachedToPango <= 0.25 ? "MET" : "MISSED"))
        lines.append("(warm shaping, for reference:    \(format(warmShapingToPango, 3)) × pango; it wraps, pango's row does not)")
        lines.append("target cached < 1 µs:            \(formatTime(cachedTime)) — " + (cachedTime < 1_000 ? "MET" : "MISSED"))
        return lines.joined(separator: "\n")
    }
}
