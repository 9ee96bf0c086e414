import Testing

@testable import TableModel

/// The `history` extension's messages: the command's count limit, the answer's shape and
/// its round trip, and the times it carries (ISO 8601 UTC).
@Suite struct HistoryMessageTests {
  @Test(arguments: [
    (0, "1970-01-01T00:00:00Z"), (1_764_103_507, "2025-11-25T20:45:07Z"),
    (951_782_400, "2000-02-29T00:00:00Z"), (-86_401, "1969-12-30T23:59:59Z"),
  ])
  func timesAreISO8601InUTC(seconds: Int, text: String) {
    #expect(HistoryEntry.iso8601(seconds) == text)
    #expect(HistoryEntry.unixTime(iso8601: text) == seconds)
  }

  @Test func theAnswerRoundTripsWithItsFieldsInOrder() throws {
    let message = HistoryMessage(
      list: "L4",
      entries: [
        HistoryEntry(
          id: 812, version: 37, at: 1_764_103_507, author: "Ann", kind: .delete, rows: ["R12"],
          summary: #"Ann deleted "Milk""#),
        HistoryEntry(
          id: 1, version: nil, at: 0, author: nil, kind: .import, rows: [],
          summary: "The list was imported"),
      ], more: true)
    let text = ServerMessage.history(message).serialized
    #expect(
      text.hasPrefix(
        #"{"type":"history","list":"L4","entries":[{"id":812,"version":37,"at":"2025-11-25T20:45:07Z","author":"Ann","kind":"delete","rows":["R12"],"summary":"Ann deleted \"Milk\""}"#
      ))
    #expect(!text.contains("live"))
    #expect(try ServerMessage.decode(text).get() == .history(message))
    var live = message
    live.live = true
    #expect(
      try ServerMessage.decode(ServerMessage.history(live).serialized).get() == .history(live))
  }

  @Test func theCommandDefaultsTo50AndRefusesMoreThan200() throws {
    let (_, plain) = ClientMessage.decode(#"{"type":"history","list":"L4"}"#)
    #expect(try plain.get() == .history(list: "L4", before: nil, count: 50))
    let (_, paged) = ClientMessage.decode(
      #"{"type":"history","list":"L4","before":90,"count":200}"#)
    #expect(try paged.get() == .history(list: "L4", before: 90, count: 200))
    for bad in [#""count":201"#, #""count":0"#, #""before":"x""#, #""count":"5""#] {
      let (_, result) = ClientMessage.decode(#"{"type":"history","list":"L4",\#(bad)}"#)
      #expect(throws: ProtocolError.self) { try result.get() }
    }
    #expect(
      ClientMessage.history(list: "L4", before: nil, count: 20).serialized()
        == #"{"type":"history","list":"L4","before":null,"count":20}"#)
  }
}
