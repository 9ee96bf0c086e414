import TableModel

/// A data source that can commit the edits of several commands in one transaction (group
/// commit), each command still applied whole or not at all.
///
/// The server uses it when commands queue up faster than they commit one by one, as they
/// do on PostgreSQL, where each commit waits for network round trips and a WAL flush: the
/// commands that arrived meanwhile are run together, their answers and diffs held until
/// the transaction commits (see `SessionHost.runTogether(_:more:)`).
///
/// - Important: Called only on the core thread (docs/threading.md). Used only when
///   declared (``DataSourceCapabilities/groupCommit``).
public protocol GroupCommitting: AnyObject {
  /// Runs `body`, in which every ``TableDataSource/commit(_:in:)`` (and every save of a
  /// session) joins one transaction, committed when `body` returns. A commit refused
  /// inside `body` before it changed anything leaves the others; one that fails halfway
  /// breaks the group. Throws when the group as a whole was not committed, saying
  /// whether anything of it may have been applied.
  func committingTogether(_ body: () -> Void) throws(GroupCommitFailure)

  /// Runs `body` with every commit refused at once with `error` (and nothing applied):
  /// how the commands of a group whose outcome is unknown are answered.
  func refusingCommits(with error: ProtocolError, _ body: () -> Void)
}

/// Why a group of commands was not committed.
public enum GroupCommitFailure: Error {
  /// Nothing of the group was applied (a command failed halfway, the transaction could
  /// not be committed): each command may run again.
  case notApplied(ProtocolError)
  /// The connection broke while the COMMIT was on its way: the group may have been
  /// applied. No command may run again; the change log tells what was committed.
  case outcomeUnknown(ProtocolError)
}
