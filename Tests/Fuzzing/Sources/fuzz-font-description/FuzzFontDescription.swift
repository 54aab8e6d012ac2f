import FitText
import FuzzSupport

// Pango font descriptions ("Noto Sans Bold Italic 12", "Mono 10px"): what Measure's font
// argument, Layout's ui_font and every text node's font carry. The input is the description.
// Checks: no crash, and the documented round trip (FontDescription.description "parses back
// to an equal value").

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    Seeds.writeIfAsked {
        [
            "Sans 12", "Noto Sans Bold Italic 12", "DejaVu Sans Mono 10px", "Cantarell, Noto Sans, sans-serif 11",
            "Serif Condensed Semi-Bold Small-Caps 14.5", "Monospace Ultra-Light Oblique Expanded 9",
            "Noto Sans CJK JP Heavy 16", "sans-serif", "12", "Sans 0.5", "Sans 1e3", "Sans,Serif Italic 12px",
        ].enumerated().map { (name: "font-\($0.offset)", bytes: Array($0.element.utf8)) }
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func test(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let text = input.rest()
    guard let parsed = try? FontDescription.parse(text) else { return 0 }
    let canonical = parsed.description
    guard let again = try? FontDescription.parse(canonical) else {
        fuzzFailure("\(text.debugDescription) parses, its description \(canonical.debugDescription) does not")
    }
    guard again == parsed else {
        fuzzFailure("\(text.debugDescription) → \(canonical.debugDescription) parses back to \(again.description.debugDescription)")
    }
    return 0
}

@main enum Main {
    static func main() { runFuzzer(test) }
}
