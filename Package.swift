// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Strata",
    products: [
        .library(name: "LayerKit", targets: ["LayerKit"]),
    ],
    targets: [
        // Layers, actions, transactions, animations, media time. Pure Swift:
        // knows nothing of Wayland or pixman.
        .target(name: "LayerKit"),
        .testTarget(name: "LayerKitTests", dependencies: ["LayerKit"]),

        // Benchmark scenes of ../Docs/Benchmarks.md: `swift run -c release strata-bench`.
        .executableTarget(name: "strata-bench", dependencies: ["LayerKit"], path: "Benchmarks/StrataBench"),
    ],
    swiftLanguageModes: [.v6]
)
