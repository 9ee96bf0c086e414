import TableModel

/// The data behind tableweb's screens, in the spirit of `UITableViewDataSource` plus the
/// part of `UITableViewDelegate` that decides what selecting a row does.
///
/// UIKit asks row by row; the server asks for a list's whole ``TableSnapshot`` (the number
/// of sections and rows, the cell for each row, header and footer titles, the section
/// index titles) because it keeps the snapshot of every list someone is looking at and
/// diffs it on change. Which rows can be edited or moved (`canEditRowAt`, `canMoveRowAt`)
/// is each row's `editingStyle` and `isMovable`; the server checks them, and the list's
/// `isEditable`, before it calls ``commit(_:in:)``.
///
/// Errors are what the client is told (`not_found`, `not_allowed`, `internal`); a failing
/// database is `internal`.
///
/// - Important: Called only on the libwebsockets service thread, one call at a time.
///   Implementations need not be `Sendable` (the SQLite store is not).
public protocol TableDataSource: AnyObject {
  /// The list every new session starts on.
  func rootList() throws(ProtocolError) -> String

  func listExists(_ list: String) throws(ProtocolError) -> Bool

  /// Everything a screen of `list` shows, at its current version.
  func snapshot(of list: String) throws(ProtocolError) -> TableSnapshot

  /// The list that selecting `row` pushes (the segue's destination), or nil when the row
  /// leads nowhere.
  func destination(ofRow row: String, in list: String) throws(ProtocolError) -> String?

  /// Applies one edit as a whole (`commit editingStyle`, `moveRowAt`, a switch, a pick in a
  /// selection list) and says what changed. A refused edit changes nothing and throws the
  /// error the client is told.
  func commit(_ edit: TableEdit, in list: String) throws(ProtocolError) -> TableChange

  /// ``commit(_:in:)`` made by `identity` (nil on an open server): a data source that keeps
  /// a record of who changed what records it here. By default, ``commit(_:in:)``.
  func commit(_ edit: TableEdit, in list: String, by identity: AccessIdentity?)
    throws(ProtocolError) -> TableChange

  /// Whether `list` is read-only for `identity` (nil on an open server), whatever its
  /// role: its screens say `"editable":false` and its writes get `not_allowed`. By
  /// default, false.
  func isReadOnly(_ list: String, for identity: AccessIdentity?) -> Bool
}

extension TableDataSource {
  public func commit(_ edit: TableEdit, in list: String, by identity: AccessIdentity?)
    throws(ProtocolError) -> TableChange
  {
    try commit(edit, in: list)
  }

  public func isReadOnly(_ list: String, for identity: AccessIdentity?) -> Bool { false }
}

/// Where sessions' navigation stacks are kept between connections and across restarts.
///
/// - Important: Called only on the libwebsockets service thread.
public protocol SessionStorage: AnyObject {
  func saveSession(_ token: SessionToken, stack: NavigationStack) throws(ProtocolError)
  func loadSession(_ token: SessionToken) -> NavigationStack?
}
