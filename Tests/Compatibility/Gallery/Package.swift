// swift-tools-version: 6.0
import Foundation
import PackageDescription

// An app written against Imago 0.1.0 (commit 82d521b), kept unchanged to prove that code written for the previous
// release still builds (with deprecation warnings naming each replacement) and behaves as it did. Imago is the
// checkout at IMAGO_CHECKOUT, a path whose last component is `imago` (Scripts/check-compatibility.sh makes one).
let checkout = ProcessInfo.processInfo.environment["IMAGO_CHECKOUT"] ?? "../imago"

let package = Package(
    name: "Gallery",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: checkout)],
    targets: [
        .executableTarget(
            name: "Gallery",
            dependencies: [
                .product(name: "Imago", package: "imago"), .product(name: "ImagoContracts", package: "imago"),
            ])
    ],
    swiftLanguageModes: [.v6]
)
