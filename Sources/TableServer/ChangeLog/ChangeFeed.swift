import TableModel

/// What the server knows of changes beyond its cached snapshots: how far it has read the
/// change log, and the diffs it sent recently, per list, for clients that resume.
///
/// The recent diffs serve a resume on this server for any data source (an app's own
/// ``TableDataSource`` has no log): a list's history holds the diffs this server sent,
/// contiguous in version; a gap (a list read again, a restart of its versions) starts it
/// over. It holds the last ``historyLength`` diffs per list (up to twice as many, so that
/// trimming is rare) and forgets lists beyond ``historyLists`` (the least recently changed
/// first).
struct ChangeFeed {
  /// The id of the last log entry published; nil until the log was first looked at.
  var logPosition: Int?
  /// Recent diffs per list: the version each starts from, and the frame sent.
  private(set) var history: [String: [(from: Int, frame: OutgoingFrame)]] = [:]
  private var changeOrder: [String: Int] = [:]
  private var changes = 0
  /// The diffs sent inside a group commit, in order, kept apart until it has committed
  /// (``settle()``); nil outside one (``holdNew()``). The group's checkpoint of the core
  /// shares `history`: one diff written into it would copy the list's 512 and the lists'
  /// table for every group, and free the old copies after it.
  private var unsettled: [(list: String, from: Int, frame: OutgoingFrame)]?

  static let historyLength = 256
  static let historyLists = 256

  /// From now until ``settle()``, new diffs wait beside the others.
  mutating func holdNew() {
    unsettled = []
  }

  /// Keeps the diffs that waited (their group committed), as if remembered one by one.
  mutating func settle() {
    guard let waiting = unsettled else { return }
    unsettled = nil
    for diff in waiting { remember(diff.frame, list: diff.list, from: diff.from) }
  }

  /// Remembers a diff sent for `list` from version `from`.
  mutating func remember(_ frame: OutgoingFrame, list: String, from: Int) {
    if unsettled != nil {
      unsettled?.append((list, from, frame))
      return
    }
    // In place: a copy out of the dictionary would copy the whole history at each append.
    Self.append((from, frame), to: &history[list, default: []])
    changes += 1
    changeOrder[list] = changes
    if history.count > Self.historyLists,
      let oldest = changeOrder.min(by: { $0.value < $1.value })?.key
    {
      history[oldest] = nil
      changeOrder[oldest] = nil
    }
  }

  private static func append(
    _ diff: (from: Int, frame: OutgoingFrame), to diffs: inout [(from: Int, frame: OutgoingFrame)]
  ) {
    if let last = diffs.last, last.from + 1 != diff.from { diffs.removeAll(keepingCapacity: true) }
    if diffs.count >= 2 * historyLength { diffs.removeFirst(diffs.count - historyLength) }
    diffs.append(diff)
  }

  /// The diffs that take `list` from `version` to `current`, if all were remembered.
  func diffs(of list: String, from version: Int, to current: Int) -> [OutgoingFrame]? {
    guard current > version else { return current == version ? [] : nil }
    var diffs = history[list] ?? []
    for diff in unsettled ?? [] where diff.list == list {
      Self.append((diff.from, diff.frame), to: &diffs)
    }
    guard let first = diffs.first, first.from <= version,
      let last = diffs.last, last.from == current - 1
    else { return nil }
    return diffs[(version - first.from)...].map(\.frame)
  }

  /// Forgets every list's diffs (the data was replaced).
  mutating func forgetHistory() {
    history = [:]
    changeOrder = [:]
    if unsettled != nil { unsettled = [] }
  }
}
