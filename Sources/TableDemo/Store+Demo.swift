import Foundation
import TableStore

extension Store {
  /// Opens the database at `path`; when it is new (or empty) fills it with the demo app.
  public static func openOrCreateDemo(path: String) throws(StoreError) -> Store {
    let store = try Store(path: path)
    if try store.isEmpty {
      try store.importApp(DemoApp.make())
    }
    return store
  }
}
