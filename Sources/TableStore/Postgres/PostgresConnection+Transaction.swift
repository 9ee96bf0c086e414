/// An error type that can carry a PostgreSQL failure, so that a transaction's body can
/// throw its own errors while BEGIN and COMMIT failures still reach the caller.
package protocol PostgresErrorConvertible: Error {
  init(_ error: PostgresError)
}

extension PostgresError: PostgresErrorConvertible {
  public init(_ error: PostgresError) { self = error }
}

extension PostgresConnection {
  /// Runs `body` in one transaction: committed when it returns, rolled back when it throws
  /// or when COMMIT fails. Nothing is half applied.
  public func inTransaction<T, E: PostgresErrorConvertible>(
    _ body: () throws(E) -> T
  ) throws(E) -> T {
    try access.exclusively { () throws(E) -> T in
      do throws(PostgresError) {
        try execute("BEGIN")
      } catch {
        throw E(error)
      }
      let value: T
      do throws(E) {
        value = try body()
      } catch {
        rollBack()
        throw error
      }
      do throws(PostgresError) {
        try execute("COMMIT")
      } catch {
        rollBack()
        throw E(error)
      }
      return value
    }
  }

  /// Rolls back after a failure; a connection that broke has nothing left to roll back.
  private func rollBack() {
    do {
      try execute("ROLLBACK")
    } catch {
      // Either no transaction is open any more or the connection is gone: both leave
      // nothing applied, which is what a rollback is for.
    }
  }
}
