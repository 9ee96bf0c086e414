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
    /// was read inside it (see ``logEntries(after:limit:)``); `unchecked`: lists locked
    /// since that read, each with its version just before the group's first change to it
    /// (see `logReadIsNeeded(skipping:)`).
    case open(logRead: Bool, unchecked: [String: Int])
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
          discardPending()
          throw error
        }
      case .broken(let error):
        reservedIDs = 0..<0
        discardPending()
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
      discardPending()
      try database.beginWrite()
      scope = .group(.open(logRead: false, unchecked: [:]))
    case .open:
      break
    }
    let before = database.modifications
    var context = WriteContext(record: record)
    var newLists: [String] = []
    do throws(StoreError) {
      switch locking {
      case .all:
        // Every list is locked now: the log is to be read again (PostgreSQL).
        if database.dialect == .postgres, case .group(.open(true, _)) = scope {
          scope = .group(.open(logRead: false, unchecked: [:]))
        }
        try database.lockAll()
      case .lists(let lists):
        newLists = lists.filter { !database.holdsLock(of: $0) }
        for list in lists { try database.lockList(list) }
      }
      let result = try run(body, in: &context)
      if !newLists.isEmpty { noteNewlyLocked(newLists, changed: result as? TableChange) }
      return result
    } catch {
      if !newLists.isEmpty { noteNewlyLocked(newLists, changed: nil) }
      if database.modifications != before || error.isFromDatabase {
        scope = .group(.broken(error))
      }
      throw error
    }
  }

  /// After a write of a group locked `lists` (PostgreSQL): another server may have
  /// committed to them since the group read the log. When the write changed each of them
  /// (and removed none), each is noted with the version it started from, for the next
  /// read to check (`logReadIsNeeded(skipping:)`); otherwise (a write refused, a list
  /// locked and left alone) the next read is needed whatever it finds, as the group's
  /// later writes to those lists lock nothing new.
  private func noteNewlyLocked(_ lists: [String], changed change: TableChange?) {
    guard case .group(.open(true, var unchecked)) = scope else { return }
    guard let change, change.removedLists.isEmpty,
      lists.allSatisfy({ list in change.lists.contains { $0.list == list } })
    else {
      scope = .group(.open(logRead: false, unchecked: [:]))
      return
    }
    for listChange in change.lists
    where lists.contains(listChange.list) && unchecked[listChange.list] == nil {
      unchecked[listChange.list] = listChange.version - 1
    }
    scope = .group(.open(logRead: true, unchecked: unchecked))
  }

  /// Inside a group's open transaction nobody else commits to the lists it has locked:
  /// once the log was read there, it holds nothing new for them (the group's own entries
  /// are appended at its end, and their commands publish them themselves). A list locked
  /// since may have changed meanwhile: the log is read again only when the reader has not
  /// published its version from before the group's change (`skipping`, given the list and
  /// that version, says true when it has, or when nobody there shows the list), so that
  /// a change that follows what the reader has costs no read (one more round trip a
  /// command: `tablebench cluster` measured it). What other servers committed to lists
  /// the group did not lock is read after the group, as their announcements come.
  func logReadIsNeeded(skipping: (String, Int?) -> Bool) -> Bool {
    guard case .group(.open(let logRead, let unchecked)) = scope else { return true }
    scope = .group(.open(logRead: true, unchecked: [:]))
    guard logRead else { return true }
    return unchecked.contains { list, version in !skipping(list, version) }
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
