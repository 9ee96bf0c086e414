import TableModel

/// A client's model of one screen: the `screen` message's `screen` object, with diffs
/// merged in by the protocol's rules. It is written from protocol-core.md alone, apart
/// from the server's diff code, so that tests check one against the other.
enum ScreenModel {
  static func apply(diff: JSONValue, to screen: JSONValue) -> JSONValue {
    guard case .object(var object) = screen, diff["list"] == screen["list"],
      diff["from"]?.intValue == screen["version"]?.intValue
    else {
      preconditionFailure(
        "diff \(diff.serialized) does not follow screen version \(screen["version"]!)")
    }
    var sections = object["sections"]!.arrayValue!.map(Section.init)
    let ops = diff["ops"]!.arrayValue!

    // Removals index the list before the change: rows highest first, then sections.
    var moved: [[Int]: JSONValue] = [:]
    let removedRows = ops.compactMap { op -> [Int]? in
      switch op["op"]!.stringValue! {
      case "delete": return path(op["at"])
      case "move": return path(op["from"])
      default: return nil
      }
    }
    for at in removedRows.sorted(by: { $0.lexicographicallyPrecedes($1) }).reversed() {
      moved[at] = sections[at[0]].rows.remove(at: at[1])
    }
    let removedSections = ops.filter { $0["op"]?.stringValue == "deleteSection" }.map {
      $0["at"]!.intValue!
    }
    for at in removedSections.sorted().reversed() { sections.remove(at: at) }

    // Placements index the list after it: sections lowest first, then rows.
    for op in ops.filter({ $0["op"]?.stringValue == "insertSection" }).sorted(by: {
      $0["at"]!.intValue! < $1["at"]!.intValue!
    }) {
      sections.insert(Section(op["section"]!), at: op["at"]!.intValue!)
    }
    let placements = ops.compactMap { op -> (at: [Int], row: JSONValue)? in
      switch op["op"]!.stringValue! {
      case "insert": return (path(op["at"]), op["row"]!)
      case "move": return (path(op["to"]), moved[path(op["from"])]!)
      default: return nil
      }
    }
    for placement in placements.sorted(by: { $0.at.lexicographicallyPrecedes($1.at) }) {
      sections[placement.at[0]].rows.insert(placement.row, at: placement.at[1])
    }
    for op in ops {
      switch op["op"]!.stringValue! {
      case "update":
        let at = path(op["at"])
        sections[at[0]].rows[at[1]] = op["row"]!
      case "updateSection":
        let at = op["at"]!.intValue!
        sections[at].header = op["header"]!
        sections[at].footer = op["footer"]!
      default: break
      }
    }
    object["sections"] = .array(sections.map(\.json))
    object["version"] = diff["to"]!
    return .object(object)
  }

  private static func path(_ value: JSONValue?) -> [Int] { value!.arrayValue!.map { $0.intValue! } }

  private struct Section {
    var object: JSONObject
    var header: JSONValue
    var footer: JSONValue
    var rows: [JSONValue]

    init(_ value: JSONValue) {
      object = value.objectValue!
      header = value["header"] ?? .null
      footer = value["footer"] ?? .null
      rows = value["rows"]!.arrayValue!
    }

    var json: JSONValue {
      var object = object
      object["header"] = header
      object["footer"] = footer
      object["rows"] = .array(rows)
      object["count"] = .int(rows.count)
      return .object(object)
    }
  }
}

extension JSONValue {
  /// The element at `index` of an array, for tests that read screens.
  subscript(index: Int) -> JSONValue? {
    guard let array = arrayValue, array.indices.contains(index) else { return nil }
    return array[index]
  }
}
