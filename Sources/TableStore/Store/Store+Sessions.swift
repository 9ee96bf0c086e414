import TableModel

/// Sessions (`SessionStore`).
extension Store {
  /// Saves a session's navigation stack under its token, so that it survives a restart.
  public func saveSession(token: String, stack: NavigationStack) throws(StoreError) {
    try sessionStore.save(token: token, stack: stack)
  }

  /// The stack saved under `token`, or nil for a token never saved.
  ///
  /// - Throws: ``StoreError/invalidData(path:message:)`` when the saved stack is not one.
  public func loadSession(token: String) throws(StoreError) -> NavigationStack? {
    try sessionStore.load(token: token)
  }

  /// Forgets sessions not saved for `seconds`.
  public func deleteSessions(olderThan seconds: Int) throws(StoreError) {
    try sessionStore.delete(olderThan: seconds)
  }
}
