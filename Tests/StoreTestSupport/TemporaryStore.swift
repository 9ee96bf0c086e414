import Foundation
import TableStore

/// A store on a real SQLite file in a fresh temporary folder, removed when released; or,
/// for `.postgres`, on a fresh database of the test process's throwaway PostgreSQL
/// cluster (``PostgresCluster``).
///
/// The folder goes when this object goes, however long `store` is still used: keep the
/// `TemporaryStore` alive for as long as its store (`defer { withExtendedLifetime(x) {} }`).
public final class TemporaryStore {
  public let folder: URL
  public let store: Store
  /// The SQLite file's path, or the PostgreSQL database's URL: `Store(path:)` opens
  /// another connection to the same data.
  public let path: String

  public init(kind: StoreKind = .sqlite, json: String? = nil) throws {
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
