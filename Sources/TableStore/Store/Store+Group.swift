import TableModel

/// Group commit: the writes of several commands in one transaction, each still all or
/// nothing on its own.
///
/// A server whose commands wait on network round trips (PostgreSQL) gets through more of
/// them when the ones that queued up meanwhile share a transaction: one BEGIN, one write
/// lock, one COMMIT and one WAL flush for all of them, instead of one each. Each write's
/// versions and log entries are exactly as if it had committed by itself.
///
/// No savepoint per write (each would cost a round trip): a write that is refused before
/// it changed anything (a row not found, a list not editable: the usual refusals) leaves
/// the transaction as it was, and the group goes on. A write that fails after changing
/// something, or with an error from the database (which aborts a PostgreSQL transaction),
/// breaks the group: nothing of it is committed, and the caller runs each command again on
/// its own (`committingTogether(_:)` throws).
extension Store {
  /// What every write is asked to do now (``Store/scope``).
  enum WriteScope {
    /// Every write is a transaction of its own.
    case alone
    /// Inside `committingTogether(_:)`: writes join its transaction.
    case group(CommandGroup)
    /// Inside `refusingWrites(with:_:)`: every write fails with this at once.
    case refusing(StoreError)
  }

  /// The state of a group of writes (`committingTogether(_:)`).
  enum CommandGroup {
    /// Before its first write: reads run on their own.
    case requested
    /// The group's transaction is open and the writes join it; `logRead`: the change log
    /// was read inside it (see ``logEntries(after:limit:)``).
    case open(logRead: Bool)
    /// A write failed halfway: nothing in the group may be committed, and every further
    /// write fails with the same error.
    case broken(StoreError)
  }

  /// Runs `body`, in which every write (`write(_:)`) joins one transaction, opened at
  /// the first write and committed when `body` returns. Reads before the first write run
  /// as usual; after it they see the group's own changes. Nothing is visible to other
  /// connections until the end.
  ///
  /// A write refused before it changed anything throws inside `body` and the others go
  /// on. When a write fails after changing something, or the transaction cannot be
  /// committed (the connection broke, the disk is full), nothing of the group is applied
  /// and this throws: the caller must then treat every write `body` made as not
  /// committed, whatever each one returned.
  package func committingTogether(_ body: () -> Void) throws(StoreError) {
    guard case .alone = scope else {
      preconditionFailure("committingTogether inside another group or refusal on \(redactedPath)")
    }
    precondition(
      !database.isInTransaction, "committingTogether inside a transaction on \(redactedPath)")
    try database.access.exclusively { () throws(StoreError) in
      scope = .group(.requested)
      body()
      let group = scope
      scope = .alone
      guard case .group(let state) = group else {
        preconditionFailure("the scope of a group changed inside it on \(redactedPath)")
      }
      switch state {
      case .requested:
        return
      case .open:
        do throws(StoreError) {
          do throws(StoreError) {
            try flushLog()
          } catch {
            try? database.endWrite(committing: false)
            throw error
          }
          try database.endWrite(committing: true)
          try afterGroupCommit?()
        } catch {
          reservedIDs = 0..<0
          pendingLog = []
          throw error
        }
      case .broken(let error):
        reservedIDs = 0..<0
        pendingLog = []
        do {
          try database.endWrite(committing: false)
        } catch {
          // The write's error is the one to report.
        }
        throw error
      }
    }
  }

  /// Runs `body` with every write refused at once with `error`: after a group whose
  /// COMMIT had an unknown outcome (``StoreError/isCommitOutcomeUnknown``), its commands
  /// are run again so that each is answered, but none may be applied a second time. Reads
  /// run as usual.
  package func refusingWrites(with error: StoreError, _ body: () -> Void) {
    let before = scope
    scope = .refusing(error)
    defer { scope = before }
    body()
  }

  /// One write inside a group, with its context, its record and log entries.
  ///
  /// The group's transaction locks each write's lists as it comes (`lockList(_:)`), or
  /// everything (`lockAll()`); a list another writer holds out of the lock order, or a
  /// deadlock PostgreSQL broke, breaks the group, and its commands run again one by one.
  func writeInGroup<T>(
    recording record: ChangeRecord?, locking: WriteLocks,
    _ body: (inout WriteContext) throws(StoreError) -> T
  ) throws(StoreError) -> T {
    guard case .group(let state) = scope else {
      preconditionFailure("writeInGroup outside a group")
    }
    switch state {
    case .broken(let error):
      throw error
    case .requested:
      pendingLog = []
      try database.beginWrite()
      scope = .group(.open(logRead: false))
    case .open:
      break
    }
    let before = database.modifications
    var context = WriteContext(record: record)
    do throws(StoreError) {
      let newLists: Bool
      switch locking {
      case .all:
        newLists = database.dialect == .postgres
        try database.lockAll()
      case .lists(let lists):
        newLists = !lists.allSatisfy(database.holdsLock(of:))
        for list in lists { try database.lockList(list) }
      }
      // Another server may have committed to a list just locked since the log was read.
      if newLists, case .group(.open(true)) = scope { scope = .group(.open(logRead: false)) }
      return try run(body, in: &context)
    } catch {
      if database.modifications != before || error.isFromDatabase {
        scope = .group(.broken(error))
      }
      throw error
    }
  }

  /// Inside a group's open transaction nobody else commits to the lists it has locked:
  /// once the log was read there, it holds nothing new for them (the group's own entries
  /// are appended at its end, and their commands publish them themselves). A write that
  /// locks another list makes the next read needed again (`writeInGroup`).
  func logReadIsNeeded() -> Bool {
    guard case .group(.open(let logRead)) = scope else { return true }
    if logRead { return false }
    scope = .group(.open(logRead: true))
    return true
  }
}

extension StoreError {
  /// An error the database reported (it may have aborted the transaction), rather than
  /// one of the store's own refusals.
  var isFromDatabase: Bool {
    switch self {
    case .sqlite, .postgres, .commitOutcomeUnknown: return true
    case .notFound, .notAllowed, .readOnly, .invalidData, .conflict: return false
    }
  }
}
