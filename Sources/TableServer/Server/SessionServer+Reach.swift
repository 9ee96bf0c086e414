import TableModel

/// Reach (protocol v1.2): a session reads and writes only the lists it has on screen —
/// the levels of its stack, which hold the sidebar of a split session — and of those only
/// what the data source lets its identity read (``TableDataSource/canRead(_:for:)``).
/// Any other list gets `not_allowed` with the same words whether it exists or not, so a
/// refusal tells nothing. Commands over HTTP (no session) name lists by id: there only
/// `canRead` applies.
extension SessionServer {
  /// Throws `not_allowed` unless `list` is on `session`'s screen and readable by it.
  func checkReach(_ list: String, session: Session) throws(ProtocolError) {
    guard session.stack.levels.contains(where: { $0.list == list }),
      dataSource.canRead(list, for: session.identity)
    else {
      throw ProtocolError(.notAllowed, "list \(list) is not on this session's screen")
    }
  }

  /// Throws `not_allowed` unless the data source lets `identity` read `list`; asked before
  /// anything else about the list, so an unreadable one is not told apart from a missing one.
  func checkMayRead(_ list: String, as identity: AccessIdentity?) throws(ProtocolError) {
    guard dataSource.canRead(list, for: identity) else {
      throw ProtocolError(.notAllowed, "list \(list) is not open to you")
    }
  }
}
