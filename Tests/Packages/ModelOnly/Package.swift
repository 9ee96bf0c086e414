// swift-tools-version:6.0
// A package that depends on TableModel alone and imports no Foundation: it must link on
// Linux by itself (make test builds and runs it).
import PackageDescription

let package = Package(
  name: "ModelOnly",
  dependencies: [.package(name: "tableweb", path: "../../..")],
  targets: [
    .executableTarget(
      name: "ModelOnly", dependencies: [.product(name: "TableModel", package: "tableweb")])
  ]
)
