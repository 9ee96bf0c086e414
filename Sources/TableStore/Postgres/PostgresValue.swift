/// A Swift value a statement can take as an argument, sent in libpq's text format.
package protocol PostgresValue {
  var postgresText: String { get }
}

extension String: PostgresValue {
  public var postgresText: String { self }
}

extension Int: PostgresValue {
  public var postgresText: String { String(self) }
}

extension Bool: PostgresValue {
  public var postgresText: String { self ? "t" : "f" }
}

extension Double: PostgresValue {
  public var postgresText: String { String(self) }
}
