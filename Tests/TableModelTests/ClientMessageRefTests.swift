import Testing

@testable import TableModel

@Suite("A refused frame's ref, read without parsing it")
struct ClientMessageRefTests {
  @Test(
    arguments: [
      (#"{"type":"tap","ref":7}"#, 7),
      (#"{"ref":12,"type":"update","row":{"text":"a, \"ref\":3"}}"#, 12),
      (#"  { "type" : "x" , "ref" : -4 , "list":"L"}"#, -4),
      // The page writes ref last, after everything it sends.
      (
        #"{"type":"update","row":"R","text":"\#(String(repeating: "é", count: 5000))","ref":99}"#,
        99
      ),
      // Broken after the ref: still read.
      (#"{"type":"tap","ref":5,"list":"#, 5),
    ] as [(String, Int)])
  func aTopLevelIntegerRefIsRead(frame: String, ref: Int) {
    #expect(ClientMessage.peekRef(frame) == ref)
  }

  @Test(
    arguments: [
      #"{"type":"tap"}"#,
      #"{"row":{"ref":3},"type":"tap"}"#,  // nested
      #"{"text":"\"ref\":3","type":"tap"}"#,  // in a string
      #"[{"ref":3}]"#,
      #"{"ref":"3"}"#,
      #"{"ref":3.5}"#,
      #"{"ref":1e3}"#,
      #"{"ref":12345678901234567890}"#,
      #"{"list":"L","ref"#,
      "not json",
      "",
      #"{"a":"unterminated"#,
    ])
  func nothingElseIsTakenForARef(frame: String) {
    #expect(ClientMessage.peekRef(frame) == nil)
  }

  @Test func itAgreesWithTheDecoderOnWellFormedCommands() {
    for frame in [
      #"{"type":"tap","list":"L","row":"R","ref":41}"#,
      #"{"type":"delete","list":"L","rows":["a","b"],"ref":0}"#,
      #"{"ref":3,"type":"hello","session":null}"#,
    ] {
      #expect(ClientMessage.peekRef(frame) == ClientMessage.decode(frame).ref)
    }
  }
}
