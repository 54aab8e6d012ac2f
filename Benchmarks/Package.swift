// swift-tools-version:6.1
// fitd's benchmarks: a package of its own, so the product never depends on bench-only
// libraries (docs/architecture.md). How to run them: README.md beside this file.
import PackageDescription

let package = Package(
    name: "fitd-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // The root package; named, because a path dependency is otherwise known by its folder's
        // name, which differs between a clone and a work tree.
        .package(name: "fitd", path: ".."),
        // The MallocInterposer trait alone: the default traits also ask for a runtime
        // interposer that is not among the packages this machine mirrors.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // Pango's C API (and the HarfBuzz it is built on), the peers fitd is measured against.
        .systemLibrary(
            name: "CPangoCairo", pkgConfig: "pangocairo",
            providers: [.apt(["libpango1.0-dev"])]),

        // The corpus and the four peers, shared by both front ends below.
        .target(
            name: "FitBenchPeers",
            dependencies: ["CPangoCairo", .product(name: "FitText", package: "fitd")]),

        // Plain executable (no malloc interposer): times the peers in one process, in
        // interleaved rounds, and prints the ratio table. What `scripts/bench` runs.
        .executableTarget(
            name: "FitBenchRatios",
            dependencies: [
                "FitBenchPeers",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // Plain executable: `fitctl measure --batch --local` as a whole process on 20,000
        // mixed-script strings against Pango, its stages, the JSON choices (README, "Process").
        .executableTarget(
            name: "FitBenchProcess",
            dependencies: [
                "FitBenchPeers",
                .product(name: "FitJSON", package: "fitd"),
                .product(name: "FitText", package: "fitd"),
            ]),

        // The layout documents the layout benchmarks use (a settings screen of N nodes).
        .target(name: "FitBenchDocuments", dependencies: [.product(name: "FitLayout", package: "fitd")]),

        // Plain executable: in-process layout (FitLayout over the real text engine), the
        // 50-node figure and the growth with the node count. README.md, "Layout".
        .executableTarget(
            name: "FitBenchLayout",
            dependencies: [
                "FitBenchDocuments",
                .product(name: "FitLayout", package: "fitd"),
                .product(name: "FitLayoutText", package: "fitd"),
                .product(name: "FitText", package: "fitd"),
            ]),

        // Plain executable: `fitctl check` on 45 languages of gtk40 × 12 categories × 20 widths of a
        // 50-node document, against `fitctl fit` per case (README.md, "Translations").
        .executableTarget(
            name: "FitBenchCheck",
            dependencies: [.product(name: "FitTranslations", package: "fitd")]),

        // Plain executable: pictures of layouts, 50 nodes × 12 size categories to SVG and PNG.
        // README.md, "Pictures".
        .executableTarget(
            name: "FitBenchPictures",
            dependencies: [
                "FitBenchDocuments",
                .product(name: "FitLayout", package: "fitd"),
                .product(name: "FitLayoutText", package: "fitd"),
                .product(name: "FitRender", package: "fitd"),
                .product(name: "FitText", package: "fitd"),
            ]),

        // Plain executable: the text engine's cost model, time per KiB as each request shape
        // grows from 16 KiB to the text limit. README.md, "Cost model".
        .executableTarget(
            name: "FitBenchCost",
            dependencies: [
                .product(name: "FitText", package: "fitd"),
                .product(name: "FitLayout", package: "fitd"),
                .product(name: "FitLayoutText", package: "fitd"),
            ]),

        // The D-Bus floor: a C libdbus service whose one method returns its argument.
        .systemLibrary(name: "CDBusBench", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        .executableTarget(name: "fit-echo-service", dependencies: ["CDBusBench"]),
        // fitd over D-Bus against that floor, and its memory and start-up time. README, "Daemon".
        .executableTarget(
            name: "FitBenchDaemon",
            dependencies: [
                "FitBenchDocuments",
                .product(name: "FitBus", package: "fitd"),
                .product(name: "FitProtocol", package: "fitd"),
                .product(name: "FitLayout", package: "fitd"),
                .product(name: "FitText", package: "fitd"),
            ]),

        // ordo-one/benchmark suites (`swift package benchmark`): percentiles, allocations.
        .executableTarget(
            name: "TextMeasurement",
            dependencies: ["FitBenchPeers", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/TextMeasurement",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
    ]
)
