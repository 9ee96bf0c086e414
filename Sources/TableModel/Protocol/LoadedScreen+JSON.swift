extension LoadedScreen {
  /// The `screen` object of the `screen` message.
  public var jsonValue: JSONValue {
    var sectionValues: [JSONValue] = []
    sectionValues.reserveCapacity(sections.count)
    for section in sections { sectionValues.append(section.jsonValue) }
    var members: [(key: String, value: JSONValue)] = [
      (WireKey.list, .string(list)),
      (WireKey.version, .int(version)),
      (WireKey.title, .string(title)),
      (WireKey.back, .string(backTitle)),
      (WireKey.style, .string(style.rawValue)),
      (WireKey.editing, .bool(isEditing)),
      (WireKey.editable, .bool(isEditable)),
      (WireKey.selection, .string(selection.rawValue)),
      (WireKey.indexTitles, indexTitles.map { .array($0.map(JSONValue.string)) } ?? .null),
      (WireKey.header, .string(header)),
      (WireKey.footer, .string(footer)),
      (WireKey.sections, .array(sectionValues)),
    ]
    // v1.1: written only when they say something, so a v1 screen is as it was.
    if isSearchable { members.append((WireKey.searchable, .bool(true))) }
    if let search { members.append((WireKey.search, .string(search))) }
    if let cell { members.append((WireKey.cell, cell.jsonValue)) }
    if !actions.isEmpty { members.append((WireKey.actions, .array(actions.map(\.jsonValue)))) }
    // v1.2: omitted when not known, which a client reads as null.
    if let language { members.append((WireKey.language, .string(language))) }
    return .object(JSONObject(uniqueMembers: members))
  }

  init(reading fields: FieldReader) throws(ProtocolError) {
    self.init(
      list: try fields.string(WireKey.list),
      version: try fields.int(WireKey.version),
      title: try fields.string(WireKey.title),
      backTitle: try fields.optionalString(WireKey.back),
      style: try fields.name(WireKey.style, as: TableStyle.self),
      isEditing: try fields.bool(WireKey.editing),
      isEditable: try fields.bool(WireKey.editable),
      selection: try fields.name(WireKey.selection, as: SelectionMode.self),
      indexTitles: try fields.optionalStrings(WireKey.indexTitles),
      header: try fields.optionalString(WireKey.header),
      footer: try fields.optionalString(WireKey.footer),
      sections: try LoadedSection.sections(WireKey.sections, of: fields),
      isSearchable: try fields.optional(WireKey.searchable) == nil
        ? false : fields.bool(WireKey.searchable),
      search: try fields.optionalString(WireKey.search))
    language = try fields.optionalString(WireKey.language)
    if fields.optional(WireKey.cell) != nil {
      cell = try CellTemplate(reading: fields.object(WireKey.cell))
    }
    if fields.optional(WireKey.actions) != nil {
      for action in try fields.objects(WireKey.actions) {
        actions.append(try RowAction(reading: action))
      }
    }
  }
}
