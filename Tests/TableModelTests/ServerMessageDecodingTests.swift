import Testing

@testable import TableModel

/// A client decodes what a server sends: unknown things are ignored, malformed ones are
/// refused with the field named, and nothing crashes.

private let row =
  #"{"id":"R1","style":"default","text":"t","detail":null,"image":null,"accessory":"none","control":null,"editing":"none","movable":false,"selectable":true}"#

private func refusal(_ text: String) -> String? {
  guard case .failure(let error) = ServerMessage.decode(text) else { return nil }
  #expect(error.code == .badMessage)
  return error.message
}

@Suite struct ServerMessageDecodingTests {
  @Test func anUnknownTypeIsKeptAsUnknown() {
    #expect(
      ServerMessage.decode(#"{"type":"cursor","who":["ann"]}"#)
        == .success(.unknown(type: "cursor")))
  }

  @Test func unknownFieldsAreIgnored() {
    #expect(
      ServerMessage.decode(#"{"type":"notice","text":"Hi","level":"info","ref":null}"#)
        == .success(.notice(text: "Hi")))
    let rowWithMore = row.replacing(#""id":"R1""#, with: #""id":"R1","badge":3"#)
    #expect(
      ServerMessage.decode(
        #"{"type":"rows","list":"L","version":1,"section":0,"from":0,"rows":[\#(rowWithMore)]}"#)
        == .success(
          .rows(
            RowsMessage(
              list: "L", version: 1, section: 0, from: 0, rows: [Row(id: "R1", text: "t")]))))
  }

  @Test func anUnknownErrorCodeIsTreatedAsInternal() {
    #expect(
      ServerMessage.decode(#"{"type":"error","ref":1,"code":"teapot","message":"short and stout"}"#)
        == .success(.error(ref: 1, ProtocolError(.internal, "short and stout"))))
  }

  @Test func aRowLeavingOutANullableFieldReadsAsNull() throws {
    let short =
      #"{"id":"R1","style":"default","text":"t","accessory":"none","editing":"none","movable":false,"selectable":true}"#
    #expect(try Row(json: JSONValue(parsing: short)) == Row(id: "R1", text: "t"))
  }

  @Test func textThatIsNotJSON() {
    guard case .failure(let error) = ServerMessage.decode("{") else {
      Issue.record("decoded")
      return
    }
    #expect(error.code == .badJSON)
  }

  @Test func malformedMessagesNameTheField() {
    #expect(refusal("[]") == "a message must be a JSON object, not an array")
    #expect(
      refusal(#"{"type":"welcome","session":null,"resumed":false}"#)
        == #"field "session" must be a string"#)
    #expect(refusal(#"{"type":"ack","version":1}"#) == #"missing field "ref""#)
    #expect(
      refusal(#"{"type":"ack","ref":1,"version":"2"}"#)
        == #"field "version" must be an integer or null"#)
    #expect(
      refusal(#"{"type":"diff","list":"L","from":1,"to":3,"ops":[]}"#)
        == #"field "to" must be "from" + 1 (2)"#)
    #expect(
      refusal(#"{"type":"diff","list":"L","from":1,"to":2,"ops":[{"op":"shuffle"}]}"#)
        == #"field "ops[0].op" must be one of "delete", "insert", "move", "update", "deleteSection", "insertSection", "updateSection""#
    )
    #expect(
      refusal(
        #"{"type":"diff","list":"L","from":1,"to":2,"ops":[{"op":"delete","at":[0,0]},{"op":"delete","at":[0]}]}"#
      )
        == #"field "ops[1].at" must be an index path [section, row]"#)
    #expect(
      refusal(#"{"type":"diff","list":"L","from":1,"to":2,"ops":[{"op":"delete","at":[0,-1]}]}"#)
        == #"field "ops[0].at" must be an index path [section, row]"#)
    #expect(
      refusal(
        #"{"type":"diff","list":"L","from":1,"to":2,"ops":[{"op":"insert","at":[0,0],"row":{"id":"R1"}}]}"#
      )
        == #"missing field "ops[0].row.style""#)
    #expect(
      refusal(
        #"{"type":"diff","list":"L","from":1,"to":2,"ops":[{"op":"insertSection","at":0,"section":{"id":"S","header":null,"footer":null,"count":2,"rows":[\#(row)]}}]}"#
      )
        == #"field "ops[0].section.rows" must hold all 2 rows of the section"#)
    #expect(
      refusal(
        #"{"type":"diff","list":"L","from":1,"to":2,"ops":[{"op":"deleteSection","at":"S1"}]}"#)
        == #"field "ops[0].at" must be a non-negative integer"#)
    #expect(
      refusal(
        #"{"type":"rows","list":"L","version":1,"section":0,"from":0,"rows":[\#(row.replacing(#""control":null"#, with: #""control":{"kind":"slider"}"#))]}"#
      )
        == #"field "rows[0].control.kind" must be "switch""#)
    #expect(
      refusal(
        #"{"type":"rows","list":"L","version":1,"section":0,"from":0,"rows":[\#(row.replacing(#""accessory":"none""#, with: #""accessory":"chevron""#))]}"#
      )
        == #"field "rows[0].accessory" must be one of "none", "disclosure", "detailDisclosure", "detail", "checkmark""#
    )
  }

  @Test func malformedScreensNameTheField() {
    let screen =
      #"{"list":"L","version":1,"title":"T","back":null,"style":"plain","editing":false,"editable":false,"selection":"none","indexTitles":null,"header":null,"footer":null,"sections":[{"id":"S","header":null,"footer":null,"count":0,"rows":[\#(row)]}]}"#
    #expect(
      refusal(#"{"type":"screen","transition":"none","depth":0,"stack":["T"],"screen":\#(screen)}"#)
        == #"field "screen.sections[0].rows" holds 1 rows, more than its count 0"#)
    let good = screen.replacing(#""count":0"#, with: #""count":1"#)
    #expect(
      refusal(#"{"type":"screen","transition":"none","depth":0,"stack":["T"],"screen":\#(good)}"#)
        == nil)
    #expect(
      refusal(#"{"type":"screen","transition":"none","depth":1,"stack":["T"],"screen":\#(good)}"#)
        == #"field "depth" must be the stack's length - 1 (0)"#)
    #expect(
      refusal(#"{"type":"screen","transition":"none","depth":0,"stack":[],"screen":\#(good)}"#)
        == #"field "stack" must be a non-empty array of titles"#)
    #expect(
      refusal(#"{"type":"screen","transition":"slide","depth":0,"stack":["T"],"screen":\#(good)}"#)
        == #"field "transition" must be one of "none", "push", "pop""#)
    #expect(
      refusal(
        #"{"type":"screen","transition":"none","depth":0,"stack":["T"],"screen":\#(good.replacing(#""style":"plain""#, with: #""style":"fancy""#))}"#
      )
        == #"field "screen.style" must be one of "plain", "grouped", "insetGrouped""#)
    #expect(
      refusal(
        #"{"type":"screen","transition":"none","depth":0,"stack":["T"],"screen":\#(good.replacing(#""indexTitles":null"#, with: #""indexTitles":[1]"#))}"#
      )
        == #"field "screen.indexTitles[0]" must be a string"#)
  }
}
