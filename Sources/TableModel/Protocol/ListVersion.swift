/// A list and one of its versions: what a client holds (`hello`'s `have`, v1.1), so a
/// server that can still produce every change since can send just those.
public struct ListVersion: Sendable, Hashable {
  public var list: String
  public var version: Int

  public init(list: String, version: Int) {
    self.list = list
    self.version = version
  }

  /// `{"list":"L7","version":12}`.
  public var jsonValue: JSONValue {
    .object(
      JSONObject(uniqueMembers: [(WireKey.list, .string(list)), (WireKey.version, .int(version))]))
  }

  /// Reads the object `key` of `fields`; nil when it is absent or null.
  init?(readingOptional fields: FieldReader, _ key: String) throws(ProtocolError) {
    guard fields.optional(key) != nil else { return nil }
    let have = try fields.object(key)
    self.init(
      list: try have.string(WireKey.list), version: try have.int(WireKey.version, atLeast: 0))
  }
}
