import TableModel

/// The sessions' navigation stacks (`session`), saved so that a session resumes after a
/// restart.
struct SessionStore: StorePart {
  unowned let store: Store
}

extension SessionStore {
  /// Saves a session's navigation stack under its token, so that it survives a restart.
  func save(token: String, stack: NavigationStack) throws(StoreError) {
    let levels = stack.levels.map { level -> JSONValue in
      .object([
        "list": .string(level.list), "title": .string(level.title),
        "selectedRow": .string(level.selectedRow), "editing": .bool(level.isEditing),
        "scrollAnchor": .string(level.scrollAnchor),
      ])
    }
    let text = JSONValue.array(levels).serialized
    // A session's stack is no list's: no list lock, no other writer to wait for.
    try store.write(locking: .lists([])) { () throws(StoreError) in
      try execute(
        """
        INSERT INTO session (token, stack, updated) VALUES (?, ?, unixepoch())
        ON CONFLICT (token) DO UPDATE SET stack = excluded.stack, updated = excluded.updated
        """, token, text)
    }
  }

  /// The stack saved under `token`, or nil for a token never saved.
  ///
  /// - Throws: ``StoreError/invalidData(path:message:)`` when the saved stack is not one.
  func load(token: String) throws(StoreError) -> NavigationStack? {
    guard
      let text = try fetchOne(
        "SELECT stack FROM session WHERE token = ?", [token], { $0.string(0) })
    else { return nil }
    let levels: [JSONValue]
    do {
      guard let array = try JSONValue(parsing: text).arrayValue else {
        throw StoreError.invalidData(path: "session.stack", message: "not an array")
      }
      levels = array
    } catch let error as StoreError {
      throw error
    } catch {
      throw .invalidData(path: "session.stack", message: "\(error)")
    }
    let decoded = levels.compactMap { level -> NavigationLevel? in
      guard let list = level["list"]?.stringValue, let title = level["title"]?.stringValue else {
        return nil
      }
      return NavigationLevel(
        list: list, title: title, selectedRow: level["selectedRow"]?.stringValue,
        isEditing: level["editing"]?.boolValue ?? false,
        scrollAnchor: level["scrollAnchor"]?.stringValue)
    }
    return NavigationStack(levels: decoded)
  }

  /// Forgets sessions not saved for `seconds`, and their undo stacks.
  func delete(olderThan seconds: Int) throws(StoreError) {
    // A session's stack is no list's: no list lock, no other writer to wait for.
    try store.write(locking: .lists([])) { () throws(StoreError) in
      try execute("DELETE FROM session WHERE updated < unixepoch() - ?", seconds)
      try store.flushUndoSteps()
      try execute("DELETE FROM undo_step WHERE session NOT IN (SELECT token FROM session)")
    }
  }
}
