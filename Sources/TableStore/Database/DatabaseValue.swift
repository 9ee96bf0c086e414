/// A value SQLite stores: what a statement binds and what a column holds.
package enum DatabaseValue: Sendable, Hashable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
}

/// A Swift value that binds as a `DatabaseValue`.
package protocol DatabaseValueConvertible {
  var databaseValue: DatabaseValue { get }
}

extension DatabaseValue: DatabaseValueConvertible {
  package var databaseValue: DatabaseValue { self }
}

extension Int: DatabaseValueConvertible {
  package var databaseValue: DatabaseValue { .integer(Int64(self)) }
}

extension Int64: DatabaseValueConvertible {
  package var databaseValue: DatabaseValue { .integer(self) }
}

extension Bool: DatabaseValueConvertible {
  package var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }
}

extension Double: DatabaseValueConvertible {
  package var databaseValue: DatabaseValue { .real(self) }
}

extension String: DatabaseValueConvertible {
  package var databaseValue: DatabaseValue { .text(self) }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
  package var databaseValue: DatabaseValue { self?.databaseValue ?? .null }
}
