// swift-tools-version:6.0
// fitd: text measurement and adaptive-layout decisions for Linux programs, over D-Bus.
// Layout of the package: docs/architecture.md ("The modules"). C appears only in the
// C* targets; everything above them speaks Swift value types.
import PackageDescription

let package = Package(
    name: "fitd",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "FitText", targets: ["FitText"]),
        .library(name: "FitBus", targets: ["FitBus"]),
        .library(name: "FitScale", targets: ["FitScale"]),
        // Pictures of measured text (SVG, PNG); fitctl links it, the daemon does not.
        .library(name: "FitRender", targets: ["FitRender"]),
        .library(name: "FitLayout", targets: ["FitLayout"]),
        .library(name: "FitLayoutJSON", targets: ["FitLayoutJSON"]),
        .library(name: "FitLayoutText", targets: ["FitLayoutText"]),
        // fitctl's JSON text (exact writer, strict reader); a product for the benchmarks.
        .library(name: "FitJSON", targets: ["FitJSON"]),
        .library(name: "FitProtocol", targets: ["FitProtocol"]),
        // Translation catalogs (.po, .mo, JSON) for `fitctl check`.
        .library(name: "FitTranslations", targets: ["FitTranslations"]),
        // The client of the daemon alone: links libdbus and no text engine (no HarfBuzz,
        // fontconfig, ICU or cairo). FitClient adds the in-process fallback on top of it.
        .library(name: "FitDBusClient", targets: ["FitDBusClient"]),
        .library(name: "FitClient", targets: ["FitClient"]),
        // Requests, metrics, options and errors without C: what both sides of the bus use.
        .library(name: "FitTypes", targets: ["FitTypes"]),
        // For Tests/Fuzz (ServiceLimits from fitd.conf); programs use FitClient.
        .library(name: "FitService", targets: ["FitService"]),
        .executable(name: "fitd", targets: ["fitd"]),
        .executable(name: "fitctl", targets: ["fitctl"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // `swift package generate-documentation` (make docs): FitDBusClient's DocC catalog.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // System libraries: pkg-config finds them, the apt providers name the Debian package.
        .systemLibrary(
            name: "CFontconfig", pkgConfig: "fontconfig",
            providers: [.apt(["libfontconfig-dev"])]),
        .systemLibrary(
            name: "CHarfBuzz", pkgConfig: "harfbuzz",
            providers: [.apt(["libharfbuzz-dev"])]),
        // Thai line breaks from libthai's dictionary, as Pango takes them (break-thai.c).
        .systemLibrary(
            name: "CThai", pkgConfig: "libthai",
            providers: [.apt(["libthai-dev"])]),
        // PNG pictures (FitRender): the rasterizer GTK 3 and pango-view draw with.
        .systemLibrary(
            name: "CCairo", pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev"])]),
        // Layout pictures' PNG encoding (FitRender.PNGEncoder): deflate at its fastest level.
        .systemLibrary(
            name: "CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(
            name: "CDBus", pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]),
        // ICU renames its symbols per version; the shim is compiled against the installed
        // headers so Swift calls stable names (see include/fit_icu.h).
        // GNOME's settings through GSettings, GIO loaded at the first read (dlopen), for the
        // text scale without a portal (include/fit_gsettings.h).
        .target(name: "CFitGSettings", linkerSettings: [.linkedLibrary("dl")]),
        // Xft.dpi from the X server through libxcb, on a thread of its own with a deadline
        // (include/fit_xresources.h says why not Xlib).
        .target(name: "CFitXResources", linkerSettings: [.linkedLibrary("xcb")]),
        .target(
            name: "CFitShims",
            linkerSettings: [.linkedLibrary("icuuc"), .linkedLibrary("icudata")]),

        // The value types of a measurement (MeasureRequest, TextMetrics, ResolvedFont, the option
        // words, FitTextError, TextLimits): pure Swift, no Foundation. FitText re-exports them.
        .target(name: "FitTypes"),
        .target(
            name: "FitText",
            dependencies: [
                "FitTypes", "CFontconfig", "CHarfBuzz", "CFitShims", "CThai",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // Pictures of FitText's layouts: glyph outlines (HarfBuzz) to SVG, and to PNG through
        // cairo. Beside the engine, apart from it: the daemon does not link it.
        .target(name: "FitRender", dependencies: ["FitText", "FitLayout", "FitLayoutText", "CHarfBuzz", "CCairo", "CZlib"]),
        // POSIX threads for blocking loops, so the daemon's modules need no Foundation `Thread`.
        .target(name: "FitThreads"),
        // General Swift binding of libdbus; knows nothing of fitd (docs/architecture.md).
        .target(name: "FitBus", dependencies: ["CDBus", "FitThreads"]),
        // Text scale, size categories, text styles and change watching. Speaks to fontconfig
        // only (no FitText): the daemon joins the two.
        .target(
            name: "FitScale",
            dependencies: [
                "CFontconfig", "CFitGSettings", "CFitXResources", "FitThreads", "FitTypes",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The layout engine is pure Swift: it knows text only through LayoutTextMeasurer.
        .target(name: "FitLayout", dependencies: ["FitTypes"]),
        // Layout documents as JSON text (JSONDecoder/JSONEncoder), for fitctl and other programs;
        // apart from FitLayout so that the daemon, which gets documents as D-Bus values, links no
        // Foundation (idle memory).
        .target(name: "FitLayoutJSON", dependencies: ["FitLayout"]),
        // JSON text without Foundation: fitctl's output in a fixed key order and its batch
        // request parser (JSONSerialization's sorted keys were 71 % of a batch).
        .target(name: "FitJSON"),
        // FitLayout's measurer over FitText's engine and FitScale's text styles: kept out of
        // FitLayout (which stays free of C) and out of FitService (so FitClient can lay out
        // in-process without the daemon's logic).
        .target(name: "FitLayoutText", dependencies: ["FitLayout", "FitText", "FitScale", "FitThreads"]),
        // gettext catalogs (.po, .mo, LINGUAS, installed domains) and flat JSON translation files,
        // read as untrusted input: what `fitctl check` lays a document out in. Client side only.
        .target(name: "FitTranslations", dependencies: ["FitJSON"]),
        // The org.fitd.Fit1 contract: names, errors, codecs; shared by daemon and clients. Free
        // of the engine (FitTypes, not FitText), so that FitDBusClient links no C but libdbus.
        .target(name: "FitProtocol", dependencies: ["FitTypes", "FitBus", "FitLayout"]),
        // The daemon's logic (handlers, caches, generation), without process concerns.
        .target(
            name: "FitService",
            dependencies: [
                "FitText", "FitBus", "FitProtocol", "FitScale", "FitLayout", "FitLayoutText", "FitThreads",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // What other Swift programs link to talk to the daemon: libdbus and pure Swift only.
        .target(name: "FitDBusClient", dependencies: ["FitTypes", "FitBus", "FitProtocol", "FitLayout"]),
        // FitDBusClient, or the engine in-process when the daemon cannot be reached.
        .target(
            name: "FitClient",
            dependencies: [
                "FitDBusClient", "FitText", "FitBus", "FitProtocol", "FitLayout", "FitLayoutText", "FitScale", "FitThreads",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(
            name: "fitd",
            dependencies: [
                "FitService", "FitProtocol", "FitBus", "FitText", "FitScale",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        .executableTarget(
            name: "fitctl",
            dependencies: [
                "FitText", "FitRender", "FitClient", "FitDBusClient", "FitProtocol", "FitLayout", "FitLayoutJSON", "FitScale", "FitJSON",
                "FitTranslations", "FitThreads",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // FitDBusClient's example (clients/swift): what Tests/EndToEnd/swift_client.sh runs
        // against a daemon on a private bus, and whose binary it checks links no text engine.
        .executableTarget(name: "fit-swift-example", dependencies: ["FitDBusClient"], path: "clients/swift/Example"),

        .testTarget(name: "FitTypesTests", dependencies: ["FitTypes"]),
        .testTarget(name: "FitTextTests", dependencies: ["FitText", "FitTestSupport"]),
        // Test support shared by the targets that need a private bus.
        .target(name: "FitTestSupport", dependencies: ["FitBus", "FitText", "FitLayout"], path: "Tests/FitTestSupport"),
        .testTarget(name: "FitBusTests", dependencies: ["FitBus", "FitTestSupport"]),
        .testTarget(name: "FitRenderTests", dependencies: ["FitRender", "FitText", "FitTestSupport", "FitLayout", "FitLayoutJSON", "FitLayoutText", "CCairo"]),
        .testTarget(name: "FitThreadsTests", dependencies: ["FitThreads"]),
        .testTarget(name: "FitScaleTests", dependencies: ["FitScale", "CFitXResources"]),
        .testTarget(name: "FitJSONTests", dependencies: ["FitJSON"]),
        .testTarget(name: "FitTranslationsTests", dependencies: ["FitTranslations"], exclude: ["Fixtures"]),
        // fitctl check's own logic (documents with msgids, candidate widths, conditions); the
        // command as a whole is Tests/EndToEnd/translation_check.sh.
        .testTarget(name: "fitctlTests", dependencies: ["fitctl", "FitLayout", "FitTranslations"]),
        // fitd's command line (the daemon itself runs in the EndToEnd and Reliability tests).
        .testTarget(name: "fitdTests", dependencies: ["fitd", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "FitLayoutTests", dependencies: ["FitLayout", "FitLayoutJSON"]),
        .testTarget(name: "FitLayoutJSONTests", dependencies: ["FitLayoutJSON", "FitLayout", "FitJSON"]),
        .testTarget(name: "FitLayoutTextTests", dependencies: ["FitTestSupport", "FitLayoutText", "FitLayout", "FitLayoutJSON", "FitText", "FitScale"]),
        .testTarget(name: "FitProtocolTests", dependencies: ["FitProtocol", "FitTypes", "FitLayout", "FitLayoutJSON", "FitBus"]),
        // A FitService served on a private bus and clients of it: what the service's and the
        // clients' tests share.
        .target(
            name: "FitServiceTestSupport",
            dependencies: ["FitTestSupport", "FitService", "FitClient", "FitBus", "FitProtocol", "FitText", .product(name: "Logging", package: "swift-log")],
            path: "Tests/FitServiceTestSupport"),
        .testTarget(name: "FitServiceTests", dependencies: ["FitService", "FitServiceTestSupport", "FitThreads", "FitLayout", "FitLayoutJSON", "FitClient", "FitBus", "FitTestSupport", "FitProtocol", "FitText", "FitScale", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "FitDBusClientTests", dependencies: ["FitDBusClient", "FitServiceTestSupport", "FitService", "FitScale", "FitText", "FitTypes", "FitBus", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "FitClientTests", dependencies: ["FitClient", "FitServiceTestSupport", "FitLayout", "FitProtocol", "FitText", "FitBus"]),
    ]
)
