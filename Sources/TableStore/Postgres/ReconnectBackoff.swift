import TableModel

/// When to try PostgreSQL again after a connection broke: exponential back-off, capped,
/// with jitter.
///
/// The n-th attempt of an outage waits `first · 2^(n−1)`, at most `cap`, of which a random
/// half is taken off ("equal jitter"): servers that lost the same database at the same
/// moment do not all knock again at the same moment. Attempts happen only when the store
/// is used (a command, the change watcher's poll), never in a loop of their own, and a
/// command that comes before the next attempt is due fails at once without touching the
/// network.
///
/// A value: `PostgresConnection` keeps one and uses it from its own thread.
package struct ReconnectBackoff: Sendable {
  /// The wait after the first failed attempt, before jitter.
  public var first: Duration
  /// The longest wait between two attempts.
  public var cap: Duration
  /// Failed attempts in the outage under way (0 when there is none).
  public private(set) var failures = 0
  /// When the outage under way was first seen; nil while connected.
  public private(set) var outageStart: ContinuousClock.Instant?
  /// The next attempt is not made before this.
  public private(set) var nextAttempt: ContinuousClock.Instant?
  private var random: SplitMix64

  public init(
    first: Duration = .milliseconds(100), cap: Duration = .seconds(1),
    seed: UInt64 = UInt64.random(in: 0...UInt64.max)
  ) {
    precondition(first > .zero && cap >= first, "ReconnectBackoff: 0 < first ≤ cap")
    self.first = first
    self.cap = cap
    random = SplitMix64(seed: seed)
  }

  /// The longest wait after `failures` failed attempts (none after 0).
  public func ceiling(afterFailures failures: Int) -> Duration {
    guard failures > 0 else { return .zero }
    // 2^(failures−1), no further than 40 doublings (beyond any sensible cap).
    return min(cap, first * (1 << min(failures - 1, 40)))
  }

  /// Whether an attempt may be made at `now`.
  public func mayAttempt(at now: ContinuousClock.Instant) -> Bool {
    nextAttempt.map { now >= $0 } ?? true
  }

  /// Notes that the connection is found broken at `now`; true when that begins an outage
  /// (the one moment to log it).
  public mutating func noticeOutage(at now: ContinuousClock.Instant) -> Bool {
    guard outageStart == nil else { return false }
    outageStart = now
    return true
  }

  /// Records a failed attempt at `now` and schedules the next one; returns the wait.
  @discardableResult
  public mutating func failed(at now: ContinuousClock.Instant) -> Duration {
    if outageStart == nil { outageStart = now }
    failures += 1
    let ceiling = ceiling(afterFailures: failures)
    let half = ceiling / 2
    let wait = half + .nanoseconds(random.next(below: max(1, Self.nanoseconds(half))))
    nextAttempt = now + wait
    return wait
  }

  /// Records that an attempt succeeded at `now`: how long the outage lasted and how many
  /// attempts failed in it, or nil when there was none.
  public mutating func succeeded(at now: ContinuousClock.Instant) -> (
    length: Duration, failures: Int
  )? {
    defer {
      outageStart = nil
      nextAttempt = nil
      failures = 0
    }
    return outageStart.map { (now - $0, failures) }
  }

  static func nanoseconds(_ duration: Duration) -> Int {
    Int(duration.components.seconds) * 1_000_000_000
      + Int(duration.components.attoseconds / 1_000_000_000)
  }
}
