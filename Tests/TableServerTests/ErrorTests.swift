import StoreTestSupport
import TableModel
import Testing

@testable import TableServer

/// Every protocol error code from bad input; the connection keeps working after each.
@Suite struct ErrorTests {
  /// Set by ``setUp(_:)``, the first thing each test does: every test runs once on each store.
  var fixture: Fixture!

  mutating func setUp(_ kind: StoreKind) throws {
    fixture = try Fixture(kind)
  }

  static let badInputs: [(input: String, reply: String)] = [
    (#"not json"#, "error null bad_json"),
    (#"{"type":"tap","list":"Lhome""#, "error null bad_json"),
    (#"[1,2]"#, "error null bad_message"),
    (#"{"ref":5}"#, "error 5 bad_message"),
    (#"{"type":"fly","ref":5}"#, "error 5 bad_message"),
    (#"{"type":"tap","list":"Lhome","ref":5}"#, "error 5 bad_message"),
    (#"{"type":"tap","list":7,"row":"Rabout","ref":5}"#, "error 5 bad_message"),
    (#"{"type":"editing","on":"yes","ref":5}"#, "error 5 bad_message"),
    (
      #"{"type":"fetch","list":"Lnumbers","section":"Snumbers","from":-1,"count":10,"ref":5}"#,
      "error 5 bad_message"
    ),
    (
      #"{"type":"fetch","list":"Lnumbers","section":"Snumbers","from":0,"count":0,"ref":5}"#,
      "error 5 bad_message"
    ),
    (#"{"type":"hello","session":null,"ref":5}"#, "error 5 not_allowed"),
    // Not on the session's screen, like any list that does not exist.
    (#"{"type":"tap","list":"Lnope","row":"Rabout","ref":5}"#, "error 5 not_allowed"),
    (#"{"type":"tap","list":"Lhome","row":"Rnope","ref":5}"#, "error 5 not_found"),
    (#"{"type":"accessory","list":"Lhome","row":"Rabout","ref":5}"#, "error 5 not_allowed"),
    (#"{"type":"back","ref":5}"#, "error 5 not_allowed"),
    (#"{"type":"editing","on":true,"ref":5}"#, "error 5 not_allowed"),
    (#"{"type":"delete","list":"Lhome","rows":["Rabout"],"ref":5}"#, "error 5 not_allowed"),
    (#"{"type":"delete","list":"Ltasks","rows":["Rnope"],"ref":5}"#, "error 5 not_found"),
    (
      #"{"type":"insert","list":"Ltasks","section":"Snope","after":null,"row":{"text":"x"},"ref":5}"#,
      "error 5 not_found"
    ),
    (
      #"{"type":"insert","list":"Ltasks","section":"Stodo","after":"Rtea","row":{"text":"x"},"ref":5}"#,
      "error 5 not_found"
    ),
    (
      #"{"type":"insert","list":"Lhome","section":"Shome","after":null,"row":{"text":"x"},"ref":5}"#,
      "error 5 not_allowed"
    ),
    (
      #"{"type":"move","list":"Ltasks","row":"Rnope","section":"Stodo","after":null,"ref":5}"#,
      "error 5 not_found"
    ),
    (
      #"{"type":"move","list":"Lhome","row":"Rabout","section":"Shome","after":null,"ref":5}"#,
      "error 5 not_allowed"
    ),
    (
      #"{"type":"update","list":"Lsettings","row":"Rwifi","text":"WLAN","ref":5}"#,
      "error 5 not_allowed"
    ),
    (
      #"{"type":"toggle","list":"Lsettings","row":"Rringtone","on":true,"ref":5}"#,
      "error 5 not_allowed"
    ),
    (#"{"type":"toggle","list":"Lsettings","row":"Rnope","on":true,"ref":5}"#, "error 5 not_found"),
    (#"{"type":"tap","list":"Lsettings","row":"Rwifi","ref":5}"#, "error 5 not_allowed"),
    (
      #"{"type":"fetch","list":"Lnumbers","section":"Snope","from":0,"count":10,"ref":5}"#,
      "error 5 not_found"
    ),
  ]

  /// The rows of the root that lead to the lists the bad inputs name.
  static let rowsLeadingTo = ["Ltasks": "Rtasks", "Lsettings": "Rsettings", "Lnumbers": "Rnumbers"]

  @Test(arguments: StoreKind.allCases, badInputs)
  mutating func badInputGetsItsErrorAndTheConnectionStillWorks(
    kind: StoreKind, bad: (input: String, reply: String)
  ) throws {
    try setUp(kind)
    let (input, reply) = bad
    var driver = try fixture.makeDriver()
    let c1 = driver.join()
    // A command reaches only a list on the session's screen: open the one it names.
    let list = (try? JSONValue(parsing: input))?["list"]?.stringValue
    let opening = list.flatMap { Self.rowsLeadingTo[$0] }
    if let opening { _ = driver.send(c1, #"{"type":"tap","list":"Lhome","row":"\#(opening)"}"#) }
    driver.expect(c1, sends: input, replies: ["c1 ← \(reply)"])
    if opening != nil { _ = driver.send(c1, #"{"type":"back"}"#) }
    let v = try fixture.version("Lhome")
    driver.expect(
      c1, sends: #"{"type":"reload","ref":6}"#,
      replies: ["c1 ← screen none \"Home\" Lhome@\(v) depth=0", "c1 ← ack 6 v=null"])
  }

  @Test(arguments: StoreKind.allCases)
  mutating func aCommandBeforeHelloIsRefused(kind: StoreKind) throws {
    try setUp(kind)
    var driver = try fixture.makeDriver()
    let c1 = driver.connect()
    driver.expect(c1, sends: #"{"type":"reload","ref":1}"#, replies: ["c1 ← error 1 not_allowed"])
  }

  @Test(arguments: StoreKind.allCases)
  mutating func aTooLargeMessageIsReportedAndTheConnectionStillWorks(kind: StoreKind) throws {
    try setUp(kind)
    var driver = try fixture.makeDriver()
    let c1 = driver.join()
    Transcript.expect(driver.sendTooLarge(c1), ["c1 ← error null too_large"])
    driver.expect(
      c1, sends: #"{"type":"tap","list":"Lhome","row":"Rabout","ref":1}"#,
      replies: ["c1 ← ack 1 v=null"])
  }

  @Test(arguments: StoreKind.allCases)
  mutating func aFloodIsRateLimitedThenClosedForAbuse(kind: StoreKind) throws {
    try setUp(kind)
    var configuration = SessionServerConfiguration()
    configuration.burstSize = 10
    configuration.commandsPerSecond = 10
    configuration.refusalsBeforeClose = 5
    var driver = try fixture.makeDriver(configuration)
    let c1 = driver.join()  // one of the ten
    for ref in 1...9 {
      driver.expect(
        c1, sends: #"{"type":"tap","list":"Lhome","row":"Rabout","ref":\#(ref)}"#,
        replies: ["c1 ← ack \(ref) v=null"])
    }
    // Each refusal names the command it refused, wherever its ref stands.
    for ref in 10...13 {
      driver.expect(
        c1, sends: #"{"type":"tap","list":"Lhome","row":"Rabout","ref":\#(ref)}"#,
        replies: ["c1 ← error \(ref) rate_limited"])
    }
    // A pause lets commands through again and forgives the refusals.
    driver.now += .milliseconds(550)
    driver.expect(
      c1, sends: #"{"type":"tap","list":"Lhome","row":"Rabout","ref":14}"#,
      replies: ["c1 ← ack 14 v=null"])
    for _ in 1...4 { _ = driver.send(c1, #"{"type":"reload"}"#) }
    for ref in 15...18 {
      driver.expect(
        c1, sends: #"{"ref":\#(ref),"type":"update","list":"Ltasks","row":"Rtea","text":"x"}"#,
        replies: ["c1 ← error \(ref) rate_limited"])
    }
    driver.expect(
      c1, sends: #"{"type":"reload"}"#,
      replies: ["c1 ← error null rate_limited", "c1 ✕ too many commands 1008"])
    // What is still on its way is dropped, also once the bucket has refilled: the close
    // is asked (and counted) once.
    driver.expect(c1, sends: #"{"type":"reload"}"#, replies: [])
    driver.now += .seconds(2)
    for ref in 19...30 {
      driver.expect(
        c1, sends: #"{"type":"tap","list":"Lhome","row":"Rabout","ref":\#(ref)}"#, replies: [])
    }
  }

  @Test(arguments: StoreKind.allCases)
  mutating func aReadOnlyServerRefusesEveryWriteButNavigates(kind: StoreKind) throws {
    try setUp(kind)
    var driver = try fixture.makeDriver(SessionServerConfiguration(isReadOnly: true))
    let c1 = driver.join()
    let v = try fixture.version("Ltasks")
    driver.expect(
      c1, sends: #"{"type":"tap","list":"Lhome","row":"Rtasks","ref":1}"#,
      replies: [
        "c1 ← screen push \"Tasks\" Ltasks@\(v) depth=1 back=\"Home\"", "c1 ← ack 1 v=null",
      ])
    #expect(driver.screen(c1)["editable"] == .bool(false))
    for command in [
      #"{"type":"editing","on":true,"ref":2}"#,
      #"{"type":"delete","list":"Ltasks","rows":["Rtea"],"ref":2}"#,
      #"{"type":"insert","list":"Ltasks","section":"Stodo","after":null,"row":{"text":"x"},"ref":2}"#,
      #"{"type":"move","list":"Ltasks","row":"Rtea","section":"Stodo","after":null,"ref":2}"#,
      #"{"type":"update","list":"Ltasks","row":"Rtea","text":"x","ref":2}"#,
      #"{"type":"toggle","list":"Lsettings","row":"Rwifi","on":false,"ref":2}"#,
      #"{"type":"tap","list":"Lcolors","row":"Rred","ref":2}"#,
    ] {
      driver.expect(c1, sends: command, replies: ["c1 ← error 2 not_allowed"])
    }
    #expect(try fixture.version("Ltasks") == v)
  }

  @Test(arguments: StoreKind.allCases)
  mutating func aLongSectionIsSentInPartAndFetched(kind: StoreKind) throws {
    try setUp(kind)
    var driver = try fixture.makeDriver()
    let c1 = driver.join()
    _ = driver.send(c1, #"{"type":"tap","list":"Lhome","row":"Rnumbers"}"#)
    let section = driver.screen(c1)["sections"]![0]!
    #expect(section["count"] == .int(350))
    #expect(section["rows"]!.arrayValue!.count == 300)
    let v = try fixture.version("Lnumbers")
    driver.expect(
      c1,
      sends:
        #"{"type":"fetch","list":"Lnumbers","section":"Snumbers","from":300,"count":100,"ref":1}"#,
      replies: ["c1 ← rows Lnumbers@\(v) section 0 from 300 count 50", "c1 ← ack 1 v=null"])
  }
}
