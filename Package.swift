// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Strata",
    products: [
        .library(name: "LayerKit", targets: ["LayerKit"]),
        .library(name: "WaylandClient", targets: ["WaylandClient"]),
        .library(name: "PixmanRender", targets: ["PixmanRender"]),
        .library(name: "StrataTesting", targets: ["StrataTesting"]),
        .library(name: "Strata", targets: ["Strata"]),
        .executable(name: "strata-probe", targets: ["strata-probe"]),
    ],
    targets: [
        // Layers, actions, transactions, animations, media time. Pure Swift:
        // knows nothing of Wayland or pixman.
        .target(name: "LayerKit"),

        // C libraries of the field, found with pkg-config.
        .systemLibrary(name: "CWayland", pkgConfig: "wayland-client", providers: [.apt(["libwayland-dev"])]),
        .systemLibrary(name: "CPixman", pkgConfig: "pixman-1", providers: [.apt(["libpixman-1-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CXKBCommon", pkgConfig: "xkbcommon", providers: [.apt(["libxkbcommon-dev"])]),
        .systemLibrary(name: "CWaylandCursor", pkgConfig: "wayland-cursor", providers: [.apt(["libwayland-dev"])]),
        // Text: Pango lays out (HarfBuzz, FriBidi, fontconfig), FreeType rasterizes.
        .systemLibrary(name: "CPango", pkgConfig: "pangoft2", providers: [.apt(["libpango1.0-dev"])]),
        // memfd_create and seals, which Glibc hides from Swift.
        .target(name: "CShims"),

        // Typed protocol bindings (generated), connection, shm buffers, windows, frame pacing.
        .target(name: "WaylandClient", dependencies: ["CWayland", "CWaylandCursor", "CPixman", "CXKBCommon", "CShims"]),
        // Each test in a LayerContext of its own (a Swift Testing trait).
        .target(name: "LayerKitTesting", dependencies: ["LayerKit"]),
        .testTarget(name: "LayerKitTests", dependencies: ["LayerKit", "LayerKitTesting"]),

        // Examples: each opens with one line saying what it shows.
        .executableTarget(name: "strata-demo", dependencies: ["Strata", "StrataTesting", "WaylandClient"], path: "Examples/StrataDemo"),
        .executableTarget(name: "rounded-rects", dependencies: ["WaylandClient", "StrataTesting", "CPixman"], path: "Examples/RoundedRects"),

        // Renders LayerKit trees with pixman; PNG through libpng.
        .target(name: "PixmanRender", dependencies: ["LayerKit", "CPixman", "CPNG"]),
        .testTarget(name: "PixmanRenderTests", dependencies: ["PixmanRender", "LayerKit", "LayerKitTesting", "CPixman", "StrataFuzzing"]),

        // The app toolkit: views, animation blocks, layout, windows and the application.
        .target(name: "Strata", dependencies: ["LayerKit", "WaylandClient", "PixmanRender", "CPango", "CPixman", "CGio"]),

        .testTarget(name: "StrataTests", dependencies: ["Strata", "ShellApps", "StrataTesting", "LayerKitTesting", "PixmanRender", "WaylandClient", "CPango", "StrataAppFuzzing"]),

        // Compositor-integration kit: headless compositors, capture, compare, frame statistics.
        .target(name: "StrataTesting", dependencies: ["Strata", "WaylandClient", "PixmanRender", "CShims", "CWayland", "StrataTestingTools"]),
        // Its helper programs in C (kwin screenshots and mutter's remote desktop over
        // D-Bus, a minimal Wayland server), run as re-executions of the program.
        .target(name: "StrataTestingTools", dependencies: ["CGio", "CWaylandServer"]),
        .systemLibrary(name: "CGio", pkgConfig: "gio-unix-2.0", providers: [.apt(["libglib2.0-dev"])]),
        .systemLibrary(name: "CWaylandServer", pkgConfig: "wayland-server", providers: [.apt(["libwayland-dev"])]),
        .testTarget(name: "WaylandClientTests", dependencies: ["WaylandClient", "StrataTesting", "LayerKitTesting", "PixmanRender", "Strata", "CPixman"]),

        .executableTarget(name: "seed-listings", dependencies: ["LayerKit", "PixmanRender"], path: "Examples/SeedListings"),
        .executableTarget(name: "layer-snapshot", dependencies: ["LayerKit", "PixmanRender"], path: "Examples/LayerSnapshot"),
        // A command line for compositor developers: what a compositor offers, without writing Swift.
        .executableTarget(name: "strata-probe", dependencies: ["StrataTesting", "WaylandClient"], path: "Tools/StrataProbe"),
        .executableTarget(name: "gallery", dependencies: ["Strata", "StrataTesting"], path: "Examples/Gallery"),
        .executableTarget(name: "clock", dependencies: ["Strata", "StrataTesting"], path: "Examples/Clock"),
        .executableTarget(name: "text", dependencies: ["Strata", "StrataTesting"], path: "Examples/Text"),
        .executableTarget(name: "controls", dependencies: ["Strata", "StrataTesting"], path: "Examples/Controls"),
        .target(name: "ShellApps", dependencies: ["Strata", "PixmanRender", "CGio"], path: "Examples/ShellApps"),
        .executableTarget(name: "panel", dependencies: ["ShellApps", "Strata", "StrataTesting"], path: "Examples/Panel"),
        .executableTarget(name: "launcher", dependencies: ["ShellApps", "Strata", "StrataTesting"], path: "Examples/Launcher"),
        .executableTarget(name: "notifyd", dependencies: ["ShellApps", "Strata", "StrataTesting"], path: "Examples/Notifyd"),
        .executableTarget(name: "osd", dependencies: ["ShellApps", "Strata", "StrataTesting"], path: "Examples/Osd"),
        .executableTarget(name: "todo", dependencies: ["Strata", "StrataTesting"], path: "Examples/Todo"),
        .executableTarget(name: "form", dependencies: ["Strata", "StrataTesting"], path: "Examples/Form"),
        .executableTarget(name: "settings", dependencies: ["Strata", "StrataTesting"], path: "Examples/Settings"),

        // Hostile programs over the public API, for the fuzzer (scripts/fuzz) and its regression corpus.
        .target(name: "StrataFuzzing", dependencies: ["LayerKit", "PixmanRender"]),
        .target(name: "StrataAppFuzzing", dependencies: ["Strata", "StrataTesting", "WaylandClient", "StrataFuzzing"]),

        // Benchmark scenes of ../Docs/Benchmarks.md: `swift run -c release strata-bench`.
        .executableTarget(name: "strata-bench", dependencies: ["LayerKit", "PixmanRender", "Strata", "WaylandClient", "StrataTesting", "CPixman", "AllocationCounter", "ShellApps"],
                         path: "Benchmarks/StrataBench"),
        // Counts heap allocations by interposing malloc; linked into the benchmark only.
        .target(name: "AllocationCounter", path: "Benchmarks/AllocationCounter"),
    ],
    swiftLanguageModes: [.v6]
)
