// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "Hello",
  platforms: [.macOS(.v14)],
  dependencies: [.package(name: "tableweb", path: "../..")],
  targets: [
    .executableTarget(name: "hello", dependencies: [.product(name: "Tableweb", package: "tableweb")])
  ]
)
