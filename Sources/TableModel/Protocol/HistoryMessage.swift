/// One entry of a list's history (an extension, the `history` message): a committed change,
/// who made it and what it did, in words a person reads.
public struct HistoryEntry: Sendable, Hashable {
  /// What kind of change an entry is: the command that made it.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    case insert, delete, move, update, toggle, select, action, undo, redo, `import`
  }

  /// The change-log entry's id: `before` of the next page.
  public var id: Int
  /// The list's version after the change; nil for an import.
  public var version: Int?
  /// When it was committed, in Unix seconds (ISO 8601 UTC on the wire).
  public var at: Int
  /// Who made it: the grant's name; nil when unknown (an open server, a command-line import).
  public var author: String?
  public var kind: Kind
  /// The ids of the rows it touched.
  public var rows: [String]
  /// The change in an English sentence: `Ann deleted "Milk"`.
  public var summary: String

  public init(
    id: Int, version: Int?, at: Int, author: String?, kind: Kind, rows: [String], summary: String
  ) {
    self.id = id
    self.version = version
    self.at = at
    self.author = author
    self.kind = kind
    self.rows = rows
    self.summary = summary
  }
}

/// The `history` message (an extension): a page of a list's history, newest first, the
/// answer to `history` and, while the session shows the list, its new entries as they come.
public struct HistoryMessage: Sendable, Hashable {
  public var list: String
  public var entries: [HistoryEntry]
  /// Whether older entries than the last one are kept. In a `live` message: whether
  /// entries were left out between these and those sent before (more than
  /// ``maximumCount`` came at once): the client asks again.
  public var more: Bool
  /// New entries sent as they come, not an answer: the client puts them on top.
  public var live: Bool

  public init(list: String, entries: [HistoryEntry], more: Bool, live: Bool = false) {
    self.list = list
    self.entries = entries
    self.more = more
    self.live = live
  }

  /// The most entries one `history` asks for.
  public static let maximumCount = 200
  /// How many entries a `history` without `count` gets.
  public static let defaultCount = 50
}

extension HistoryEntry {
  /// The entry as the wire's JSON object.
  public var jsonValue: JSONValue {
    .object(
      JSONObject(uniqueMembers: [
        (WireKey.id, .int(id)),
        (WireKey.version, version.map(JSONValue.int) ?? .null),
        (WireKey.at, .string(Self.iso8601(at))),
        (WireKey.author, author.map(JSONValue.string) ?? .null),
        (WireKey.kind, .string(kind.rawValue)),
        (WireKey.rows, .array(rows.map(JSONValue.string))),
        (WireKey.summary, .string(summary)),
      ]))
  }

  init(reading fields: FieldReader) throws(ProtocolError) {
    let at = try fields.string(WireKey.at)
    guard let seconds = Self.unixTime(iso8601: at) else {
      throw FieldReader.mistyped(fields.name(of: WireKey.at), "an ISO 8601 UTC time")
    }
    self.init(
      id: try fields.int(WireKey.id), version: try fields.optionalInt(WireKey.version),
      at: seconds, author: try fields.optionalString(WireKey.author),
      kind: try fields.name(WireKey.kind, as: Kind.self), rows: try fields.strings(WireKey.rows),
      summary: try fields.string(WireKey.summary))
  }

  /// `seconds` since 1970 as `2026-11-25T20:45:07Z`.
  public static func iso8601(_ seconds: Int) -> String {
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let time = seconds - days * 86_400
    let (year, month, day) = civilDate(days: days)
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return
      "\(year)-\(two(month))-\(two(day))T\(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60))Z"
  }

  /// The Unix time of `2026-11-25T20:45:07Z`; nil for any other form.
  public static func unixTime(iso8601 text: String) -> Int? {
    let parts = text.utf8.split(whereSeparator: { "-T:Z".utf8.contains($0) }).map {
      Int(String(decoding: $0, as: UTF8.self))
    }
    guard text.hasSuffix("Z"), parts.count == 6, !parts.contains(nil) else { return nil }
    let values = parts.map { $0! }
    let (year, month, day) = (values[0], values[1], values[2])
    guard (1...12).contains(month), (1...31).contains(day) else { return nil }
    // Days from 1970-01-01 to the date (the proleptic Gregorian calendar).
    let shifted = month <= 2 ? year - 1 : year
    let era = (shifted >= 0 ? shifted : shifted - 399) / 400
    let yearOfEra = shifted - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let days = era * 146_097 + dayOfEra - 719_468
    return days * 86_400 + values[3] * 3600 + values[4] * 60 + values[5]
  }

  /// The year, month and day `days` after 1970-01-01.
  private static func civilDate(days: Int) -> (Int, Int, Int) {
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}

extension HistoryMessage {
  var jsonMembers: [(key: String, value: JSONValue)] {
    var members: [(key: String, value: JSONValue)] = [
      (WireKey.list, .string(list)),
      (WireKey.entries, .array(entries.map(\.jsonValue))),
      (WireKey.more, .bool(more)),
    ]
    if live { members.append((WireKey.live, .bool(true))) }
    return members
  }

  init(reading fields: FieldReader) throws(ProtocolError) {
    var entries: [HistoryEntry] = []
    for entry in try fields.objects(WireKey.entries) {
      entries.append(try HistoryEntry(reading: entry))
    }
    self.init(
      list: try fields.string(WireKey.list), entries: entries, more: try fields.bool(WireKey.more),
      live: fields.optional(WireKey.live) == nil ? false : try fields.bool(WireKey.live))
  }
}

extension HistoryEntry {
  /// The entry as a line of text, when is said relative to `now` (Unix seconds):
  /// `2 min ago · Ann deleted "Milk"`.
  public func line(relativeTo now: Int) -> String {
    "\(Self.age(now - at)) · \(summary)"
  }

  /// `just now`, `5 s ago`, `2 min ago`, `3 h ago`, `4 d ago`.
  static func age(_ seconds: Int) -> String {
    switch seconds {
    case ..<5: return "just now"
    case ..<60: return "\(seconds) s ago"
    case ..<3600: return "\(seconds / 60) min ago"
    case ..<86_400: return "\(seconds / 3600) h ago"
    default: return "\(seconds / 86_400) d ago"
    }
  }
}
