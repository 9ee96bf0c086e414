// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "Files",
  platforms: [.macOS(.v14)],
  dependencies: [
    .package(name: "tableweb", path: "../.."),
    .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
  ],
  targets: [
    .executableTarget(
      name: "files",
      dependencies: [
        .product(name: "Tableweb", package: "tableweb"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ])
  ]
)
