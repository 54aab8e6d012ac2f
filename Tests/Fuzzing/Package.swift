// swift-tools-version:6.1
// fitd's libFuzzer targets (docs/reliability.md, "Running the checks"): a package of its own,
// like Benchmarks/, so the product's `swift build` never sees sanitizer flags. Built and run
// by scripts/fuzz (`make fuzz`); how to run one target by hand: README.md beside this file.
import PackageDescription

// Every target is an executable: its @main hands libFuzzer (-sanitize=fuzzer) its test
// function through LLVMFuzzerRunDriver, because SwiftPM names each executable's main itself.
func fuzzTarget(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(name: name, dependencies: ["FuzzSupport"] + dependencies)
}

let package = Package(
    name: "fitd-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named, because a path dependency is otherwise known by its folder's name.
        .package(name: "fitd", path: "../.."),
    ],
    targets: [
        // The fuzz input as D-Bus values (a total, tagged decoding, and its inverse for seeds).
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzer", .product(name: "FitBus", package: "fitd")]),
        .target(name: "CLibFuzzer"),
        fuzzTarget("fuzz-dbus-message", [.product(name: "FitBus", package: "fitd")]),
        fuzzTarget("fuzz-dbus-reader", [.product(name: "FitBus", package: "fitd")]),
        fuzzTarget("fuzz-measure-options", [
            .product(name: "FitBus", package: "fitd"), .product(name: "FitProtocol", package: "fitd"),
            .product(name: "FitText", package: "fitd"),
        ]),
        fuzzTarget("fuzz-layout-wire", [
            .product(name: "FitBus", package: "fitd"), .product(name: "FitProtocol", package: "fitd"),
            .product(name: "FitLayout", package: "fitd"), .product(name: "FitLayoutJSON", package: "fitd"),
        ]),
        fuzzTarget("fuzz-layout-json", [
            .product(name: "FitLayout", package: "fitd"), .product(name: "FitLayoutJSON", package: "fitd"),
        ]),
        fuzzTarget("fuzz-font-description", [.product(name: "FitText", package: "fitd")]),
        fuzzTarget("fuzz-config", [
            .product(name: "FitScale", package: "fitd"), .product(name: "FitService", package: "fitd"),
        ]),
        fuzzTarget("fuzz-text-engine", [.product(name: "FitText", package: "fitd")]),
        fuzzTarget("fuzz-markup", [.product(name: "FitText", package: "fitd")]),
        fuzzTarget("fuzz-result-file", [.product(name: "FitText", package: "fitd")]),
        fuzzTarget("fuzz-json", [.product(name: "FitJSON", package: "fitd")]),
    ]
)
