import TableModel

/// At most one log line per peer address per `interval`: what happened in between is
/// tallied and handed to the next line, so that a crowd of refusals from one address makes
/// a line, not a thousand. Any thread.
final class AddressLogThrottle<Tally: Sendable>: Sendable {
  /// Addresses remembered at most; past it the table starts again (a few extra lines).
  static var addressesKept: Int { 10_000 }

  let interval: Duration
  private let empty: Tally
  private let entries = LockedValue<[String: (loggedAt: ContinuousClock.Instant, tally: Tally)]>([:]
  )

  init(interval: Duration, empty: Tally) {
    self.interval = interval
    self.empty = empty
  }

  /// Adds an event from `address` to its tally with `add`. Returns the tally to log, this
  /// event included, when a line about `address` is due (and starts a new tally); else nil.
  func record(
    _ address: String, at now: ContinuousClock.Instant, _ add: (inout Tally) -> Void
  ) -> Tally? {
    entries.withLock { entries -> Tally? in
      if var entry = entries[address], now - entry.loggedAt < interval {
        add(&entry.tally)
        entries[address] = entry
        return nil
      }
      if entries.count >= Self.addressesKept { entries.removeAll() }
      var tally = entries[address]?.tally ?? empty
      add(&tally)
      entries[address] = (now, empty)
      return tally
    }
  }
}
