import TableModel
import TableStore

/// Searches answered off the core thread (``DataSourceCapabilities/searchReader``): the
/// server makes one reader on a thread of its own and calls it only there, one search at
/// a time, while the core thread goes on with everyone's commands and diffs
/// (docs/threading.md). A reader has its own connection to the data: its results carry
/// the version they were read at, and the server drops (and reads again) results of a
/// version it has moved past.
public protocol SearchReader: AnyObject {
  /// ``TableDataSource/search(_:in:)``, on the reader's thread.
  func search(_ query: SearchQuery, in list: String) throws(ProtocolError) -> TableSnapshot
}

/// A `Store`'s searches on a connection of their own (a second SQLite connection to the
/// file, which WAL lets read while the core's writes; or a second PostgreSQL connection).
final class StoreSearchReader: SearchReader {
  let store: Store

  init(path: String) throws(ProtocolError) {
    do {
      store = try Store(path: path, readOnly: true)
    } catch {
      throw error.protocolError
    }
  }

  func search(_ query: SearchQuery, in list: String) throws(ProtocolError) -> TableSnapshot {
    do {
      return try store.search(query, in: list)
    } catch {
      throw error.protocolError
    }
  }
}
