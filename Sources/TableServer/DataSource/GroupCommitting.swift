import TableModel

/// A data source that can commit the edits of several commands in one transaction (group
/// commit), each command still applied whole or not at all.
///
/// The server uses it when commands queue up faster than they commit one by one, as they
/// do on PostgreSQL, where each commit waits for network round trips and a WAL flush: the
/// commands that arrived meanwhile are run together, their answers and diffs held until
/// the transaction commits (see ``SessionHost/runTogether(_:)``).
public protocol GroupCommitting: AnyObject {
  /// Runs `body`, in which every ``TableDataSource/commit(_:in:)`` (and every save of a
  /// session) joins one transaction, committed when `body` returns. A commit that throws
  /// inside `body` is undone alone. Throws when the transaction as a whole could not be
  /// committed: then nothing `body` wrote was kept.
  func committingTogether(_ body: () -> Void) throws(ProtocolError)
}
