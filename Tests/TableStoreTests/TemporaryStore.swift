import Foundation
import TableModel
import Testing

@testable import TableStore

/// Which backend a test's store is on: the store suites run once on each ("one suite, two
/// stores").
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case sqlite
  case postgres

  var testDescription: String { rawValue }
}

/// A store on a real SQLite file in a fresh temporary folder, removed when released; or,
/// for `.postgres`, on a fresh database of the test process's throwaway PostgreSQL
/// cluster (``PostgresCluster``).
///
/// The folder goes when this object goes, however long `store` is still used: keep the
/// `TemporaryStore` alive for as long as its store (`defer { withExtendedLifetime(x) {} }`).
final class TemporaryStore {
  let folder: URL
  let store: Store
  /// The SQLite file's path, or the PostgreSQL database's URL: `Store(path:)` opens
  /// another connection to the same data.
  let path: String

  init(kind: StoreKind = .sqlite, json: String? = nil) throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tableweb-\(UUID().uuidString)")
    switch kind {
    case .sqlite:
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      path = folder.appendingPathComponent("test.sqlite").path
    case .postgres:
      path = try PostgresCluster.shared.get().newDatabase()
    }
    store = try Store(path: path)
    if let json { try store.importJSON(json) }
  }

  deinit {
    try? FileManager.default.removeItem(at: folder)
  }
}

extension Store {
  /// The SQLite connection of a store on a file, for tests of SQLite's own behaviour.
  var sqlite: Database { database as! Database }
}
