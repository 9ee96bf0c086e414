import TableModel
import TableStore

/// A data source whose every commit is also appended to a change log that other
/// processes sharing the data can read (the SQLite store's `list_log`). The server reads
/// it to publish changes made elsewhere and to rebuild older versions of a list for a
/// client that resumes with `have` (see SessionServer+ChangeLog).
///
/// - Important: Called only on the core thread (docs/threading.md), like the data source
///   itself. Used only when declared (``DataSourceCapabilities/changeLog``).
public protocol ChangeLogReading: AnyObject {
  /// The id of the newest entry: where a server that just started begins reading.
  func logHighWater() throws(ProtocolError) -> Int
  /// The entries after `id`, oldest first: at most `Store.logBatch`, fewer only when
  /// there are no more.
  func logEntries(after id: Int) throws(ProtocolError) -> [Store.LogEntry]
  /// ``logEntries(after:)``, where an entry for which `skipping` (its list and version)
  /// says true may come without its edits (the server has published it already). The
  /// default reads them all.
  func logEntries(after id: Int, skipping: (String, Int?) -> Bool) throws(ProtocolError)
    -> [Store.LogEntry]
  /// The entries that take `list` from `version` to `current`, in order, or nil when the
  /// log no longer holds all of them.
  func logEntries(of list: String, after version: Int, upTo current: Int)
    throws(ProtocolError) -> [Store.LogEntry]?
  /// Up to `count` entries of `list`'s history older than the entry `before` (nil: the
  /// newest), newest first: the answer to `history` (see `Store.history(of:before:count:)`).
  /// The default throws `not_found`: the log keeps no history.
  func history(of list: String, before: Int?, count: Int) throws(ProtocolError)
    -> HistoryMessage
  /// The entries of `list`'s history newer than the entry `after`, newest first: what a
  /// session showing the history is sent as they come. The default has none.
  func history(of list: String, after: Int) throws(ProtocolError) -> [HistoryEntry]
}

extension ChangeLogReading {
  public func history(of list: String, before: Int?, count: Int) throws(ProtocolError)
    -> HistoryMessage
  {
    throw ProtocolError(.notFound, "this server keeps no history of list \(list)")
  }

  public func history(of list: String, after: Int) throws(ProtocolError) -> [HistoryEntry] {
    []
  }

  public func logEntries(after id: Int, skipping: (String, Int?) -> Bool) throws(ProtocolError)
    -> [Store.LogEntry]
  {
    try logEntries(after: id)
  }
}

extension StoreDataSource: ChangeLogReading {
  public func logEntries(after id: Int, skipping: (String, Int?) -> Bool) throws(ProtocolError)
    -> [Store.LogEntry]
  {
    do { return try store.logEntries(after: id, skipping: skipping) } catch {
      throw error.protocolError
    }
  }

  public func logHighWater() throws(ProtocolError) -> Int {
    do { return try store.logHighWater() } catch { throw error.protocolError }
  }

  public func logEntries(after id: Int) throws(ProtocolError) -> [Store.LogEntry] {
    do { return try store.logEntries(after: id) } catch { throw error.protocolError }
  }

  public func logEntries(of list: String, after version: Int, upTo current: Int)
    throws(ProtocolError) -> [Store.LogEntry]?
  {
    do {
      return try store.logEntries(of: list, after: version, upTo: current)
    } catch {
      throw error.protocolError
    }
  }

  public func history(of list: String, before: Int?, count: Int) throws(ProtocolError)
    -> HistoryMessage
  {
    do {
      return try store.history(of: list, before: before, count: count)
    } catch {
      throw error.protocolError
    }
  }

  public func history(of list: String, after: Int) throws(ProtocolError) -> [HistoryEntry] {
    do { return try store.history(of: list, after: after) } catch { throw error.protocolError }
  }
}
