import CPostgres

/// One row of a result, read in libpq's text format. Use it only inside the closure it is
/// handed to: the result it points into is cleared when that closure returns.
package struct PostgresRow {
  let result: OpaquePointer
  let index: Int32

  init(result: OpaquePointer, index: Int32) {
    self.result = result
    self.index = index
  }

  /// How many columns the row has.
  public var count: Int { Int(PQnfields(result)) }

  public func isNull(_ column: Int) -> Bool { PQgetisnull(result, index, Int32(column)) == 1 }

  /// The column as text; an empty string when it is NULL.
  public func string(_ column: Int) -> String {
    String(cString: PQgetvalue(result, index, Int32(column)))
  }

  public func optionalString(_ column: Int) -> String? { isNull(column) ? nil : string(column) }

  /// The column as an integer; 0 when it is NULL or not an integer.
  public func int(_ column: Int) -> Int { optionalInt(column) ?? 0 }

  public func optionalInt(_ column: Int) -> Int? { isNull(column) ? nil : Int(string(column)) }

  /// A `boolean` column (`t`/`f` in text format).
  public func bool(_ column: Int) -> Bool { !isNull(column) && string(column) == "t" }
}
