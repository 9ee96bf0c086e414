/// A JSON document as a value: what the protocol and the data format are made of.
///
/// Objects keep their members in order, so that what the server writes reads in the
/// order the protocol documents it; equality of objects ignores that order.
public enum JSONValue: Sendable, Hashable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object(JSONObject)

  public static func int(_ value: Int) -> JSONValue { .number(Double(value)) }

  /// `value` as a string, or null when it is nil.
  public static func string(_ value: String?) -> JSONValue {
    value.map(JSONValue.string) ?? .null
  }

  public subscript(key: String) -> JSONValue? {
    if case .object(let object) = self { return object[key] }
    return nil
  }

  public var isNull: Bool { self == .null }

  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// The number, when it is a whole number that fits an `Int`.
  public var intValue: Int? {
    guard case .number(let value) = self, value.rounded(.towardZero) == value,
      value >= -9_007_199_254_740_992, value <= 9_007_199_254_740_992
    else { return nil }
    return Int(value)
  }

  public var arrayValue: [JSONValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  public var objectValue: JSONObject? {
    if case .object(let value) = self { return value }
    return nil
  }

  /// The JSON kind's name, for error messages ("expected a string, found a number").
  public var kindName: String {
    switch self {
    case .null: return "null"
    case .bool: return "a boolean"
    case .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }
}

/// A JSON object: members in the order they were written or added.
public struct JSONObject: Sendable, Hashable, ExpressibleByDictionaryLiteral {
  public private(set) var members: [(key: String, value: JSONValue)]

  public init() { members = [] }

  /// A repeated key keeps its first place and its last value.
  public init(_ members: [(String, JSONValue)]) {
    self.members = []
    var indexOfKey: [String: Int] = [:]
    for (key, value) in members {
      if let index = indexOfKey[key] {
        self.members[index].value = value
      } else {
        indexOfKey[key] = self.members.count
        self.members.append((key, value))
      }
    }
  }

  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self.init(elements)
  }

  /// Members whose keys the caller knows to be distinct: no search for repeated keys.
  init(uniqueMembers members: [(key: String, value: JSONValue)]) {
    assert(Set(members.map(\.key)).count == members.count, "repeated key in \(members.map(\.key))")
    self.members = members
  }

  public var keys: [String] { members.map(\.key) }
  public var count: Int { members.count }

  /// Reading finds a member by key; writing replaces it in place or appends it, and
  /// writing nil removes it.
  public subscript(key: String) -> JSONValue? {
    get { members.first { $0.key == key }?.value }
    set {
      let index = members.firstIndex { $0.key == key }
      switch (index, newValue) {
      case (let index?, let value?): members[index].value = value
      case (let index?, nil): members.remove(at: index)
      case (nil, let value?): members.append((key, value))
      case (nil, nil): break
      }
    }
  }

  public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
    guard lhs.count == rhs.count else { return false }
    return lhs.members.allSatisfy { rhs[$0.key] == $0.value }
  }

  public func hash(into hasher: inout Hasher) {
    // Order-independent, to agree with ==.
    var combined = 0
    for member in members {
      var memberHasher = Hasher()
      memberHasher.combine(member.key)
      memberHasher.combine(member.value)
      combined ^= memberHasher.finalize()
    }
    hasher.combine(count)
    hasher.combine(combined)
  }
}
