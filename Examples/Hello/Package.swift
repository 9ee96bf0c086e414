// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "Hello",
  platforms: [.macOS(.v14)],
  dependencies: [
    .package(name: "tableweb", path: "../.."),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
  ],
  targets: [
    .executableTarget(
      name: "hello",
      dependencies: [
        .product(name: "Tableweb", package: "tableweb"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ])
  ]
)
