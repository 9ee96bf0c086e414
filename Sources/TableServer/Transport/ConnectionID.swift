/// One WebSocket connection, for its lifetime. Never reused within a process.
package struct ConnectionID: Sendable, Hashable, CustomStringConvertible {
  public let rawValue: UInt64

  public init(_ rawValue: UInt64) {
    self.rawValue = rawValue
  }

  public var description: String { "c\(rawValue)" }
}
