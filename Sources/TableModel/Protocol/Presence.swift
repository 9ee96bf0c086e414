/// The `presence` message (an extension): who shows a list now, and what each of them is
/// doing to which row. The server sends it to everyone showing the list whenever that set
/// or an activity changes (at most one per list per 100 ms), and after every `screen`.
public struct Presence: Sendable, Hashable {
  /// What a person is doing to a row, as `activity` reports it.
  public enum Activity: String, Sendable, Hashable, CaseIterable {
    /// The row's swipe actions are revealed.
    case swiping
    /// A text field of the row is being edited.
    case editing
    /// The row is being dragged to a new place.
    case moving
  }

  /// One person showing the list: one session, however many connections it has.
  public struct Viewer: Sendable, Hashable {
    /// The access grant's name, else the name its `hello` gave, else "Guest N".
    public var name: String
    /// `editor` when the session may change the list, else `viewer`.
    public var role: AccessRole
    /// Whether this is the session the message was sent to.
    public var isYou: Bool
    /// The row the activity is on; nil with no activity, or one on the list as a whole.
    public var row: String?
    public var activity: Activity?

    public init(
      name: String, role: AccessRole, isYou: Bool = false, row: String? = nil,
      activity: Activity? = nil
    ) {
      self.name = name
      self.role = role
      self.isYou = isYou
      self.row = row
      self.activity = activity
    }
  }

  /// The most characters (Unicode code points) a name in `hello` may have.
  public static let nameLimit = 64
  /// The most characters (Unicode code points) a row id in `activity` may have.
  public static let rowLimit = 256

  /// The most viewers one `presence` lists by arrival: the first to come, then anyone else
  /// with an activity. ``count`` says how many there are.
  public static let viewerLimit = 20

  public var list: String
  /// In the order they came to the list on this server: the first ``viewerLimit``, then
  /// the others that have an activity on it.
  public var viewers: [Viewer]
  /// How many show the list (an extension beside `viewers`, which may list fewer).
  public var count: Int

  public init(list: String, viewers: [Viewer], count: Int? = nil) {
    self.list = list
    self.viewers = viewers
    self.count = count ?? viewers.count
  }
}

extension Presence.Viewer {
  var jsonValue: JSONValue {
    .object(
      JSONObject(uniqueMembers: [
        (WireKey.name, .string(name)),
        (WireKey.role, .string(role.rawValue)),
        (WireKey.you, .bool(isYou)),
        (WireKey.row, .string(row)),
        (WireKey.activity, .string(activity?.rawValue)),
      ]))
  }

  init(reading fields: FieldReader) throws(ProtocolError) {
    let activity = try fields.optionalString(WireKey.activity)
    self.init(
      name: try fields.string(WireKey.name),
      role: try fields.name(WireKey.role, as: AccessRole.self),
      isYou: try fields.bool(WireKey.you),
      row: try fields.optionalString(WireKey.row),
      activity: activity.flatMap(Presence.Activity.init(rawValue:)))
  }
}

extension Presence {
  var jsonMembers: [(key: String, value: JSONValue)] {
    [
      (WireKey.list, .string(list)),
      (WireKey.viewers, .array(viewers.map(\.jsonValue))),
      (WireKey.count, .int(count)),
    ]
  }

  init(reading fields: FieldReader) throws(ProtocolError) {
    var viewers: [Viewer] = []
    for viewer in try fields.objects(WireKey.viewers) {
      viewers.append(try Viewer(reading: viewer))
    }
    self.init(
      list: try fields.string(WireKey.list), viewers: viewers,
      count: try fields.optionalInt(WireKey.count))
  }

  /// Checks a name from `hello`: at most ``nameLimit`` code points. Blank is no name.
  static func checkedName(_ name: String?) throws(ProtocolError) -> String? {
    guard let name else { return nil }
    var trimmed = Substring(name)
    while trimmed.first?.isWhitespace == true { trimmed.removeFirst() }
    while trimmed.last?.isWhitespace == true { trimmed.removeLast() }
    guard trimmed.unicodeScalars.count <= nameLimit else {
      throw ProtocolError(
        .badMessage, "name is longer than \(nameLimit) characters")
    }
    return trimmed.isEmpty ? nil : String(trimmed)
  }
}
