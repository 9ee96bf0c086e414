extension DiffOp {
  /// The `op` names of the wire.
  enum Name: String, CaseIterable {
    case delete, insert, move, update, deleteSection, insertSection, updateSection
  }

  var name: Name {
    switch self {
    case .delete: return .delete
    case .insert: return .insert
    case .move: return .move
    case .update: return .update
    case .deleteSection: return .deleteSection
    case .insertSection: return .insertSection
    case .updateSection: return .updateSection
    }
  }

  /// `{"op":"insert","at":[s,r],"row":ROW}` and the like.
  public var jsonValue: JSONValue {
    var members: [(key: String, value: JSONValue)] = [(WireKey.op, .string(name.rawValue))]
    switch self {
    case .delete(let at):
      members.append((WireKey.at, at.jsonValue))
    case .insert(let at, let row), .update(let at, let row):
      members.append((WireKey.at, at.jsonValue))
      members.append((WireKey.row, row.jsonValue))
    case .move(let from, let to):
      members.append((WireKey.from, from.jsonValue))
      members.append((WireKey.to, to.jsonValue))
    case .deleteSection(let at):
      members.append((WireKey.at, .int(at)))
    case .insertSection(let at, let section):
      members.append((WireKey.at, .int(at)))
      members.append((WireKey.section, section.jsonValue))
    case .updateSection(let at, let header, let footer):
      members.append((WireKey.at, .int(at)))
      members.append((WireKey.header, .string(header)))
      members.append((WireKey.footer, .string(footer)))
    }
    return .object(JSONObject(uniqueMembers: members))
  }

  init(reading fields: FieldReader) throws(ProtocolError) {
    let name = try fields.name(WireKey.op, as: Name.self)
    switch name {
    case .delete:
      self = .delete(at: try fields.indexPath(WireKey.at))
    case .insert:
      self = .insert(
        at: try fields.indexPath(WireKey.at), row: try Row(reading: fields.object(WireKey.row)))
    case .move:
      self = .move(from: try fields.indexPath(WireKey.from), to: try fields.indexPath(WireKey.to))
    case .update:
      self = .update(
        at: try fields.indexPath(WireKey.at), row: try Row(reading: fields.object(WireKey.row)))
    case .deleteSection:
      self = .deleteSection(at: try fields.int(WireKey.at, atLeast: 0))
    case .insertSection:
      self = .insertSection(
        at: try fields.int(WireKey.at, atLeast: 0),
        section: try Section(reading: fields.object(WireKey.section)))
    case .updateSection:
      self = .updateSection(
        at: try fields.int(WireKey.at, atLeast: 0),
        header: try fields.optionalString(WireKey.header),
        footer: try fields.optionalString(WireKey.footer))
    }
  }
}

extension TableIndexPath {
  /// `[section, row]`.
  public var jsonValue: JSONValue { .array([.int(section), .int(row)]) }
}
