import Testing

@testable import TableModel

/// The JSON examples of protocol-core, copied with each `a|b` alternative filled in, decode
/// to the expected message and encode back to the same text, key order included.

/// `example` without the white space between tokens, as the server writes it.
private func compact(_ example: String) throws -> String {
  try JSONValue(parsing: example).serialized
}

private func expectServerExample(
  _ example: String, is message: ServerMessage, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  #expect(ServerMessage.decode(example) == .success(message), sourceLocation: sourceLocation)
  #expect(message.serialized == (try compact(example)), sourceLocation: sourceLocation)
}

private func expectClientExample(
  _ example: String, is message: ClientMessage, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let (ref, result) = ClientMessage.decode(example)
  #expect(ref == nil, sourceLocation: sourceLocation)
  #expect(result == .success(message), sourceLocation: sourceLocation)
  #expect(message.serialized() == (try compact(example)), sourceLocation: sourceLocation)
}

private let wifi = Row(
  id: "R42", style: .value1, text: "Wi-Fi", detail: "Home", accessory: .disclosureIndicator)

private let wifiJSON = """
  {"id":"R42","style":"value1","text":"Wi-Fi",
   "detail":"Home","image":null,
   "accessory":"disclosure",
   "control":null,
   "editing":"none","movable":false,"selectable":true}
  """

private let airplane = Row(
  id: "R43", style: .default, text: "Airplane Mode", image: "/img/airplane.png",
  control: .switch(isOn: true), editingStyle: .delete, isMovable: true, isSelectable: false)

private let airplaneJSON = """
  {"id":"R43","style":"default","text":"Airplane Mode",
   "detail":null,"image":"/img/airplane.png",
   "accessory":"none",
   "control":{"kind":"switch","on":true},
   "editing":"delete","movable":true,"selectable":false}
  """

@Suite struct ProtocolCoreServerExampleTests {
  @Test func welcome() throws {
    try expectServerExample(
      #"{"type":"welcome","session":"q8Hn2xVb3kLw9RtY5mZc1A","resumed":false}"#,
      is: .welcome(session: "q8Hn2xVb3kLw9RtY5mZc1A", resumed: false))
    try expectServerExample(
      #"{"type":"welcome","session":"q8Hn2xVb3kLw9RtY5mZc1A","resumed":true}"#,
      is: .welcome(session: "q8Hn2xVb3kLw9RtY5mZc1A", resumed: true))
  }

  @Test func screenWithAPrefixOfALongSection() throws {
    let example = """
      {"type":"screen","transition":"push","depth":1,
       "stack":["Settings","General"],
       "screen":{"list":"L7","version":12,"title":"General","back":"Settings",
         "style":"grouped","editing":false,"editable":true,
         "selection":"none","indexTitles":["A","B"],
         "header":null,"footer":"About this Mac",
         "sections":[{"id":"S1","header":null,"footer":"Footnote",
                      "count":250,"rows":[\(wifiJSON), \(airplaneJSON)]}]}}
      """
    let screen = LoadedScreen(
      list: "L7", version: 12, title: "General", backTitle: "Settings", style: .grouped,
      isEditing: false, isEditable: true, selection: .none, indexTitles: ["A", "B"],
      header: nil, footer: "About this Mac",
      sections: [
        LoadedSection(
          id: "S1", header: nil, footer: "Footnote", count: 250, rows: [wifi, airplane])
      ])
    try expectServerExample(
      example,
      is: .screen(ScreenMessage(transition: .push, stack: ["Settings", "General"], screen: screen)))
  }

  @Test func screenAtTheRoot() throws {
    let example = """
      {"type":"screen","transition":"none","depth":0,
       "stack":["Settings"],
       "screen":{"list":"L1","version":1,"title":"Settings","back":null,
         "style":"insetGrouped","editing":true,"editable":false,
         "selection":"multiple","indexTitles":null,
         "header":"Top","footer":null,
         "sections":[{"id":"S1","header":"Network","footer":null,"count":1,"rows":[\(wifiJSON)]},
                     {"id":"S2","header":null,"footer":null,"count":0,"rows":[]}]}}
      """
    let screen = LoadedScreen(
      list: "L1", version: 1, title: "Settings", backTitle: nil, style: .insetGrouped,
      isEditing: true, isEditable: false, selection: .multiple, indexTitles: nil,
      header: "Top", footer: nil,
      sections: [
        LoadedSection(id: "S1", header: "Network", footer: nil, count: 1, rows: [wifi]),
        LoadedSection(id: "S2", header: nil, footer: nil, count: 0, rows: []),
      ])
    try expectServerExample(
      example, is: .screen(ScreenMessage(transition: .none, stack: ["Settings"], screen: screen)))
  }

  @Test func rowsInTheirTwoShapes() throws {
    #expect(try Row(json: JSONValue(parsing: wifiJSON)) == wifi)
    #expect(wifi.jsonValue.serialized == (try compact(wifiJSON)))
    #expect(try Row(json: JSONValue(parsing: airplaneJSON)) == airplane)
    #expect(airplane.jsonValue.serialized == (try compact(airplaneJSON)))
  }

  @Test func everyCellStyleAccessoryAndEditingStyleByItsWireName() throws {
    for style in CellStyle.allCases {
      for accessory in AccessoryType.allCases {
        for editing in EditingStyle.allCases {
          let json = """
            {"id":"R1","style":"\(style.rawValue)","text":"t","detail":null,"image":null,
             "accessory":"\(accessory.rawValue)","control":{"kind":"switch","on":false},
             "editing":"\(editing.rawValue)","movable":false,"selectable":true}
            """
          let row = Row(
            id: "R1", style: style, text: "t", accessory: accessory,
            control: .switch(isOn: false), editingStyle: editing)
          #expect(try Row(json: JSONValue(parsing: json)) == row)
          #expect(row.jsonValue.serialized == (try compact(json)))
        }
      }
    }
    #expect(
      AccessoryType.allCases.map(\.rawValue) == [
        "none", "disclosure", "detailDisclosure", "detail", "checkmark",
      ])
  }

  @Test func diffWithEveryOp() throws {
    let example = """
      {"type":"diff","list":"L7","from":12,"to":13,"ops":[
        {"op":"delete","at":[0,3]},
        {"op":"insert","at":[0,1],"row":\(wifiJSON)},
        {"op":"move","from":[0,5],"to":[1,0]},
        {"op":"update","at":[1,2],"row":\(airplaneJSON)},
        {"op":"deleteSection","at":2},
        {"op":"insertSection","at":3,"section":{"id":"S9","header":"New","footer":null,
                                              "count":1,"rows":[\(wifiJSON)]}},
        {"op":"updateSection","at":0,"header":"Renamed","footer":null}]}
      """
    let diff = TableDiff(
      list: "L7", from: 12,
      ops: [
        .delete(at: TableIndexPath(row: 3, section: 0)),
        .insert(at: TableIndexPath(row: 1, section: 0), row: wifi),
        .move(from: TableIndexPath(row: 5, section: 0), to: TableIndexPath(row: 0, section: 1)),
        .update(at: TableIndexPath(row: 2, section: 1), row: airplane),
        .deleteSection(at: 2),
        .insertSection(at: 3, section: Section(id: "S9", header: "New", rows: [wifi])),
        .updateSection(at: 0, header: "Renamed", footer: nil),
      ])
    try expectServerExample(example, is: .diff(diff))
  }

  @Test func rows() throws {
    try expectServerExample(
      #"{"type":"rows","list":"L7","version":12,"section":0,"from":250,"rows":[\#(wifiJSON)]}"#,
      is: .rows(RowsMessage(list: "L7", version: 12, section: 0, from: 250, rows: [wifi])))
  }

  @Test func ack() throws {
    try expectServerExample(
      #"{"type":"ack","ref":7,"version":13}"#, is: .ack(ref: 7, version: 13))
    try expectServerExample(
      #"{"type":"ack","ref":8,"version":null}"#, is: .ack(ref: 8, version: nil))
  }

  @Test func errorWithEveryCode() throws {
    for code in ErrorCode.allCases {
      try expectServerExample(
        #"{"type":"error","ref":4,"code":"\#(code.rawValue)","message":"No."}"#,
        is: .error(ref: 4, ProtocolError(code, "No.")))
    }
    try expectServerExample(
      #"{"type":"error","ref":null,"code":"bad_json","message":"not JSON"}"#,
      is: .error(ref: nil, ProtocolError(.badJSON, "not JSON")))
    #expect(
      ErrorCode.allCases.map(\.rawValue) == [
        "bad_json", "bad_message", "too_large", "not_found", "not_allowed", "rate_limited",
        "unauthorized", "internal", "conflict",
      ])
  }

  @Test func accessInHelloAndWelcome() throws {
    try expectClientExample(
      #"{"type":"hello","session":null,"access":"k3Y"}"#, is: .hello(session: nil, access: "k3Y"))
    try expectServerExample(
      #"{"type":"welcome","session":"q8Hn2xVb3kLw9RtY5mZc1A","resumed":false,"role":"viewer","user":"Ann"}"#,
      is: .welcome(session: "q8Hn2xVb3kLw9RtY5mZc1A", resumed: false, role: "viewer", user: "Ann"))
  }

  @Test func notice() throws {
    try expectServerExample(
      #"{"type":"notice","text":"“Wi-Fi” was deleted by someone else."}"#,
      is: .notice(text: "“Wi-Fi” was deleted by someone else."))
  }
}

@Suite struct ProtocolCoreClientExampleTests {
  @Test func hello() throws {
    try expectClientExample(#"{"type":"hello","session":null}"#, is: .hello(session: nil))
    try expectClientExample(
      #"{"type":"hello","session":"q8Hn2xVb3kLw9RtY5mZc1A"}"#,
      is: .hello(session: "q8Hn2xVb3kLw9RtY5mZc1A"))
  }

  @Test func tapAndAccessory() throws {
    try expectClientExample(
      #"{"type":"tap","list":"L7","row":"R42"}"#, is: .tap(list: "L7", row: "R42"))
    try expectClientExample(
      #"{"type":"accessory","list":"L7","row":"R42"}"#, is: .accessory(list: "L7", row: "R42"))
  }

  @Test func backEditingAndReload() throws {
    try expectClientExample(#"{"type":"back"}"#, is: .back)
    try expectClientExample(#"{"type":"editing","on":true}"#, is: .editing(isOn: true))
    try expectClientExample(#"{"type":"editing","on":false}"#, is: .editing(isOn: false))
    try expectClientExample(#"{"type":"reload"}"#, is: .reload)
  }

  @Test func delete() throws {
    try expectClientExample(
      #"{"type":"delete","list":"L7","rows":["R1","R2"]}"#,
      is: .delete(list: "L7", rows: ["R1", "R2"]))
  }

  @Test func insert() throws {
    try expectClientExample(
      #"{"type":"insert","list":"L7","section":"S1","after":null,"row":{"text":"Milk","detail":null}}"#,
      is: .insert(list: "L7", section: "S1", after: nil, row: NewRow(text: "Milk")))
    try expectClientExample(
      #"{"type":"insert","list":"L7","section":"S1","after":"R9","row":{"text":"Milk","detail":"2 l"}}"#,
      is: .insert(list: "L7", section: "S1", after: "R9", row: NewRow(text: "Milk", detail: "2 l")))
  }

  @Test func move() throws {
    try expectClientExample(
      #"{"type":"move","list":"L7","row":"R3","section":"S2","after":null}"#,
      is: .move(list: "L7", row: "R3", section: "S2", after: nil))
    try expectClientExample(
      #"{"type":"move","list":"L7","row":"R3","section":"S2","after":"R8"}"#,
      is: .move(list: "L7", row: "R3", section: "S2", after: "R8"))
  }

  @Test func toggle() throws {
    try expectClientExample(
      #"{"type":"toggle","list":"L7","row":"R5","on":false}"#,
      is: .toggle(list: "L7", row: "R5", isOn: false))
  }

  @Test func update() throws {
    try expectClientExample(
      #"{"type":"update","list":"L7","row":"R5","text":"Bread","detail":"Whole grain"}"#,
      is: .update(list: "L7", row: "R5", edit: RowUpdate(text: "Bread", detail: "Whole grain")))
  }

  @Test func fetch() throws {
    try expectClientExample(
      #"{"type":"fetch","list":"L7","section":"S1","from":250,"count":100}"#,
      is: .fetch(list: "L7", section: "S1", from: 250, count: 100))
  }

  @Test func anyCommandMayCarryARef() {
    let (ref, result) = ClientMessage.decode(#"{"type":"tap","list":"L7","row":"R42","ref":17}"#)
    #expect(ref == 17)
    #expect(result == .success(.tap(list: "L7", row: "R42")))
    #expect(
      ClientMessage.tap(list: "L7", row: "R42").serialized(ref: 17)
        == #"{"type":"tap","ref":17,"list":"L7","row":"R42"}"#)
  }
}
