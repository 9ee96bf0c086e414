import TableModel

extension SessionServer {
  /// `undo` / `redo`: the session's latest change (or latest undone one) from the data
  /// source's undo stack for it, once its list is known to be within the session's reach
  /// and writable by its identity; then published as any change is. Returns the list's
  /// new version.
  mutating func undoLatest(
    redo: Bool, session token: SessionToken, as identity: AccessIdentity?,
    effects: inout [ServerAction]
  ) throws(ProtocolError) -> Int? {
    guard let session = sessions[token] else { preconditionFailure("\(token) is not open") }
    guard let list = try dataSource.undoTarget(for: token, redo: redo) else {
      throw ProtocolError(.notFound, "nothing to \(redo ? "redo" : "undo")")
    }
    try checkReach(list, session: session)
    try checkMayWrite(list, as: identity)
    let change = try dataSource.undo(for: token, redo: redo, in: list, by: identity)
    catchUpWithLog(positions: nil, effects: &effects)
    publish(change, effects: &effects)
    return change.version(of: list)
  }
}
