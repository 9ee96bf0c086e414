// swift-tools-version:6.0
// An app as docs/swift-api.md describes it: it imports Foundation and Tableweb (and a
// library of its own whose names a database library would use), adopts every protocol an
// app adopts, and names what it needs without qualifying it. make test builds and runs it:
// a type Tableweb should not show, or one that shadows Foundation's, fails this build.
import PackageDescription

let package = Package(
  name: "AppSurface",
  platforms: [.macOS(.v14)],
  dependencies: [.package(name: "tableweb", path: "../../..")],
  targets: [
    // Names GRDB (and other database libraries) declare, which Tableweb must not.
    .target(name: "OtherLibrary"),
    .executableTarget(
      name: "AppSurface",
      dependencies: ["OtherLibrary", .product(name: "Tableweb", package: "tableweb")]),
  ]
)
