import TableModel

/// Sessions' navigation stacks kept in memory: they survive a reconnect, not a restart.
/// What ``TablewebServer`` uses unless it is given another storage.
///
/// - Important: Used only on the core thread (docs/threading.md).
public final class MemorySessionStorage: SessionStorage {
  private var stacks: [SessionToken: NavigationStack] = [:]

  public init() {}

  public func saveSession(_ token: SessionToken, stack: NavigationStack) throws(ProtocolError) {
    stacks[token] = stack
  }

  public func loadSession(_ token: SessionToken) -> NavigationStack? {
    stacks[token]
  }
}
