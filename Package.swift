// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "tableweb",
  platforms: [.macOS(.v14)],
  products: [
    .executable(name: "tableweb", targets: ["tableweb"]),
    .executable(name: "tablebench", targets: ["tablebench"]),
    // Everything an app needs to serve its own data: the server, its configuration, the
    // data-source protocols and the model types. `import Tableweb` names them one by one
    // (Sources/Tableweb); TableServer and TableStore are listed so that `make api-check`
    // compares their public API too.
    .library(name: "Tableweb", targets: ["Tableweb", "TableServer", "TableStore"]),
    .library(name: "TableModel", targets: ["TableModel"]),
    .library(name: "TableClient", targets: ["TableClient"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
    .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.0"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
    .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
    .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
    // `make docs`: the library's documentation (DocC); a plugin, linked into nothing.
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
  ],
  targets: [
    // C libraries, imported only by the files that own their calls.
    .systemLibrary(
      name: "CWebsockets", pkgConfig: "libwebsockets",
      providers: [.apt(["libwebsockets-dev"])]),
    .systemLibrary(
      name: "CSQLite", pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]),
    // The system's libcrypto: access credentials' random bytes, SHA-256, constant-time compare.
    .systemLibrary(
      name: "CCrypto", pkgConfig: "libcrypto",
      providers: [.apt(["libssl-dev"])]),
    // libpq: PostgreSQL, the store several servers share.
    .systemLibrary(
      name: "CPostgres", pkgConfig: "libpq",
      providers: [.apt(["libpq-dev"])]),

    // zlib and the brotli encoder: the page is compressed when it is built (PageEmbedder
    // only; the server links neither).
    .systemLibrary(
      name: "CCompression",
      providers: [.apt(["zlib1g-dev", "libbrotli-dev"])]),

    // Pure Swift: values, index paths, diffing, navigation, protocol messages. No C, no I/O.
    // `trunc` (Double.rounded) lives in libm: linked here, not left to Foundation.
    .target(name: "TableModel", linkerSettings: [.linkedLibrary("m")]),

    // The umbrella: `import Tableweb` is all an app writes.
    .target(name: "Tableweb", dependencies: ["TableModel", "TableServer", "TableStore"]),

    // SQLite persistence and the data format (import/export).
    .target(
      name: "TableStore",
      dependencies: [
        "TableModel", "CSQLite", "CCrypto", "CPostgres",
        .product(name: "Logging", package: "swift-log"),
      ],
      // The ICU Foundation uses on Linux, for indexed lists' sort keys (SortKeyCollator).
      linkerSettings: [.linkedLibrary("_FoundationICU", .when(platforms: [.linux]))]),

    // The demo app: the data `tableweb serve` starts with on a new database.
    .target(name: "TableDemo", dependencies: ["TableModel", "TableStore"]),

    // libwebsockets server, sessions and live diffs.
    .target(
      name: "TableServer",
      dependencies: [
        "TableModel", "TableStore", "CWebsockets",
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Metrics", package: "swift-metrics"),
        .product(name: "Prometheus", package: "swift-prometheus"),
      ],
      plugins: ["EmbedPage"]),

    // The page (Public/) built into TableServer, so it is found wherever the server runs.
    .plugin(name: "EmbedPage", capability: .buildTool(), dependencies: ["PageEmbedder"]),
    .executableTarget(
      name: "PageEmbedder", dependencies: ["CCompression", "CCrypto"], path: "Sources/PageEmbedder"),

    // A WebSocket client of the protocol and the headless client (`tableweb client`).
    .target(name: "TableClient", dependencies: ["TableModel", "CWebsockets"]),

    // The command line: serve (default), import, export, client.
    .executableTarget(
      name: "tableweb",
      dependencies: [
        "TableServer", "TableStore", "TableDemo", "TableClient", "TableModel",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
      ]),

    .executableTarget(
      name: "tablebench",
      dependencies: [
        "TableModel", "TableStore",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Benchmarks/tablebench"),

    .testTarget(
      name: "TableModelTests",
      dependencies: [
        "TableModel",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]),
    // What the store and the server suites share to run "one suite, two stores": StoreKind,
    // a throwaway PostgreSQL cluster per test process, temporary stores on either backend.
    .target(name: "StoreTestSupport", dependencies: ["TableStore"], path: "Tests/StoreTestSupport"),
    .testTarget(
      name: "TableStoreTests",
      dependencies: ["TableStore", "TableDemo", "TableModel", "StoreTestSupport"]),
    .testTarget(
      name: "TableServerTests",
      dependencies: ["TableServer", "TableClient", "TableStore", "TableModel", "StoreTestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
