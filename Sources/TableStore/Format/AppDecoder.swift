import TableModel

/// Reads the data format, checking each rule where it applies and naming the JSON path of
/// the first problem. Unknown fields are refused (a misspelt field is a mistake in a file
/// a person wrote), unlike in protocol messages, which TableModel's `FieldReader` reads.
struct AppDecoder {
  /// Every id seen so far (lists, sections and rows share one namespace), and where.
  private var ids: [String: Place] = [:]
  /// Called with each row of the root screen once it has passed its checks, and its
  /// section's index: an import writes it while the rest is checked (`StreamedRows`).
  var onRootRow: ((Int, AppRow) -> Void)?

  /// A JSON path kept as its parent's path and an index (`rows[17]`), made into text only
  /// when a message needs it: checking a file of 1,000,000 rows built 1,000,000 of them.
  struct Place {
    var parent: String
    var index: Int?
    var text: String { index.map { "\(parent)[\($0)]" } ?? parent }
  }

  // The fields each object may have, made once (a set built for every row cost more than
  // the rest of checking it).
  static let screenFields: Set<String> = [
    "id", "title", "style", "selection", "editable", "index", "header", "footer", "sections",
    "searchable", "actions", "cell", "language",
  ]
  static let sectionFields: Set<String> = ["id", "header", "footer", "rows"]
  static let rowFields: Set<String> = [
    "id", "text", "detail", "style", "image", "accessory", "switch", "checked", "showWhen",
    "children", "lines", "flagged", "values", "actions",
  ]
  static let showWhenFields: Set<String> = ["row", "on"]

  private func fail(_ path: String, _ message: String) -> StoreError {
    .invalidData(path: path, message: message)
  }

  private func member(_ path: String, _ key: String) -> String {
    path.isEmpty ? key : "\(path).\(key)"
  }

  private func object(_ value: JSONValue, at path: String, allowed: Set<String>) throws(StoreError)
    -> JSONObject
  {
    guard let object = value.objectValue else {
      throw fail(path, "expected an object, found \(value.kindName)")
    }
    for key in object.keys where !allowed.contains(key) {
      throw fail(member(path, key), "unknown field")
    }
    return object
  }

  private func requiredString(_ object: JSONObject, _ key: String, at path: String)
    throws(StoreError) -> String
  {
    guard let value = object[key] else { throw fail(member(path, key), "missing (required)") }
    guard let string = value.stringValue else {
      throw fail(member(path, key), "expected a string, found \(value.kindName)")
    }
    return string
  }

  private func optionalString(_ object: JSONObject, _ key: String, at path: String)
    throws(StoreError) -> String?
  {
    guard let value = object[key], !value.isNull else { return nil }
    guard let string = value.stringValue else {
      throw fail(member(path, key), "expected a string or null, found \(value.kindName)")
    }
    return string
  }

  private func optionalBool(_ object: JSONObject, _ key: String, at path: String) throws(StoreError)
    -> Bool?
  {
    guard let value = object[key], !value.isNull else { return nil }
    guard let bool = value.boolValue else {
      throw fail(member(path, key), "expected true or false, found \(value.kindName)")
    }
    return bool
  }

  private func enumeration<E: RawRepresentable & CaseIterable>(
    _ object: JSONObject, _ key: String, at path: String, name: String, default: E
  ) throws(StoreError) -> E where E.RawValue == String {
    guard let value = object[key], !value.isNull else { return `default` }
    guard let string = value.stringValue else {
      throw fail(member(path, key), "expected a string, found \(value.kindName)")
    }
    guard let result = E(rawValue: string) else {
      let names = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
      throw fail(member(path, key), "unknown \(name) \"\(string)\" (one of \(names))")
    }
    return result
  }

  private mutating func id(_ object: JSONObject, at path: String) throws(StoreError) -> String? {
    try id(object, at: Place(parent: path))
  }

  private mutating func id(_ object: JSONObject, at place: Place) throws(StoreError) -> String? {
    guard let value = object["id"], !value.isNull else { return nil }
    guard let id = value.stringValue else {
      throw fail(
        member(place.text, "id"), "expected a string or null, found \(value.kindName)")
    }
    guard !id.isEmpty else { throw fail(member(place.text, "id"), "an id cannot be empty") }
    guard id.utf8.count <= 200 || id.count <= 200 else {
      throw fail(member(place.text, "id"), "an id is at most 200 characters")
    }
    if let first = ids[id] {
      let firstPath = member(first.text, "id")
      throw fail(
        member(place.text, "id"),
        "duplicate id \"\(id)\" (first used at \(firstPath.isEmpty ? "the root" : firstPath))")
    }
    ids[id] = place
    return id
  }

  /// A screen's `language`: a well-formed BCP 47 tag.
  private func language(_ object: JSONObject, at path: String) throws(StoreError) -> String? {
    guard let tag = try optionalString(object, "language", at: path) else { return nil }
    if let problem = LanguageTag.problem(in: tag) {
      throw fail(
        member(path, "language"),
        "\"\(tag)\" is not a BCP 47 language tag like \"he\", \"pt-BR\" or \"zh-Hans\": \(problem)")
    }
    return tag
  }

  /// A screen's custom cell layout: slot names unique, kinds known.
  private func cell(_ value: JSONValue?, at path: String) throws(StoreError) -> CellTemplate? {
    guard let value, !value.isNull else { return nil }
    let object = try object(value, at: path, allowed: ["slots"])
    let slotsPath = member(path, "slots")
    guard case .array(let array)? = object["slots"], !array.isEmpty else {
      throw fail(slotsPath, "expected a non-empty array of slots")
    }
    var slots: [CellTemplate.Slot] = []
    for (index, element) in array.enumerated() {
      let at = "\(slotsPath)[\(index)]"
      let slot = try self.object(element, at: at, allowed: ["name", "kind", "lines"])
      let name = try requiredString(slot, "name", at: at)
      guard !name.isEmpty, !slots.contains(where: { $0.name == name }) else {
        throw fail(member(at, "name"), name.isEmpty ? "empty" : "duplicate slot name \"\(name)\"")
      }
      guard slot["kind"] != nil else { throw fail(member(at, "kind"), "missing (required)") }
      let kind = try enumeration(
        slot, "kind", at: at, name: "kind", default: CellTemplate.Kind.title)
      var lines = 1
      if let value = slot["lines"], !value.isNull {
        guard let count = value.intValue, count >= 0 else {
          throw fail(member(at, "lines"), "expected a whole number of at least 0")
        }
        lines = count
      }
      slots.append(CellTemplate.Slot(name: name, kind: kind, lines: lines))
    }
    return CellTemplate(slots: slots)
  }

  /// A row's slot values: strings for slots of the screen's cell; image slots' values
  /// http(s) or relative URLs.
  private func values(_ value: JSONValue?, at path: String, cell: CellTemplate?) throws(StoreError)
    -> [String: String]
  {
    guard let value, !value.isNull else { return [:] }
    guard let cell else { throw fail(path, "the screen has no \"cell\" for values to fill") }
    let object = try object(value, at: path, allowed: Set(cell.slots.map(\.name)))
    var values: [String: String] = [:]
    for slot in cell.slots {
      guard let text = try optionalString(object, slot.name, at: path) else { continue }
      if slot.kind == .image, !CellTemplate.isAllowedURL(text) {
        throw fail(member(path, slot.name), "not an http, https or relative URL")
      }
      values[slot.name] = text
    }
    return values
  }

  /// A row's `actions`: ids of its screen's actions, each once.
  private func rowActions(_ value: JSONValue?, at path: String, of offered: [AppAction])
    throws(StoreError) -> [String]?
  {
    guard let value, !value.isNull else { return nil }
    guard case .array(let array) = value else {
      throw fail(path, "expected an array of action ids, found \(value.kindName)")
    }
    var ids: [String] = []
    for (index, element) in array.enumerated() {
      let at = "\(path)[\(index)]"
      guard case .string(let id) = element else {
        throw fail(at, "expected a string, found \(element.kindName)")
      }
      guard offered.contains(where: { $0.action.id == id }) else {
        let known = offered.map { "\"\($0.action.id)\"" }.joined(separator: ", ")
        throw fail(at, "unknown action \"\(id)\" (the screen's: \(known.isEmpty ? "none" : known))")
      }
      guard !ids.contains(id) else { throw fail(at, "duplicate action \"\(id)\"") }
      ids.append(id)
    }
    return ids
  }

  /// A screen's `actions`: ids unique within it, every field checked.
  private func actions(_ value: JSONValue?, at path: String) throws(StoreError) -> [AppAction] {
    guard let value, !value.isNull else { return [] }
    guard case .array(let array) = value else {
      throw fail(path, "expected an array, found \(value.kindName)")
    }
    var actions: [AppAction] = []
    for (index, element) in array.enumerated() {
      let at = "\(path)[\(index)]"
      let object = try object(element, at: at, allowed: ["id", "title", "edge", "color", "effect"])
      let id = try requiredString(object, "id", at: at)
      guard !actions.contains(where: { $0.action.id == id }) else {
        throw fail(member(at, "id"), "duplicate action id \"\(id)\"")
      }
      let action = RowAction(
        id: id, title: try requiredString(object, "title", at: at),
        edge: try enumeration(object, "edge", at: at, name: "edge", default: .trailing),
        color: try enumeration(object, "color", at: at, name: "color", default: .gray))
      guard object["effect"] != nil else { throw fail(member(at, "effect"), "missing (required)") }
      let effect = try enumeration(
        object, "effect", at: at, name: "effect", default: AppAction.Effect.delete)
      actions.append(AppAction(action, effect: effect))
    }
    return actions
  }

  mutating func screen(_ value: JSONValue, at path: String) throws(StoreError) -> AppScreen {
    let object = try object(value, at: path, allowed: Self.screenFields)
    var screen = AppScreen(title: "")
    screen.id = try id(object, at: path)
    screen.title = try requiredString(object, "title", at: path)
    screen.style = try enumeration(
      object, "style", at: path, name: "style", default: TableStyle.plain)
    screen.selection = try enumeration(
      object, "selection", at: path, name: "selection", default: SelectionMode.none)
    screen.isEditable = try optionalBool(object, "editable", at: path) ?? false
    screen.isIndexed = try optionalBool(object, "index", at: path) ?? false
    screen.isSearchable = try optionalBool(object, "searchable", at: path) ?? false
    screen.header = try optionalString(object, "header", at: path)
    screen.footer = try optionalString(object, "footer", at: path)
    screen.actions = try actions(object["actions"], at: member(path, "actions"))
    screen.cell = try cell(object["cell"], at: member(path, "cell"))
    screen.language = try language(object, at: path)
    let sectionsPath = member(path, "sections")
    let sectionValues: [JSONValue]
    switch object["sections"] {
    case nil, .null?:
      guard screen.isIndexed else {
        throw fail(sectionsPath, "missing (required: at least one section)")
      }
      sectionValues = []
    case .array(let array)?:
      guard !array.isEmpty || screen.isIndexed else {
        throw fail(sectionsPath, "at least one section is required")
      }
      sectionValues = array
    case let other?:
      throw fail(sectionsPath, "expected an array, found \(other.kindName)")
    }
    var checkedPath: String?
    for (index, sectionValue) in sectionValues.enumerated() {
      let sectionPath = "\(sectionsPath)[\(index)]"
      let sectionObject = try self.object(
        sectionValue, at: sectionPath, allowed: Self.sectionFields)
      var section = AppSection()
      section.id = try id(sectionObject, at: sectionPath)
      section.header = try optionalString(sectionObject, "header", at: sectionPath)
      section.footer = try optionalString(sectionObject, "footer", at: sectionPath)
      let rowsPath = member(sectionPath, "rows")
      let rowValues: [JSONValue]
      switch sectionObject["rows"] {
      case nil, .null?: rowValues = []
      case .array(let array)?: rowValues = array
      case let other?: throw fail(rowsPath, "expected an array, found \(other.kindName)")
      }
      section.rows.reserveCapacity(rowValues.count)
      ids.reserveCapacity(ids.count + rowValues.count)
      for (rowIndex, rowValue) in rowValues.enumerated() {
        let rowPlace = Place(parent: rowsPath, index: rowIndex)
        let row = try row(rowValue, at: rowPlace, in: screen)
        if row.isChecked && screen.selection == .single {
          let rowPath = rowPlace.text
          if let checkedPath {
            throw fail(
              member(rowPath, "checked"),
              "a single-selection list has at most one checked row (\(checkedPath) is checked)")
          }
          checkedPath = rowPath
        }
        section.rows.append(row)
        if path.isEmpty, let onRootRow { onRootRow(index, row) }
      }
      screen.sections.append(section)
    }
    try checkShowWhen(in: screen, at: path)
    return screen
  }

  private mutating func row(_ value: JSONValue, at place: Place, in parent: AppScreen)
    throws(StoreError) -> AppRow
  {
    // A row of an id and a text only (the common case) needs no path: it is made into
    // text only for a problem, or for a row with more to check.
    guard let object = value.objectValue,
      object.members.allSatisfy({ Self.rowFields.contains($0.key) })
    else {
      _ = try self.object(value, at: place.text, allowed: Self.rowFields)
      preconditionFailure("a row that is not an object of known fields throws")
    }
    let id = try id(object, at: place)
    guard object.count == (id == nil ? 1 : 2), let text = object["text"]?.stringValue else {
      return try row(object, at: place.text, in: parent, id: id)
    }
    var row = AppRow(text: text)
    row.id = id
    return row
  }

  private mutating func row(
    _ object: JSONObject, at path: String, in parent: AppScreen, id: String?
  ) throws(StoreError) -> AppRow {
    var row = AppRow(text: "")
    row.id = id
    row.text = try requiredString(object, "text", at: path)
    row.detail = try optionalString(object, "detail", at: path)
    row.style = try enumeration(
      object, "style", at: path, name: "style", default: CellStyle.default)
    row.image = try optionalString(object, "image", at: path)
    row.isFlagged = try optionalBool(object, "flagged", at: path) ?? false
    row.values = try values(object["values"], at: member(path, "values"), cell: parent.cell)
    row.actions = try rowActions(object["actions"], at: member(path, "actions"), of: parent.actions)
    if let lines = object["lines"], !lines.isNull {
      guard let count = lines.intValue, count >= 0 else {
        let found = if case .number = lines { lines.serialized } else { lines.kindName }
        throw fail(member(path, "lines"), "expected a whole number of at least 0, found \(found)")
      }
      row.lines = count
    }
    if let accessory = object["accessory"], !accessory.isNull {
      row.accessory = try enumeration(
        object, "accessory", at: path, name: "accessory", default: AccessoryType.none)
    }
    row.isOn = try optionalBool(object, "switch", at: path)
    row.isChecked = try optionalBool(object, "checked", at: path) ?? false
    if row.isChecked && parent.selection == .none {
      throw fail(
        member(path, "checked"),
        "only rows of a selection list (\"selection\": \"single\" or \"multiple\") can be checked")
    }
    if let showWhen = object["showWhen"], !showWhen.isNull {
      let showPath = member(path, "showWhen")
      let showObject = try self.object(showWhen, at: showPath, allowed: Self.showWhenFields)
      let target = try requiredString(showObject, "row", at: showPath)
      guard let on = showObject["on"] else {
        throw fail(member(showPath, "on"), "missing (required)")
      }
      guard let isOn = on.boolValue else {
        throw fail(member(showPath, "on"), "expected true or false, found \(on.kindName)")
      }
      row.showWhen = ShowWhen(row: target, isOn: isOn)
    }
    if let children = object["children"], !children.isNull {
      row.children = try screen(children, at: member(path, "children"))
    }
    return row
  }

  /// Each `showWhen` names a switch row of the same screen, and the rules have no cycle.
  private func checkShowWhen(in screen: AppScreen, at path: String) throws(StoreError) {
    var switchRows: [String: ShowWhen?] = [:]
    for section in screen.sections {
      for row in section.rows where row.isOn != nil {
        if let id = row.id { switchRows[id] = row.showWhen }
      }
    }
    for (sectionIndex, section) in screen.sections.enumerated() {
      for (rowIndex, row) in section.rows.enumerated() {
        guard let rule = row.showWhen else { continue }
        let rulePath = member(path, "sections[\(sectionIndex)].rows[\(rowIndex)].showWhen.row")
        guard switchRows[rule.row] != nil else {
          throw fail(rulePath, "\"\(rule.row)\" is not the id of a switch row in this screen")
        }
        var seen: Set<String> = [row.id ?? ""]
        var next: String? = rule.row
        while let current = next {
          guard seen.insert(current).inserted else {
            throw fail(rulePath, "showWhen rules form a cycle through \"\(current)\"")
          }
          next = switchRows[current]??.row
        }
      }
    }
  }
}
