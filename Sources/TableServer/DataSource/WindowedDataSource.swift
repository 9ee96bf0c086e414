import TableModel

/// A data source that can answer for a list by what is on screen: each section's first
/// rows and count, one row by id, and where a row stands (UIKit's data source is asked
/// only for visible cells, and a batch update names index paths without re-reading the
/// table). For lists longer than ``TablewebServer/Configuration/windowedListThreshold``
/// the server then keeps no snapshot, only each section's first screen of rows, and diffs
/// the data source's edits by position (SessionServer+Windows). The SQLite store is one.
///
/// - Important: Called only on the core thread (docs/threading.md), like
///   ``TableDataSource``. Used only when declared (``DataSourceCapabilities/windows``).
public protocol WindowedDataSource: TableDataSource {
  /// The list with each section cut to its first `rowLimit` rows, and every section's
  /// whole count; nil when the list can only be read whole (an indexed list).
  func prefix(of list: String, rowLimit: Int) throws(ProtocolError) -> ListPrefix?

  /// The row `id` of `list` as a screen shows it, or nil when the list shows no such row.
  func row(_ id: String, in list: String) throws(ProtocolError) -> Row?

  /// Where the row `id` stands in `list` now, or nil when the list shows no such row.
  func indexPath(ofRow id: String, in list: String) throws(ProtocolError) -> TableIndexPath?

  /// The list's version now, when the data source keeps versions (`keepsVersions`):
  /// positions read at that version are the ones a diff to it may name. Nil by default:
  /// then a change to a long list sends its viewers their screen again.
  func currentVersion(of list: String) throws(ProtocolError) -> Int?
}

extension WindowedDataSource {
  public func currentVersion(of list: String) throws(ProtocolError) -> Int? { nil }
}

/// A list's first rows: its snapshot with each section cut short, and each section's
/// whole count.
public struct ListPrefix: Sendable, Hashable {
  public var snapshot: TableSnapshot
  public var counts: [Int]

  public init(snapshot: TableSnapshot, counts: [Int]) {
    precondition(snapshot.sections.count == counts.count, "one count per section")
    self.snapshot = snapshot
    self.counts = counts
  }

  /// How many rows the list has.
  public var total: Int { counts.reduce(0, +) }
}

extension StoreDataSource: WindowedDataSource {
  public func prefix(of list: String, rowLimit: Int) throws(ProtocolError) -> ListPrefix? {
    do {
      return try store.prefix(of: list, rowLimit: rowLimit).map {
        ListPrefix(snapshot: $0.snapshot, counts: $0.counts)
      }
    } catch {
      throw error.protocolError
    }
  }

  public func row(_ id: String, in list: String) throws(ProtocolError) -> Row? {
    do {
      return try store.row(id, in: list)
    } catch {
      throw error.protocolError
    }
  }

  public func indexPath(ofRow id: String, in list: String) throws(ProtocolError)
    -> TableIndexPath?
  {
    do {
      return try store.indexPath(ofRow: id, in: list)
    } catch {
      throw error.protocolError
    }
  }

  public func currentVersion(of list: String) throws(ProtocolError) -> Int? {
    do {
      return try store.version(of: list)
    } catch {
      throw error.protocolError
    }
  }

  /// A window read from the store's block counts, not cut from a whole snapshot.
  public func rows(of list: String, section: Int, range: Range<Int>) throws(ProtocolError)
    -> [Row]
  {
    do {
      return try store.rows(of: list, section: section, range: range)
    } catch {
      throw error.protocolError
    }
  }
}
