import TableModel

/// One concern of the store, owning that concern's SQL: its lists (`ListStore`), change
/// log (`ChangeLogStore`), sessions (`SessionStore`) and access grants
/// (`AccessStore`). ``Store`` is the facade apps and the server use; each part is a view
/// of its connection, made when asked for, and runs its statements through the facade's
/// transactions (``Store/read(_:)``, ``Store/write(recording:_:)``), so a write that spans
/// concerns (a list's change and its log entries) is still one transaction.
protocol StorePart {
  var store: Store { get }
}

extension StorePart {
  var isReadOnly: Bool { store.isReadOnly }

  func execute(_ text: String, _ arguments: any DatabaseValueConvertible...) throws(StoreError) {
    try store.execute(text, arguments: arguments)
  }

  @discardableResult
  func executeLater(_ text: String, _ arguments: any DatabaseValueConvertible...) throws(StoreError)
    -> Bool
  {
    try store.executeLater(text, arguments: arguments)
  }

  func fetchAll<T>(
    _ text: String, _ arguments: [any DatabaseValueConvertible], _ decode: (Columns) -> T
  ) throws(StoreError) -> [T] {
    try store.fetchAll(text, arguments, decode)
  }

  func fetchOne<T>(
    _ text: String, _ arguments: [any DatabaseValueConvertible], _ decode: (Columns) -> T
  ) throws(StoreError) -> T? {
    try store.fetchOne(text, arguments, decode)
  }

  func fetchInt(_ text: String, _ arguments: any DatabaseValueConvertible...) throws(StoreError)
    -> Int?
  {
    try store.fetchOne(text, arguments) { $0.optionalInt(0) } ?? nil
  }

  func read<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
    try store.read(body)
  }

  func write<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
    try store.write(body)
  }
}

extension Store {
  /// The sessions' saved stacks.
  var sessionStore: SessionStore { SessionStore(store: self) }
  /// The access grants.
  var accessStore: AccessStore { AccessStore(store: self) }
  /// The change log (`list_log`) and the record of who changed what (`change_log`).
  var changeLogStore: ChangeLogStore { ChangeLogStore(store: self) }
}
