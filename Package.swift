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
    ],
    swiftLanguageModes: [.v6]
)
