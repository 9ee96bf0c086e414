import TableModel

/// The data behind tableweb's screens, in the spirit of `UITableViewDataSource` plus the
/// part of `UITableViewDelegate` that decides what selecting a row does.
///
/// A *list* is what one screen shows (UIKit: one table view's data), named by an id you
/// choose. For each list the server asks for a `TableSnapshot`: its title and style,
/// its sections (`numberOfSections`, `titleForHeaderInSection`, …) and each row's cell
/// (`cellForRowAt`: `Row` with its `CellStyle`, `AccessoryType`, switch, editing
/// style). The server keeps the snapshot of every list someone is looking at and diffs it
/// when you say the list changed (``TablewebServer/reloadList(_:)``).
///
/// Long lists are asked for in windows: ``rows(of:section:range:)`` gives the rows a
/// client scrolls to. Its default cuts them from ``snapshot(of:)``; a data source over a
/// large store answers it directly, and a later server asks only for what is on screen.
///
/// Which rows can be edited or moved (`canEditRowAt`, `canMoveRowAt`) is each row's
/// `editingStyle` and `isMovable`; the server checks them, and the list's `isEditable`,
/// before it calls ``commit(_:in:)`` (`commit editingStyle`, `moveRowAt`, a switch, a pick
/// in a selection list).
///
/// Errors are what the client is told (`not_found`, `not_allowed`, `internal`).
///
/// - Important: Called only on the core thread (docs/threading.md), one call at a time:
///   implementations need not be thread-safe. To change the data from another thread,
///   change your model, then tell the ``TablewebServer``.
public protocol TableDataSource: AnyObject {
  /// The list every new session starts on.
  func rootList() throws(ProtocolError) -> String

  /// Whether `list` exists. The default reads its snapshot.
  func listExists(_ list: String) throws(ProtocolError) -> Bool

  /// Everything a screen of `list` shows, now.
  ///
  /// Unless ``keepsVersions`` is true, the snapshot's `version` is ignored: the server
  /// counts the changes you announce.
  func snapshot(of list: String) throws(ProtocolError) -> TableSnapshot

  /// The rows `range` of section `section` of `list` (UIKit asks only for visible cells).
  /// The default cuts them from ``snapshot(of:)``.
  func rows(of list: String, section: Int, range: Range<Int>) throws(ProtocolError) -> [Row]

  /// The rows of `list` that match `query` (`UISearchController`'s results), at the list's
  /// current version; sections without a match are left out. The default filters
  /// ``snapshot(of:)`` with `SearchQuery/matches(_:)` (case- and accent-insensitive, on
  /// text and detail); a data source over a large store answers it there, as the SQLite
  /// store does in SQL, or matches rows its own way.
  func search(_ query: SearchQuery, in list: String) throws(ProtocolError) -> TableSnapshot

  /// The list that selecting `row` pushes (the segue's destination), or nil when the row
  /// leads nowhere (the default).
  func destination(ofRow row: String, in list: String) throws(ProtocolError) -> String?

  /// Applies one edit as a whole (`commit editingStyle`, `moveRowAt`, a switch, a pick in a
  /// selection list) and says what changed. A refused edit changes nothing and throws the
  /// error the client is told. The default refuses every edit (`not_allowed`): a read-only
  /// data source need not implement it.
  func commit(_ edit: TableEdit, in list: String) throws(ProtocolError) -> TableChange

  /// ``commit(_:in:)`` made by `identity` (nil on an open server): a data source that keeps
  /// a record of who changed what records it here. By default, ``commit(_:in:)``.
  func commit(_ edit: TableEdit, in list: String, by identity: AccessIdentity?)
    throws(ProtocolError) -> TableChange

  /// ``commit(_:in:by:)`` made by the session `session`: a data source that keeps undo
  /// stacks puts the change on that session's (see ``undo(for:redo:in:by:)``). By
  /// default, ``commit(_:in:by:)``.
  func commit(
    _ edit: TableEdit, in list: String, by identity: AccessIdentity?, session: SessionToken
  ) throws(ProtocolError) -> TableChange

  /// The list that ``undo(for:redo:in:by:)`` would change for `session` now (with `redo`,
  /// the list of its latest undone change), so that the server can check the session may
  /// write it; nil when there is nothing to undo. By default the data source keeps no undo
  /// history and throws `not_found` saying so.
  func undoTarget(for session: SessionToken, redo: Bool) throws(ProtocolError) -> String?

  /// Undoes the latest change of `session` that is still undoable (with `redo`, applies
  /// its latest undone one again), in `list`, as a new change by `identity`, and says what
  /// changed. Throws `not_found` when there is nothing to undo, `conflict` when someone
  /// else changed a row it would touch since (nothing applied). By default throws
  /// `not_found`: the data source keeps no undo history.
  func undo(for session: SessionToken, redo: Bool, in list: String, by identity: AccessIdentity?)
    throws(ProtocolError) -> TableChange

  /// Whether `list` is read-only for `identity` (nil on an open server), whatever its
  /// role: its screens say `"editable":false` and its writes get `not_allowed`. By
  /// default, false.
  func isReadOnly(_ list: String, for identity: AccessIdentity?) -> Bool

  /// Whether `identity` (nil on an open server) may read `list` at all: a session is
  /// never shown it (a row leading to it answers `not_allowed`, a resumed stack stops
  /// above it) and no command reaches it, over the WebSocket or HTTP. Asked before the
  /// list is read, so that a refused list and a missing one look alike. By default, true.
  func canRead(_ list: String, for identity: AccessIdentity?) -> Bool

  /// Whether snapshots carry each list's own version and ``commit(_:in:)`` reports the
  /// versions it made (a database that counts its changes, as the SQLite store does).
  /// False by default: the server numbers versions itself.
  var keepsVersions: Bool { get }

  /// What this data source offers beyond these methods (windows of long lists, a change
  /// log, group commit, app-side snapshots) and the thread it needs. Read once, when the
  /// server is made. By default, nothing: adopting ``WindowedDataSource`` or
  /// ``GroupCommitting`` alone changes nothing until it is declared here.
  var capabilities: DataSourceCapabilities { get }
}

extension TableDataSource {
  public func listExists(_ list: String) throws(ProtocolError) -> Bool {
    do {
      _ = try snapshot(of: list)
      return true
    } catch  where error.code == .notFound {
      return false
    }
  }

  public func rows(of list: String, section: Int, range: Range<Int>) throws(ProtocolError)
    -> [Row]
  {
    let sections = try snapshot(of: list).sections
    guard sections.indices.contains(section) else {
      throw ProtocolError(.notFound, "no section \(section) in list \(list)")
    }
    let rows = sections[section].rows
    return Array(rows[range.clamped(to: rows.indices)])
  }

  public func destination(ofRow row: String, in list: String) throws(ProtocolError) -> String? {
    nil
  }

  public func search(_ query: SearchQuery, in list: String) throws(ProtocolError) -> TableSnapshot {
    try snapshot(of: list).filtered(by: query)
  }

  public func commit(_ edit: TableEdit, in list: String) throws(ProtocolError) -> TableChange {
    throw ProtocolError(.notAllowed, "list \(list) cannot be edited")
  }

  public var keepsVersions: Bool { false }

  public var capabilities: DataSourceCapabilities { DataSourceCapabilities() }

  public func commit(_ edit: TableEdit, in list: String, by identity: AccessIdentity?)
    throws(ProtocolError) -> TableChange
  {
    try commit(edit, in: list)
  }

  public func commit(
    _ edit: TableEdit, in list: String, by identity: AccessIdentity?, session: SessionToken
  ) throws(ProtocolError) -> TableChange {
    try commit(edit, in: list, by: identity)
  }

  public func undoTarget(for session: SessionToken, redo: Bool) throws(ProtocolError) -> String? {
    throw ProtocolError(
      .notFound, "nothing to \(redo ? "redo" : "undo"): this data source keeps no undo history")
  }

  public func undo(
    for session: SessionToken, redo: Bool, in list: String, by identity: AccessIdentity?
  ) throws(ProtocolError) -> TableChange {
    throw ProtocolError(
      .notFound, "nothing to \(redo ? "redo" : "undo"): this data source keeps no undo history")
  }

  public func isReadOnly(_ list: String, for identity: AccessIdentity?) -> Bool { false }

  public func canRead(_ list: String, for identity: AccessIdentity?) -> Bool { true }
}

/// Where sessions' navigation stacks are kept between connections and across restarts.
///
/// - Important: Called only on the core thread (docs/threading.md).
public protocol SessionStorage: AnyObject {
  func saveSession(_ token: SessionToken, stack: NavigationStack) throws(ProtocolError)
  func loadSession(_ token: SessionToken) -> NavigationStack?
}
