/// A value SQLite stores: what a statement binds and what a column holds.
public enum DatabaseValue: Sendable, Hashable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
}

/// A Swift value that binds as a `DatabaseValue`.
public protocol DatabaseValueConvertible {
  var databaseValue: DatabaseValue { get }
}

extension DatabaseValue: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { self }
}

extension Int: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { .integer(Int64(self)) }
}

extension Int64: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { .integer(self) }
}

extension Bool: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }
}

extension Double: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { .real(self) }
}

extension String: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { .text(self) }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { self?.databaseValue ?? .null }
}
