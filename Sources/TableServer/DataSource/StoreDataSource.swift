import Logging
import TableModel
import TableStore

/// The lists of a SQLite `Store`, as a table data source: the embedded default behind
/// `tableweb serve`. It also keeps the sessions' navigation stacks.
///
/// - Important: Not thread-safe (neither is the store): use only on the core thread
///   (docs/threading.md).
public final class StoreDataSource: TableDataSource, SessionStorage, GroupCommitting {
  public let store: Store
  private let diagnostics: ServerDiagnostics

  /// - Parameters:
  ///   - store: the store whose lists it serves, used only on the core thread.
  ///   - logger: where what goes wrong without a client to tell is logged (a saved
  ///     session that cannot be read): give it the server's
  ///     ``TablewebServer/Configuration/logger``.
  public init(store: Store, logger: Logger = Logger(label: "tableweb")) {
    self.store = store
    diagnostics = ServerDiagnostics(logger: logger)
  }

  /// The store counts each list's versions in the file.
  public var keepsVersions: Bool { true }

  /// Everything: windows of long lists, the change log (and the database watched for
  /// other processes' commits), group commit, searches read on a connection of their own
  /// off the core thread, and on PostgreSQL a core thread of its own.
  public var capabilities: DataSourceCapabilities {
    var capabilities = DataSourceCapabilities(
      windows: self, changeLog: self, watchedDatabase: store.path, groupCommit: self,
      needsOwnThread: Store.isPostgresURL(store.path))
    let path = store.path
    // A second connection to an in-memory database would open another, empty one.
    if !path.isEmpty, path != ":memory:", !path.hasPrefix("file::memory:") {
      capabilities.searchReader = { () throws(ProtocolError) in
        try StoreSearchReader(path: path)
      }
    }
    return capabilities
  }

  public func rootList() throws(ProtocolError) -> String {
    try shown { () throws(StoreError) in try store.rootList() }
  }

  public func listExists(_ list: String) throws(ProtocolError) -> Bool {
    try shown { () throws(StoreError) in try store.listExists(list) }
  }

  public func snapshot(of list: String) throws(ProtocolError) -> TableSnapshot {
    try shown { () throws(StoreError) in try store.snapshot(of: list) }
  }

  /// Filtered in SQL (see `Store.search`), without reading the whole list into memory.
  public func search(_ query: SearchQuery, in list: String) throws(ProtocolError) -> TableSnapshot {
    try shown { () throws(StoreError) in try store.search(query, in: list) }
  }

  public func destination(ofRow row: String, in list: String) throws(ProtocolError) -> String? {
    try shown { () throws(StoreError) in try store.childList(ofRow: row, in: list) }
  }

  public func commit(_ edit: TableEdit, in list: String) throws(ProtocolError) -> TableChange {
    try shown { () throws(StoreError) -> TableChange in try apply(edit, in: list, by: nil) }
  }

  private func apply(_ edit: TableEdit, in list: String, by author: ChangeAuthor?)
    throws(StoreError) -> TableChange
  {
    switch edit {
    case .insert(let section, let after, let row):
      return try store.insertRow(in: list, section: section, after: after, row, by: author)
    case .delete(let rows):
      return try store.deleteRows(rows, in: list, by: author)
    case .move(let row, let section, let after):
      return try store.moveRow(row, in: list, toSection: section, after: after, by: author)
    case .update(let row, let text, let detail, let flagged, let values):
      return try store.updateRow(
        row, in: list, text: text, detail: detail.map { change -> String? in change.text },
        flagged: flagged, values: values, by: author)
    case .toggle(let row, let isOn):
      return try store.setSwitch(row, in: list, isOn: isOn, by: author)
    case .tap(let row):
      return try store.select(row, in: list, by: author)
    case .action(let row, let action):
      return try store.performAction(action, onRow: row, in: list, by: author)
    }
  }

  /// The edit and a `change_log` row naming who made it, in one transaction.
  public func commit(_ edit: TableEdit, in list: String, by identity: AccessIdentity?)
    throws(ProtocolError) -> TableChange
  {
    let author = ChangeAuthor(name: identity?.name, role: identity?.role ?? .editor)
    return try shown { () throws(StoreError) -> TableChange in
      try apply(edit, in: list, by: author)
    }
  }

  /// The edit, recorded on the session's undo stack in the store (`Store.recordingUndo`).
  public func commit(
    _ edit: TableEdit, in list: String, by identity: AccessIdentity?, session: SessionToken
  ) throws(ProtocolError) -> TableChange {
    let author = ChangeAuthor(name: identity?.name, role: identity?.role ?? .editor)
    return try shown { () throws(StoreError) -> TableChange in
      try store.recordingUndo(for: session.rawValue) { () throws(StoreError) in
        try apply(edit, in: list, by: author)
      }
    }
  }

  public func undoTarget(for session: SessionToken, redo: Bool) throws(ProtocolError) -> String? {
    try shown { () throws(StoreError) in
      try store.undoTarget(session: session.rawValue, redo: redo)
    }
  }

  /// Undone (or redone) from the session's undo stack in the store: one transaction.
  public func undo(
    for session: SessionToken, redo: Bool, in list: String, by identity: AccessIdentity?
  ) throws(ProtocolError) -> TableChange {
    let author = ChangeAuthor(name: identity?.name, role: identity?.role ?? .editor)
    return try shown { () throws(StoreError) -> TableChange in
      try store.recordingUndo(for: session.rawValue) { () throws(StoreError) in
        try store.undo(session: session.rawValue, redo: redo, in: list, by: author)
      }
    }
  }

  public func saveSession(_ token: SessionToken, stack: NavigationStack) throws(ProtocolError) {
    try shown { () throws(StoreError) in try store.saveSession(token: token.rawValue, stack: stack)
    }
  }

  public func loadSession(_ token: SessionToken) -> NavigationStack? {
    do {
      return try store.loadSession(token: token.rawValue)
    } catch {
      // The session starts anew; its token is not in the message.
      diagnostics.report("a saved session could not be read (\(error)); starting a new one")
      return nil
    }
  }

  /// Every store write `body` makes joins one transaction (`Store/committingTogether(_:)`).
  public func committingTogether(_ body: () -> Void) throws(GroupCommitFailure) {
    do {
      try store.committingTogether(body)
    } catch  where error.isCommitOutcomeUnknown {
      throw .outcomeUnknown(error.protocolError)
    } catch {
      throw .notApplied(error.protocolError)
    }
  }

  public func refusingCommits(with error: ProtocolError, _ body: () -> Void) {
    // Carried as an unknown COMMIT outcome, which the client is told as `error.message`.
    store.refusingWrites(with: .commitOutcomeUnknown(error.message), body)
  }

  /// Runs a store call, turning its error into what the client is told.
  private func shown<T>(_ body: () throws(StoreError) -> T) throws(ProtocolError) -> T {
    do {
      return try body()
    } catch {
      throw error.protocolError
    }
  }
}
