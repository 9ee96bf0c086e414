import TableModel

/// What the core knows for `presence` (SessionServer+Presence): what each session is
/// doing, the order sessions came in and their guest numbers, and which lists' presence
/// changed since it was last sent, and when that was.
struct PresenceBook: Sendable, Hashable {
  /// At most one `presence` per list per this long goes to the list's viewers...
  static let interval = Duration.milliseconds(100)
  /// ...and this long more per so many viewers, up to ten times as long: 1,000 viewers of
  /// one list get one a second, not ten (each carries up to `viewerLimit` names).
  static let viewersPerInterval = 100

  /// How long after a list's `presence` went out to `viewers` the next may go.
  static func interval(for viewers: Int) -> Duration {
    interval * min(max(1, viewers / viewersPerInterval), 10)
  }
  static let viewerLimit = Presence.viewerLimit

  /// One session's activity.
  struct Doing: Sendable, Hashable {
    var list: String
    var row: String?
    var kind: Presence.Activity
  }

  var activities: [SessionToken: Doing] = [:]
  /// The order each session first said `hello` to this server: the order of `viewers`.
  var arrivals: [SessionToken: Int] = [:]
  /// "Guest N" of each nameless session, counted per server and kept for its life here.
  var guestNumbers: [SessionToken: Int] = [:]
  private(set) var arrivalCount = 0
  private(set) var guestCount = 0
  /// Lists whose viewers or activities changed since their `presence` was last sent.
  var changed: Set<String> = []
  /// When each shown list's `presence` was last sent to its viewers.
  var lastSent: [String: ContinuousClock.Instant] = [:]
  /// When the core asked to be woken to send what waits (`ServerAction/wake(after:)`).
  var wakeAt: ContinuousClock.Instant?
  /// Sessions no longer open here, oldest first, whose order and guest number are kept
  /// for when they come back: at most `retiredLimit`, so that sessions that come and go
  /// cannot grow the book without bound.
  private(set) var retired: [SessionToken] = []
  static let retiredLimit = 4096

  /// Notes a session's `hello`: numbered on its first, and given a guest number when it is
  /// nameless.
  mutating func arrived(_ token: SessionToken, isNameless: Bool) {
    if arrivals[token] == nil {
      arrivalCount += 1
      arrivals[token] = arrivalCount
    }
    if isNameless, guestNumbers[token] == nil {
      guestCount += 1
      guestNumbers[token] = guestCount
    }
  }

  /// Notes that a session is no longer open here. Its order and guest number stay for a
  /// while (a reconnect finds them); past `retiredLimit` closed sessions, the oldest's go,
  /// unless `isOpen` says it came back.
  mutating func left(_ token: SessionToken, isOpen: (SessionToken) -> Bool) {
    retired.append(token)
    guard retired.count > Self.retiredLimit else { return }
    let oldest = retired.removeFirst()
    guard !isOpen(oldest) else { return }
    arrivals[oldest] = nil
    guestNumbers[oldest] = nil
  }
}
