import TableModel

/// An error type that can carry a SQLite failure, so that a transaction's body can throw
/// its own errors while BEGIN and COMMIT failures still reach the caller.
package protocol SQLiteErrorConvertible: Error {
  init(_ error: SQLiteError)
}

extension SQLiteError: SQLiteErrorConvertible {
  public init(_ error: SQLiteError) { self = error }
}

/// How a transaction takes its locks.
package enum TransactionKind: String, Sendable {
  /// Locks on first read or write: for reads that must see one consistent state.
  case deferred = "BEGIN DEFERRED"
  /// Takes the write lock at once, so a busy database fails before any work is done.
  case immediate = "BEGIN IMMEDIATE"
}

extension Database {
  /// Runs `body` in one transaction: committed when it returns, rolled back when it throws
  /// or when COMMIT fails (a full disk, a lock held too long). Nothing is half applied.
  ///
  /// Writers should use `.immediate`: it takes the write lock up front, so that a busy
  /// database fails (after the busy timeout) before any work rather than at COMMIT.
  public func inTransaction<T, E: SQLiteErrorConvertible>(
    _ kind: TransactionKind = .immediate, _ body: () throws(E) -> T
  ) throws(E) -> T {
    try access.exclusively { () throws(E) -> T in try transaction(kind, body) }
  }

  private func transaction<T, E: SQLiteErrorConvertible>(
    _ kind: TransactionKind, _ body: () throws(E) -> T
  ) throws(E) -> T {
    precondition(isAutocommit, "inTransaction called inside a transaction on \(path)")
    do {
      try execute(kind.rawValue)
    } catch {
      throw E(error)
    }
    let value: T
    do {
      value = try body()
    } catch {
      rollback()
      throw error
    }
    do {
      try execute("COMMIT")
    } catch {
      rollback()
      throw E(error)
    }
    return value
  }

  /// Rolls back the open transaction, if SQLite has not already done so itself (it does
  /// on some I/O and full-disk errors).
  private func rollback() {
    guard !isAutocommit else { return }
    do {
      try execute("ROLLBACK")
    } catch {
      // The error that made us roll back is the one worth reporting; a failed ROLLBACK
      // leaves SQLite to roll back the journal on the next open.
    }
  }
}
