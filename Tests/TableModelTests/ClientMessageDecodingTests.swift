import Testing

@testable import TableModel

/// A JSON frame a client might send, the `ref` the server can still read from it, and
/// the message of the `bad_message` error it must answer with.
struct BadClientFrame: CustomTestStringConvertible, Sendable {
  var frame: String
  var ref: Int?
  var message: String

  init(_ frame: String, ref: Int? = nil, _ message: String) {
    self.frame = frame
    self.ref = ref
    self.message = message
  }

  var testDescription: String { frame }
}

private let badFrames: [BadClientFrame] = [
  // Not a message object
  .init("[]", "a message must be a JSON object, not an array"),
  .init(#""tap""#, "a message must be a JSON object, not a string"),
  .init("null", "a message must be a JSON object, not null"),
  .init("42", "a message must be a JSON object, not a number"),
  // type
  .init("{}", #"missing field "type""#),
  .init(#"{"ref":1}"#, ref: 1, #"missing field "type""#),
  .init(#"{"type":7,"ref":2}"#, ref: 2, #"field "type" must be a string"#),
  .init(#"{"type":null}"#, #"field "type" must be a string"#),
  .init(#"{"type":"jump","ref":3}"#, ref: 3, #"unknown message type "jump""#),
  .init(#"{"type":"Tap"}"#, #"unknown message type "Tap""#),
  .init(#"{"type":"welcome","session":"x","resumed":false}"#, #"unknown message type "welcome""#),
  // ref
  .init(#"{"type":"back","ref":"3"}"#, #"field "ref" must be an integer or null"#),
  .init(#"{"type":"back","ref":1.5}"#, #"field "ref" must be an integer or null"#),
  .init(#"{"type":"back","ref":1e300}"#, #"field "ref" must be an integer or null"#),
  .init(#"{"type":"jump","ref":[1]}"#, #"field "ref" must be an integer or null"#),
  // Fields of commands, missing and mistyped
  .init(#"{"type":"tap","ref":4,"row":"R1"}"#, ref: 4, #"missing field "list""#),
  .init(#"{"type":"tap","list":7,"row":"R1"}"#, #"field "list" must be a string"#),
  .init(#"{"type":"tap","list":null,"row":"R1"}"#, #"field "list" must be a string"#),
  .init(#"{"type":"tap","list":"L1"}"#, #"missing field "row""#),
  .init(
    #"{"type":"tap","list":"L1","row":"R1","scroll":3}"#,
    #"field "scroll" must be a string or null"#),
  .init(#"{"type":"accessory","list":"L1","row":{}}"#, #"field "row" must be a string"#),
  .init(#"{"type":"hello","session":5}"#, #"field "session" must be a string or null"#),
  .init(
    #"{"type":"hello","session":null,"client":false}"#, #"field "client" must be a string or null"#),
  .init(#"{"type":"editing"}"#, #"missing field "on""#),
  .init(#"{"type":"editing","on":"yes"}"#, #"field "on" must be true or false"#),
  .init(#"{"type":"editing","on":1}"#, #"field "on" must be true or false"#),
  .init(
    #"{"type":"delete","list":"L1","rows":[]}"#,
    #"field "rows" must be a non-empty array of row ids"#),
  .init(#"{"type":"delete","list":"L1","rows":"R1"}"#, #"field "rows" must be an array"#),
  .init(#"{"type":"delete","list":"L1","rows":["R1",2]}"#, #"field "rows[1]" must be a string"#),
  .init(#"{"type":"delete","list":"L1"}"#, #"missing field "rows""#),
  .init(#"{"type":"insert","list":"L1","section":"S1","after":null}"#, #"missing field "row""#),
  .init(
    #"{"type":"insert","list":"L1","section":"S1","row":"Milk"}"#, #"field "row" must be an object"#
  ),
  .init(#"{"type":"insert","list":"L1","section":"S1","row":{}}"#, #"missing field "row.text""#),
  .init(
    #"{"type":"insert","list":"L1","section":"S1","row":{"text":1}}"#,
    #"field "row.text" must be a string"#),
  .init(
    #"{"type":"insert","list":"L1","section":"S1","row":{"text":"a","detail":2}}"#,
    #"field "row.detail" must be a string or null"#),
  .init(
    #"{"type":"insert","list":"L1","section":"S1","row":{"text":"a","style":"fancy"}}"#,
    #"field "row.style" must be one of "default", "subtitle", "value1", "value2""#),
  .init(
    #"{"type":"insert","list":"L1","section":"S1","after":5,"row":{"text":"a"}}"#,
    #"field "after" must be a string or null"#),
  .init(#"{"type":"insert","list":"L1","row":{"text":"a"}}"#, #"missing field "section""#),
  .init(#"{"type":"move","list":"L1","row":"R1","after":null}"#, #"missing field "section""#),
  .init(
    #"{"type":"move","list":"L1","row":"R1","section":"S1","after":["R2"]}"#,
    #"field "after" must be a string or null"#),
  .init(#"{"type":"toggle","list":"L1","row":"R1"}"#, #"missing field "on""#),
  .init(
    #"{"type":"toggle","list":"L1","row":"R1","on":null}"#, #"field "on" must be true or false"#),
  .init(
    #"{"type":"update","list":"L1","row":"R1","text":null}"#, #"field "text" must be a string"#),
  .init(
    #"{"type":"update","list":"L1","row":"R1","detail":5}"#,
    #"field "detail" must be a string or null"#),
  .init(
    #"{"type":"fetch","list":"L1","section":"S1","from":-1,"count":10}"#,
    #"field "from" must be a non-negative integer"#),
  .init(
    #"{"type":"fetch","list":"L1","section":"S1","from":1.5,"count":10}"#,
    #"field "from" must be a non-negative integer"#),
  .init(
    #"{"type":"fetch","list":"L1","section":"S1","from":"0","count":10}"#,
    #"field "from" must be a non-negative integer"#),
  .init(
    #"{"type":"fetch","list":"L1","section":"S1","from":0,"count":0}"#,
    #"field "count" must be an integer of at least 1"#),
  .init(#"{"type":"fetch","list":"L1","section":"S1","from":0}"#, #"missing field "count""#),
  .init(
    #"{"type":"fetch","list":"L1","section":0,"from":0,"count":1}"#,
    #"field "section" must be a string"#),
]

@Suite struct ClientMessageDecodingTests {
  @Test(arguments: badFrames)
  func badFrameIsRefusedNamingTheField(_ bad: BadClientFrame) {
    let (ref, result) = ClientMessage.decode(bad.frame)
    #expect(ref == bad.ref)
    #expect(result == .failure(ProtocolError(.badMessage, bad.message)))
  }

  @Test(arguments: [
    "", "   ", "{", "tap", #"{"type":"tap""#, #"{"type":"back"} x"#, "{'type':'back'}",
    "\u{FEFF}{}",
  ])
  func textThatIsNotJSONIsBadJSON(_ frame: String) throws {
    let (ref, result) = ClientMessage.decode(frame)
    #expect(ref == nil)
    guard case .failure(let error) = result else {
      Issue.record("decoded \(result)")
      return
    }
    #expect(error.code == .badJSON)
    #expect(error.message.hasPrefix("not JSON: "))
  }

  @Test func theBadJSONMessageSaysWhere() {
    #expect(
      ClientMessage.decode(#"{"type":"back",}"#).result
        == .failure(ProtocolError(.badJSON, "not JSON: expected a string key at byte 15")))
  }

  @Test func unknownFieldsAreIgnored() {
    let (ref, result) = ClientMessage.decode(
      #"{"type":"toggle","list":"L1","row":"R1","on":true,"color":"red","nested":{"a":[1]},"ref":9}"#
    )
    #expect(ref == 9)
    #expect(result == .success(.toggle(list: "L1", row: "R1", isOn: true)))
  }

  @Test func aNullRefIsNoRef() {
    let (ref, result) = ClientMessage.decode(#"{"type":"reload","ref":null}"#)
    #expect(ref == nil)
    #expect(result == .success(.reload))
  }

  @Test func helloWithoutASessionStartsANewOne() {
    #expect(ClientMessage.decode(#"{"type":"hello"}"#).result == .success(.hello(session: nil)))
  }

  @Test func updateLeavesOutWhatStaysAndNullRemovesTheDetail() {
    #expect(
      ClientMessage.decode(#"{"type":"update","list":"L1","row":"R1","text":"New"}"#).result
        == .success(.update(list: "L1", row: "R1", edit: RowUpdate(text: "New"))))
    #expect(
      ClientMessage.decode(#"{"type":"update","list":"L1","row":"R1","detail":null}"#).result
        == .success(.update(list: "L1", row: "R1", edit: RowUpdate(detail: .some(nil)))))
    #expect(
      ClientMessage.decode(#"{"type":"update","list":"L1","row":"R1"}"#).result
        == .success(.update(list: "L1", row: "R1", edit: RowUpdate())))
  }

  @Test func rowEditAppliesOnlyWhatItChanges() {
    let row = Row(id: "R1", style: .subtitle, text: "Old", detail: "Kept", accessory: .checkmark)
    #expect(RowUpdate(text: "New").applied(to: row).text == "New")
    #expect(RowUpdate(text: "New").applied(to: row).detail == "Kept")
    #expect(RowUpdate(detail: .some(nil)).applied(to: row).detail == nil)
    #expect(
      RowUpdate(detail: "Other").applied(to: row)
        == Row(id: "R1", style: .subtitle, text: "Old", detail: "Other", accessory: .checkmark))
    #expect(RowUpdate().applied(to: row) == row)
    #expect(RowUpdate().isEmpty)
    #expect(!RowUpdate(detail: .some(nil)).isEmpty)
  }

  @Test func wholeNumbersWrittenWithAFractionOrExponentAreIntegers() {
    #expect(
      ClientMessage.decode(
        #"{"type":"fetch","list":"L1","section":"S1","from":2.0,"count":1e2,"ref":3.0}"#)
        == (3, .success(.fetch(list: "L1", section: "S1", from: 2, count: 100))))
  }

  @Test func theListACommandActsOn() {
    #expect(ClientMessage.tap(list: "L1", row: "R1").list == "L1")
    #expect(ClientMessage.fetch(list: "L2", section: "S", from: 0, count: 1).list == "L2")
    #expect(ClientMessage.back.list == nil)
    #expect(ClientMessage.hello(session: nil).list == nil)
  }
}

@Suite struct ProtocolErrorTests {
  @Test func errorsForThePeer() {
    #expect(ProtocolError(.notFound, "gone").description == "not_found: gone")
    #expect(
      ProtocolError(JSONSyntaxError(offset: 3, reason: "unexpected character"))
        == ProtocolError(.badJSON, "not JSON: unexpected character at byte 3"))
  }
}
