// swift-tools-version:6.0
// A package that uses TableModel alone, without Foundation: `make model-only` builds and
// runs it, so that TableModel keeps linking on its own (it needs libm, which Foundation
// would otherwise bring along).
import PackageDescription

let package = Package(
  name: "ModelOnly",
  dependencies: [.package(name: "tableweb", path: "../..")],
  targets: [
    .executableTarget(
      name: "ModelOnly", dependencies: [.product(name: "TableModel", package: "tableweb")])
  ],
  swiftLanguageModes: [.v6]
)
