import FitText
import FuzzSupport

// Pango markup (the Measure/Layout option `markup`): what a peer's text becomes when it says
// it is markup. The input is the markup. Checks: no crash; a parse either fails with a typed
// error or gives stretches that cover the plain text exactly, in order; and the text measures
// (a typed error, such as a size fitd refuses, is fine).

// The pinned fonts (scripts/fuzz sets FONTCONFIG_FILE); small caches, as fuzz-text-engine.
let engine: TextEngine? = {
    var configuration = TextEngine.Configuration()
    configuration.language = "en-us"
    configuration.shapeCacheBytes = 4 << 20
    configuration.resultCacheBytes = 4 << 20
    configuration.paragraphCacheBytes = 1 << 20
    return try? TextEngine(configuration: configuration)
}()

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    Seeds.writeIfAsked {
        [
            "<b>Save</b> changes", "H<sub>2</sub>O x<sup>2<sup>3</sup></sup>", "a &amp; b &lt;c&gt; &#65;&#x1F600;",
            "<span font=\"Noto Serif 14\" weight=\"600\" size=\"larger\" letter_spacing=\"1024\">x</span>",
            "<big><span size=\"20pt\"><small>y</small></span></big>", "<span rise=\"-3pt\" baseline_shift=\"superscript\">z</span>",
            "<span lang=\"sr\" font_features=\"tnum\">бгд</span>", "<!-- c -->x<![CDATA[<b>]]><b/>", "<b>Save</i>",
        ].enumerated().map { (name: "markup-\($0.offset)", bytes: Array($0.element.utf8)) }
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func test(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let markup = input.rest()
    guard let parsed = try? MarkupParser.parse(markup) else { return 0 }
    var covered = 0
    for run in parsed.runs {
        guard run.utf16.lowerBound == covered, !run.utf16.isEmpty else {
            fuzzFailure("\(markup.debugDescription): stretch \(run.utf16) after \(covered)")
        }
        covered = run.utf16.upperBound
    }
    guard covered == parsed.text.utf16.count else {
        fuzzFailure("\(markup.debugDescription): stretches end at \(covered) of \(parsed.text.utf16.count)")
    }
    if let engine {
        var request = MeasureRequest(text: markup, font: "DejaVu Sans 10", maxWidth: 80)
        request.markup = true
        _ = try? engine.measure(request)
    }
    return 0
}

@main enum Main {
    static func main() { runFuzzer(test) }
}
