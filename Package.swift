// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "tableweb",
  platforms: [.macOS(.v14)],
  products: [
    .executable(name: "tableweb", targets: ["tableweb"]),
    .executable(name: "tablebench", targets: ["tablebench"]),
    .library(name: "TableModel", targets: ["TableModel"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
    .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.0"),
  ],
  targets: [
    // C libraries, imported only by the files that own their calls.
    .systemLibrary(
      name: "CWebsockets", pkgConfig: "libwebsockets",
      providers: [.apt(["libwebsockets-dev"])]),
    .systemLibrary(
      name: "CSQLite", pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]),

    // Pure Swift: values, index paths, diffing, navigation, protocol messages. No C, no I/O.
    .target(name: "TableModel"),

    // SQLite persistence, the data format (import/export) and the demo app.
    .target(name: "TableStore", dependencies: ["TableModel", "CSQLite"]),

    // libwebsockets server, sessions, live diffs, and the headless client.
    .target(name: "TableServer", dependencies: ["TableModel", "TableStore", "CWebsockets"]),

    // The command line: serve (default), import, export, client.
    .executableTarget(
      name: "tableweb",
      dependencies: [
        "TableServer", "TableStore", "TableModel",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),

    .executableTarget(
      name: "tablebench",
      dependencies: [
        "TableModel", "TableStore", "TableServer",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Benchmarks/tablebench"),

    .testTarget(
      name: "TableModelTests",
      dependencies: [
        "TableModel",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]),
    .testTarget(name: "TableStoreTests", dependencies: ["TableStore", "TableModel"]),
    .testTarget(
      name: "TableServerTests", dependencies: ["TableServer", "TableStore", "TableModel"]),
  ],
  swiftLanguageModes: [.v6]
)
