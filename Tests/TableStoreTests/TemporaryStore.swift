import Foundation
import TableModel

@testable import TableStore

/// A store on a real SQLite file in a fresh temporary folder, removed when released.
///
/// The folder goes when this object goes, however long `store` is still used: keep the
/// `TemporaryStore` alive for as long as its store (`defer { withExtendedLifetime(x) {} }`).
final class TemporaryStore {
  let folder: URL
  let store: Store

  var path: String { folder.appendingPathComponent("test.sqlite").path }

  init(json: String? = nil) throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tableweb-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    store = try Store(path: folder.appendingPathComponent("test.sqlite").path)
    if let json { try store.importJSON(json) }
  }

  deinit {
    try? FileManager.default.removeItem(at: folder)
  }
}
