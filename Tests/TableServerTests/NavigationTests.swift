import StoreTestSupport
import TableModel
import TableStore
import Testing

@testable import TableServer

/// `hello`, drilling down and back, sessions shared by several connections.
@Suite struct NavigationTests {
  /// Set by ``setUp(_:)``, the first thing each test does: every test runs once on each store.
  var fixture: Fixture!
  var v: [String: Int] = [:]

  mutating func setUp(_ kind: StoreKind) throws {
    fixture = try Fixture(kind)
    var versions: [String: Int] = [:]
    for list in ["Lhome", "Lsettings", "Lregions", "Lnorth", "Lpeak", "Ltasks", "Lringtone"] {
      versions[list] = try fixture.version(list)
    }
    v = versions
  }

  @Test(arguments: StoreKind.allCases)
  mutating func helloStartsANewSessionOnTheRootScreen(kind: StoreKind) throws {
    try setUp(kind)
    var driver = try fixture.makeDriver()
    let c1 = driver.connect()
    driver.expect(
      c1, sends: #"{"type":"hello","session":null,"ref":1}"#,
      replies: [
        "c1 ← welcome new",
        "c1 ← screen none \"Home\" Lhome@\(v["Lhome"]!) depth=0",
        "c1 ← ack 1 v=null",
      ])
    #expect(SessionToken.isWellFormed(driver.tokens[c1]!))
  }

  @Test(arguments: StoreKind.allCases)
  mutating func anUnknownTokenStartsANewSessionUnderAFreshToken(kind: StoreKind) throws {
    try setUp(kind)
    var driver = try fixture.makeDriver()
    let c1 = driver.connect()
    let guessed = String(repeating: "a", count: 32)
    driver.expect(
      c1, sends: #"{"type":"hello","session":"\#(guessed)"}"#,
      replies: ["c1 ← welcome new", "c1 ← screen none \"Home\" Lhome@\(v["Lhome"]!) depth=0"])
    #expect(driver.tokens[c1] != guessed)
  }

  @Test(arguments: StoreKind.allCases)
  mutating func drillDownThreeLevelsAndBack(kind: StoreKind) throws {
    try setUp(kind)
    var driver = try fixture.makeDriver()
    let c1 = driver.join()
    driver.expect(
      c1, sends: #"{"type":"tap","list":"Lhome","row":"Rtrails","ref":1}"#,
      replies: [
        "c1 ← screen push \"Regions\" Lregions@\(v["Lregions"]!) depth=1 back=\"Home\"",
        "c1 ← ack 1 v=null",
      ])
    driver.expect(
      c1, sends: #"{"type":"tap","list":"Lregions","row":"Rnorth","ref":2}"#,
      replies: [
        "c1 ← screen push \"North\" Lnorth@\(v["Lnorth"]!) depth=2 back=\"Regions\"",
        "c1 ← ack 2 v=null",
      ])
    // A detail disclosure button pushes as the row does.
    driver.expect(
      c1, sends: #"{"type":"accessory","list":"Lnorth","row":"Rpeak","ref":3}"#,
      replies: [
        "c1 ← screen push \"Peak Trail\" Lpeak@\(v["Lpeak"]!) depth=3 back=\"North\"",
        "c1 ← ack 3 v=null",
      ])
    #expect(driver.texts(c1) == [["Length"]])
    driver.expect(
      c1, sends: #"{"type":"back","ref":4}"#,
      replies: [
        "c1 ← screen pop \"North\" Lnorth@\(v["Lnorth"]!) depth=2 back=\"Regions\"",
        "c1 ← ack 4 v=null",
      ])
    driver.expect(
      c1, sends: #"{"type":"back"}"#,
      replies: ["c1 ← screen pop \"Regions\" Lregions@\(v["Lregions"]!) depth=1 back=\"Home\""])
    driver.expect(
      c1, sends: #"{"type":"back"}"#,
      replies: ["c1 ← screen pop \"Home\" Lhome@\(v["Lhome"]!) depth=0"])
    driver.expect(c1, sends: #"{"type":"back","ref":7}"#, replies: ["c1 ← error 7 not_allowed"])
  }

  @Test(arguments: StoreKind.allCases)
  mutating func aPopRestoresTheScrollPositionAndHighlightsTheRowThatLedUp(kind: StoreKind) throws {
    try setUp(kind)
    var driver = try fixture.makeDriver()
    let c1 = driver.join()
    _ = driver.send(c1, #"{"type":"tap","list":"Lhome","row":"Rtrails","scroll":"Rsettings"}"#)
    #expect(driver.screenMessages[c1]?["scroll"] == nil)
    _ = driver.send(c1, #"{"type":"back"}"#)
    #expect(driver.screenMessages[c1]?["scroll"] == .string("Rsettings"))
    #expect(driver.screenMessages[c1]?["selected"] == .string("Rtrails"))
  }

  @Test(arguments: StoreKind.allCases)
  mutating func aRowThatLeadsNowhereIsOnlyAcknowledged(kind: StoreKind) throws {
    try setUp(kind)
    var driver = try fixture.makeDriver()
    let c1 = driver.join()
    driver.expect(
      c1, sends: #"{"type":"tap","list":"Lhome","row":"Rabout","ref":1}"#,
      replies: ["c1 ← ack 1 v=null"])
  }

  @Test(arguments: StoreKind.allCases)
  mutating func theConnectionsOfOneSessionShareItsNavigation(kind: StoreKind) throws {
    try setUp(kind)
    var driver = try fixture.makeDriver()
    let c1 = driver.join()
    let c2 = driver.connect()
    driver.expect(
      c2, sends: #"{"type":"hello","session":"\#(driver.tokens[c1]!)"}"#,
      replies: ["c2 ← welcome resumed", "c2 ← screen none \"Home\" Lhome@\(v["Lhome"]!) depth=0"])
    let other = driver.join()
    driver.expect(
      c2, sends: #"{"type":"tap","list":"Lhome","row":"Rtasks","ref":1}"#,
      replies: [
        "c1 ← screen push \"Tasks\" Ltasks@\(v["Ltasks"]!) depth=1 back=\"Home\"",
        "c2 ← screen push \"Tasks\" Ltasks@\(v["Ltasks"]!) depth=1 back=\"Home\"",
        "c2 ← ack 1 v=null",
      ])
    // Editing mode is the session's: both its connections, not the other session.
    driver.expect(
      c1, sends: #"{"type":"editing","on":true,"ref":2}"#,
      replies: [
        "c1 ← screen none \"Tasks\" Ltasks@\(v["Ltasks"]!) depth=1 back=\"Home\" editing",
        "c2 ← screen none \"Tasks\" Ltasks@\(v["Ltasks"]!) depth=1 back=\"Home\" editing",
        "c1 ← ack 2 v=null",
      ])
    #expect(driver.screen(other)["editing"] == .bool(false))
    // A reload answers only the connection that asked.
    driver.expect(
      c2, sends: #"{"type":"reload"}"#,
      replies: ["c2 ← screen none \"Tasks\" Ltasks@\(v["Ltasks"]!) depth=1 back=\"Home\" editing"])
  }

  @Test(arguments: StoreKind.allCases)
  mutating func editingIsRefusedOnAScreenThatCannotBeEdited(kind: StoreKind) throws {
    try setUp(kind)
    var driver = try fixture.makeDriver()
    let c1 = driver.join()
    driver.expect(
      c1, sends: #"{"type":"editing","on":true,"ref":1}"#, replies: ["c1 ← error 1 not_allowed"])
    driver.expect(
      c1, sends: #"{"type":"editing","on":false,"ref":2}"#, replies: ["c1 ← ack 2 v=null"])
  }

  @Test(arguments: StoreKind.allCases)
  mutating func aSessionResumesAfterAReconnect(kind: StoreKind) throws {
    try setUp(kind)
    var driver = try fixture.makeDriver()
    let c1 = driver.join()
    _ = driver.send(c1, #"{"type":"tap","list":"Lhome","row":"Rtrails"}"#)
    _ = driver.send(c1, #"{"type":"tap","list":"Lregions","row":"Rnorth"}"#)
    let token = driver.tokens[c1]!
    driver.disconnect(c1)
    #expect(driver.server.sessions.isEmpty)
    let c2 = driver.connect()
    driver.expect(
      c2, sends: #"{"type":"hello","session":"\#(token)"}"#,
      replies: [
        "c2 ← welcome resumed",
        "c2 ← screen none \"North\" Lnorth@\(v["Lnorth"]!) depth=2 back=\"Regions\"",
      ])
    #expect(driver.list(c2) == "Lnorth")
  }

  @Test(arguments: StoreKind.allCases)
  mutating func aSessionResumesAfterARestart(kind: StoreKind) throws {
    try setUp(kind)
    var token = ""
    do {
      var driver = try fixture.makeDriver()
      let c1 = driver.join()
      _ = driver.send(c1, #"{"type":"tap","list":"Lhome","row":"Rtasks"}"#)
      _ = driver.send(c1, #"{"type":"editing","on":true}"#)
      token = driver.tokens[c1]!
    }
    var restarted = try fixture.makeDriver()
    let c1 = restarted.connect()
    restarted.expect(
      c1, sends: #"{"type":"hello","session":"\#(token)"}"#,
      replies: [
        "c1 ← welcome resumed",
        "c1 ← screen none \"Tasks\" Ltasks@\(v["Ltasks"]!) depth=1 back=\"Home\" editing",
      ])
    restarted.expect(
      c1, sends: #"{"type":"back"}"#,
      replies: ["c1 ← screen pop \"Home\" Lhome@\(v["Lhome"]!) depth=0"])
  }

  @Test(arguments: StoreKind.allCases)
  mutating func overAReadOnlyDatabaseASessionStillResumesAfterAReconnect(kind: StoreKind) throws {
    try setUp(kind)
    var driver = try fixture.makeDriver(
      SessionServerConfiguration(isReadOnly: true), readOnlyStore: true)
    let c1 = driver.join()
    _ = driver.send(c1, #"{"type":"tap","list":"Lhome","row":"Rtrails"}"#)
    let token = driver.tokens[c1]!
    driver.disconnect(c1)
    let c2 = driver.connect()
    driver.expect(
      c2, sends: #"{"type":"hello","session":"\#(token)"}"#,
      replies: [
        "c2 ← welcome resumed",
        "c2 ← screen none \"Regions\" Lregions@\(v["Lregions"]!) depth=1 back=\"Home\"",
      ])
  }

  @Test(arguments: StoreKind.allCases)
  mutating func aResumedStackIsCutToTheListsThatStillExist(kind: StoreKind) throws {
    try setUp(kind)
    var token = ""
    do {
      var driver = try fixture.makeDriver()
      let c1 = driver.join()
      _ = driver.send(c1, #"{"type":"tap","list":"Lhome","row":"Rtrails"}"#)
      _ = driver.send(c1, #"{"type":"tap","list":"Lregions","row":"Rnorth"}"#)
      token = driver.tokens[c1]!
    }
    // While nobody is connected, the data is replaced: North is gone, Regions stays.
    let store = try Store(path: fixture.path)
    try store.importJSON(
      #"""
      {"id": "Lhome", "title": "Home", "sections": [{"id": "Shome", "rows": [
        {"id": "Rtrails", "text": "Trails", "children": {"id": "Lregions", "title": "Regions",
          "sections": [{"id": "Sregions", "rows": [{"id": "Rsouth", "text": "South"}]}]}}]}]}
      """#)
    var driver = try fixture.makeDriver()
    let c1 = driver.connect()
    let regions = try fixture.version("Lregions")
    driver.expect(
      c1, sends: #"{"type":"hello","session":"\#(token)"}"#,
      replies: [
        "c1 ← welcome resumed",
        "c1 ← screen none \"Regions\" Lregions@\(regions) depth=1 back=\"Home\"",
        "c1 ← notice \"“North” no longer exists.\"",
      ])
  }

  @Test(arguments: StoreKind.allCases)
  mutating func aResumedStackStartsOverWhenTheRootWasReplaced(kind: StoreKind) throws {
    try setUp(kind)
    var token = ""
    do {
      var driver = try fixture.makeDriver()
      let c1 = driver.join()
      _ = driver.send(c1, #"{"type":"tap","list":"Lhome","row":"Rtrails"}"#)
      token = driver.tokens[c1]!
    }
    try Store(path: fixture.path).importJSON(
      #"{"id": "Lnew", "title": "New", "sections": [{"rows": [{"text": "Hello"}]}]}"#)
    var driver = try fixture.makeDriver()
    let c1 = driver.connect()
    let version = try fixture.version("Lnew")
    driver.expect(
      c1, sends: #"{"type":"hello","session":"\#(token)"}"#,
      replies: ["c1 ← welcome resumed", "c1 ← screen none \"New\" Lnew@\(version) depth=0"])
  }

  @Test(arguments: StoreKind.allCases)
  mutating func pushingActsOnlyFromTheTopScreen(kind: StoreKind) throws {
    try setUp(kind)
    var driver = try fixture.makeDriver()
    let c1 = driver.join()
    _ = driver.send(c1, #"{"type":"tap","list":"Lhome","row":"Rtasks"}"#)
    // A double tap: the second arrives after the push.
    driver.expect(
      c1, sends: #"{"type":"tap","list":"Lhome","row":"Rtasks","ref":9}"#,
      replies: ["c1 ← error 9 not_allowed"])
    #expect(driver.list(c1) == "Ltasks")
  }
}
