import StoreTestSupport
import TableModel
import Testing

@testable import TableServer

/// `commandId`: a command sent again after a lost connection is applied once and answered
/// each time, with the first answer.
@Suite struct CommandIDTests {
  static let insert =
    #"{"type":"insert","list":"Ltasks","section":"Stodo","after":"Rbread","row":{"text":"Butter"},"commandId":"k7","ref":"#

  @Test(arguments: StoreKind.allCases)
  func aCommandSentAgainAfterALostAckIsAppliedOnce(kind: StoreKind) throws {
    let fixture = try Fixture(kind)
    var driver = try fixture.makeDriver()
    let first = driver.join()
    _ = driver.send(first, #"{"type":"tap","list":"Lhome","row":"Rtasks"}"#)
    let token = try #require(driver.tokens[first])
    let v = try fixture.version("Ltasks")
    let applied = driver.send(first, Self.insert + "1}")
    #expect(applied.count == 2 && applied.last == "c1 ← ack 1 v=\(v + 1)", "\(applied)")
    // The ack is lost with the line; the page resumes and sends the command again.
    driver.disconnect(first)
    let again = driver.join(token: token)
    #expect(driver.send(again, Self.insert + "3}") == ["c2 ← ack 3 v=\(v + 1)"])
    #expect(driver.texts(again) == [["Milk", "Eggs", "Bread", "Butter"], ["Tea"]])
    #expect(try fixture.version("Ltasks") == v + 1)
  }

  @Test(arguments: StoreKind.allCases)
  func aRefusalIsRepeatedAndAnIDIsKeptPerSession(kind: StoreKind) throws {
    let fixture = try Fixture(kind)
    var driver = try fixture.makeDriver()
    let c1 = driver.join()
    let c2 = driver.join()
    _ = driver.send(c1, #"{"type":"tap","list":"Lhome","row":"Rtasks"}"#)
    _ = driver.send(c2, #"{"type":"tap","list":"Lhome","row":"Rtasks"}"#)
    let missing = #"{"type":"delete","list":"Ltasks","rows":["Rnone"],"commandId":"x","ref":"#
    let refused = driver.send(c1, missing + "1}")
    #expect(refused.count == 1 && refused[0].hasPrefix("c1 ← error 1 not_found"), "\(refused)")
    let repeated = driver.send(c1, missing + "2}")
    #expect(repeated.count == 1 && repeated[0].hasPrefix("c1 ← error 2 not_found"), "\(repeated)")
    // Another session's "k7" is its own command.
    let v = try fixture.version("Ltasks")
    _ = driver.send(c1, Self.insert + "3}")
    _ = driver.send(c2, Self.insert + "4}")
    #expect(try fixture.version("Ltasks") == v + 2)
  }

  @Test(arguments: [#"1"#, #""""#, String(repeating: "a", count: 65).debugDescription])
  func aCommandIDMustBeAShortString(id: String) throws {
    let fixture = try Fixture(.sqlite)
    var driver = try fixture.makeDriver()
    let c1 = driver.join()
    let replies = driver.send(c1, #"{"type":"reload","commandId":\#(id),"ref":5}"#)
    #expect(replies.count == 1 && replies[0].hasPrefix("c1 ← error 5 bad_message"), "\(replies)")
  }
}
