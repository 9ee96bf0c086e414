import TableModel

/// One navigation stack and the connections that show it.
///
/// Every connection of a session sees the same screen: a push from one pushes on all.
/// The stack is written to the data source's session storage after every change, so a
/// session outlives its connections and the server process.
package struct Session: Sendable, Hashable {
  public let token: SessionToken
  public var stack: NavigationStack
  /// In the order they said `hello`.
  public var connections: [ConnectionID]
  /// Who the session acts as (its connections all present the same); nil on an open
  /// server.
  public var identity: AccessIdentity?
  /// Whether its client shows a split view (`layout`); not saved: a client says it again
  /// on every connection.
  public var isSplit = false
  /// The name its latest `hello` gave (Presence); an access grant's name wins over it.
  public var name: String?

  public init(token: SessionToken, stack: NavigationStack, connections: [ConnectionID] = []) {
    self.token = token
    self.stack = stack
    self.connections = connections
  }

  /// The list on the session's top screen.
  public var topList: String { stack.top.list }

  /// The list a split session shows beside its top screen: the level beneath it.
  public var sidebarList: String? {
    guard isSplit, stack.levels.count > 1 else { return nil }
    return stack.levels[stack.levels.count - 2].list
  }
}
