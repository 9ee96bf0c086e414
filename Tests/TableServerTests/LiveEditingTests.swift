import StoreTestSupport
import TableModel
import Testing

@testable import TableServer

/// Shared data: selection lists, switches, edits seen live by every viewer.
@Suite struct LiveEditingTests {
  /// Set by ``setUp(_:)``, the first thing each test does: every test runs once on each store.
  var fixture: Fixture!

  mutating func setUp(_ kind: StoreKind) throws {
    fixture = try Fixture(kind)
  }

  /// Joins a new session and drills down from the root along `rows` (list, row) pairs.
  func open(_ path: [(String, String)], in driver: inout ServerDriver) -> ConnectionID {
    let connection = driver.join()
    for (list, row) in path {
      _ = driver.send(connection, #"{"type":"tap","list":"\#(list)","row":"\#(row)"}"#)
    }
    return connection
  }

  @Test(arguments: StoreKind.allCases)
  mutating func pickingInASingleSelectionListMovesTheCheckmarkAndTheParentsDetail(kind: StoreKind)
    throws
  {
    try setUp(kind)
    var driver = try fixture.makeDriver()
    let settings = open([("Lhome", "Rsettings")], in: &driver)
    let tones = open([("Lhome", "Rsettings"), ("Lsettings", "Rringtone")], in: &driver)
    let v = try fixture.version("Lringtone")
    let s = try fixture.version("Lsettings")
    #expect(driver.screen(settings)["sections"]?[0]?["rows"]?[1]?["detail"] == .string("Marimba"))
    driver.expect(
      tones, sends: #"{"type":"tap","list":"Lringtone","row":"Rbell","ref":1}"#,
      replies: [
        "c2 ← diff Lringtone \(v)→\(v + 1) update[0,0]\"Marimba\" update[0,1]\"Bell\"✓",
        "c1 ← diff Lsettings \(s)→\(s + 1) update[0,1]\"Ringtone\"/\"Bell\"",
        "c2 ← ack 1 v=\(v + 1)",
      ])
    // Picking the checked option again changes nothing.
    driver.expect(
      tones, sends: #"{"type":"tap","list":"Lringtone","row":"Rbell","ref":2}"#,
      replies: ["c2 ← ack 2 v=\(v + 1)"])
  }

  @Test(arguments: StoreKind.allCases)
  mutating func tappingInAMultipleSelectionListTogglesTheCheckmark(kind: StoreKind) throws {
    try setUp(kind)
    var driver = try fixture.makeDriver()
    let c1 = open([("Lhome", "Rcolors")], in: &driver)
    let v = try fixture.version("Lcolors")
    driver.expect(
      c1, sends: #"{"type":"tap","list":"Lcolors","row":"Rred","ref":1}"#,
      replies: ["c1 ← diff Lcolors \(v)→\(v + 1) update[0,0]\"Red\"✓", "c1 ← ack 1 v=\(v + 1)"])
    driver.expect(
      c1, sends: #"{"type":"tap","list":"Lcolors","row":"Rgreen","ref":2}"#,
      replies: [
        "c1 ← diff Lcolors \(v + 1)→\(v + 2) update[0,1]\"Green\"", "c1 ← ack 2 v=\(v + 2)",
      ])
  }

  @Test(arguments: StoreKind.allCases)
  mutating func aSwitchRevealsAndHidesRowsAsADiff(kind: StoreKind) throws {
    try setUp(kind)
    var driver = try fixture.makeDriver()
    let c1 = open([("Lhome", "Rsettings")], in: &driver)
    let c2 = open([("Lhome", "Rsettings")], in: &driver)
    let v = try fixture.version("Lsettings")
    #expect(driver.texts(c1) == [["Wi-Fi", "Ringtone"], ["Set Automatically"]])
    driver.expect(
      c1, sends: #"{"type":"toggle","list":"Lsettings","row":"Rauto","on":false,"ref":1}"#,
      replies: [
        "c1 ← diff Lsettings \(v)→\(v + 1) insert[1,1]\"Time Zone\"/\"Paris\" insert[1,2]\"Set Date & Time\" update[1,0]\"Set Automatically\"(off)",
        "c2 ← diff Lsettings \(v)→\(v + 1) insert[1,1]\"Time Zone\"/\"Paris\" insert[1,2]\"Set Date & Time\" update[1,0]\"Set Automatically\"(off)",
        "c1 ← ack 1 v=\(v + 1)",
      ])
    #expect(
      driver.texts(c2) == [
        ["Wi-Fi", "Ringtone"], ["Set Automatically", "Time Zone", "Set Date & Time"],
      ])
    driver.expect(
      c2, sends: #"{"type":"toggle","list":"Lsettings","row":"Rauto","on":true,"ref":2}"#,
      replies: [
        "c1 ← diff Lsettings \(v + 1)→\(v + 2) delete[1,1] delete[1,2] update[1,0]\"Set Automatically\"(on)",
        "c2 ← diff Lsettings \(v + 1)→\(v + 2) delete[1,1] delete[1,2] update[1,0]\"Set Automatically\"(on)",
        "c2 ← ack 2 v=\(v + 2)",
      ])
    #expect(driver.texts(c1) == [["Wi-Fi", "Ringtone"], ["Set Automatically"]])
  }

  @Test(arguments: StoreKind.allCases)
  mutating func editsReachEveryViewerButNotOthers(kind: StoreKind) throws {
    try setUp(kind)
    var driver = try fixture.makeDriver()
    let c1 = open([("Lhome", "Rtasks")], in: &driver)
    let c2 = open([("Lhome", "Rtasks")], in: &driver)
    _ = driver.join()  // c3, on the root: sees nothing
    let v = try fixture.version("Ltasks")
    driver.expect(
      c1, sends: #"{"type":"update","list":"Ltasks","row":"Reggs","text":"Brown eggs","ref":1}"#,
      replies: [
        "c1 ← diff Ltasks \(v)→\(v + 1) update[0,1]\"Brown eggs\"",
        "c2 ← diff Ltasks \(v)→\(v + 1) update[0,1]\"Brown eggs\"",
        "c1 ← ack 1 v=\(v + 1)",
      ])
    driver.expect(
      c2,
      sends:
        #"{"type":"move","list":"Ltasks","row":"Rbread","section":"Sdone","after":"Rtea","ref":2}"#,
      replies: [
        "c1 ← diff Ltasks \(v + 1)→\(v + 2) move[0,2]→[1,1]",
        "c2 ← diff Ltasks \(v + 1)→\(v + 2) move[0,2]→[1,1]",
        "c2 ← ack 2 v=\(v + 2)",
      ])
    _ = driver.send(
      c1, #"{"type":"insert","list":"Ltasks","section":"Stodo","after":null,"row":{"text":"Jam"}}"#)
    _ = driver.send(c2, #"{"type":"delete","list":"Ltasks","rows":["Reggs","Rtea"]}"#)
    #expect(driver.texts(c1) == [["Jam", "Milk"], ["Bread"]])
    #expect(driver.texts(c2) == driver.texts(c1))
  }

  /// An `update`'s detail: a text sets it, leaving it out keeps it, `null` clears it (the
  /// wire's three cases, carried to the data source as `TableEdit.DetailChange?`).
  @Test(arguments: StoreKind.allCases)
  mutating func anUpdateSetsKeepsAndClearsTheDetail(kind: StoreKind) throws {
    try setUp(kind)
    var driver = try fixture.makeDriver()
    let c1 = open([("Lhome", "Rtasks")], in: &driver)
    func eggs() -> (text: JSONValue?, detail: JSONValue?) {
      let row = driver.screen(c1)["sections"]!.arrayValue![0]["rows"]!.arrayValue![1]
      return (row["text"], row["detail"])
    }
    _ = driver.send(c1, #"{"type":"update","list":"Ltasks","row":"Reggs","detail":"2 dozen"}"#)
    #expect(eggs().detail == .string("2 dozen"))
    _ = driver.send(c1, #"{"type":"update","list":"Ltasks","row":"Reggs","text":"Brown eggs"}"#)
    #expect(eggs().text == .string("Brown eggs"))
    #expect(eggs().detail == .string("2 dozen"))
    _ = driver.send(c1, #"{"type":"update","list":"Ltasks","row":"Reggs","detail":null}"#)
    #expect(eggs().text == .string("Brown eggs"))
    #expect(eggs().detail == .null)
  }

  /// Commands may name any list on the session's screen, beneath the top one too: ids are
  /// stable, so a command sent just before going deeper still means the same rows. A list
  /// off the session's screen is `not_allowed` (ReachTests).
  @Test(arguments: StoreKind.allCases)
  mutating func aCommandMayNameAListBelowTheTopScreen(kind: StoreKind) throws {
    try setUp(kind)
    var driver = try fixture.makeDriver()
    let viewer = open([("Lhome", "Rtasks")], in: &driver)
    let deeper = open([("Lhome", "Rtasks"), ("Ltasks", "Rmilk")], in: &driver)
    let v = try fixture.version("Ltasks")
    driver.expect(
      deeper,
      sends: #"{"type":"update","list":"Ltasks","row":"Rtea","text":"Green tea","ref":1}"#,
      replies: ["c1 ← diff Ltasks \(v)→\(v + 1) update[1,0]\"Green tea\"", "c2 ← ack 1 v=\(v + 1)"])
    let elsewhere = driver.join()
    driver.expect(
      elsewhere,
      sends: #"{"type":"update","list":"Ltasks","row":"Rtea","text":"Tea","ref":2}"#,
      replies: ["c3 ← error 2 not_allowed"])
    #expect(viewer.rawValue == 1)
  }

  @Test(arguments: StoreKind.allCases)
  mutating func deletingAListSomeoneStandsOnPopsThemWithANotice(kind: StoreKind) throws {
    try setUp(kind)
    var driver = try fixture.makeDriver()
    let editor = open([("Lhome", "Rtasks")], in: &driver)
    let reader = open([("Lhome", "Rtasks"), ("Ltasks", "Rmilk")], in: &driver)
    let v = try fixture.version("Ltasks")
    driver.expect(
      editor, sends: #"{"type":"delete","list":"Ltasks","rows":["Rmilk"],"ref":1}"#,
      replies: [
        "c1 ← diff Ltasks \(v)→\(v + 1) delete[0,0]",
        "c2 ← screen pop \"Tasks\" Ltasks@\(v + 1) depth=1 back=\"Home\"",
        "c2 ← notice \"“Milk” was deleted.\"",
        "c1 ← ack 1 v=\(v + 1)",
      ])
    // Milk is off the reader's screen now: as any list it was not shown.
    driver.expect(
      reader, sends: #"{"type":"tap","list":"Lmilk","row":"Rbrand","ref":2}"#,
      replies: ["c2 ← error 2 not_allowed"])
  }

  @Test(arguments: StoreKind.allCases)
  mutating func deletingAListBelowSomeonesTopScreenPopsThemBelowIt(kind: StoreKind) throws {
    try setUp(kind)
    var driver = try fixture.makeDriver()
    let editor = open([("Lhome", "Rtasks")], in: &driver)
    let reader = open([("Lhome", "Rtasks"), ("Ltasks", "Rmilk"), ("Lmilk", "Rbrand")], in: &driver)
    #expect(driver.list(reader) == "Lbrand")
    let v = try fixture.version("Ltasks")
    driver.expect(
      editor, sends: #"{"type":"delete","list":"Ltasks","rows":["Rmilk"],"ref":1}"#,
      replies: [
        "c1 ← diff Ltasks \(v)→\(v + 1) delete[0,0]",
        "c2 ← screen pop \"Tasks\" Ltasks@\(v + 1) depth=1 back=\"Home\"",
        "c2 ← notice \"“Milk” was deleted.\"",
        "c1 ← ack 1 v=\(v + 1)",
      ])
    // The stack was cut in storage too: a reconnect resumes on Tasks.
    let token = driver.tokens[reader]!
    driver.disconnect(reader)
    let again = driver.connect()
    _ = driver.send(again, #"{"type":"hello","session":"\#(token)"}"#)
    #expect(driver.list(again) == "Ltasks")
  }

  /// Two people editing one list at random end with the same screen, equal to a reload.
  @Test(arguments: StoreKind.allCases, [1, 2, 3])
  mutating func concurrentRandomEditsConverge(kind: StoreKind, seed: UInt64) throws {
    try setUp(kind)
    var driver = try fixture.makeDriver()
    let people = [
      open([("Lhome", "Rtasks")], in: &driver), open([("Lhome", "Rtasks")], in: &driver),
    ]
    var random = SplitMix64(seed: seed)
    let start = driver.version(people[0])
    var inserted = 0
    for step in 0..<300 {
      driver.now += .milliseconds(30)  // two people typing, well within the rate limit
      let who = people[Int(random.next() % 2)]
      let rows = driver.screen(who)["sections"]!.arrayValue!.flatMap { $0["rows"]!.arrayValue! }
        .map { $0["id"]!.stringValue! }
      let sections = ["Stodo", "Sdone"]
      let someRow = rows.isEmpty ? "Rnone" : rows[Int(random.next() % UInt64(rows.count))]
      let after =
        rows.isEmpty || random.next() % 4 == 0
        ? "null" : "\"\(rows[Int(random.next() % UInt64(rows.count))])\""
      let section = sections[Int(random.next() % 2)]
      let command: String
      switch random.next() % 4 {
      case 0:
        inserted += 1
        command =
          #"{"type":"insert","list":"Ltasks","section":"\#(section)","after":\#(after),"row":{"text":"Item \#(inserted)"}}"#
      case 1 where rows.count > 4:
        command = #"{"type":"delete","list":"Ltasks","rows":["\#(someRow)"]}"#
      case 2:
        command =
          #"{"type":"move","list":"Ltasks","row":"\#(someRow)","section":"\#(section)","after":\#(after)}"#
      default:
        command = #"{"type":"update","list":"Ltasks","row":"\#(someRow)","text":"Step \#(step)"}"#
      }
      let replies = driver.send(who, command)
      // A row can be gone, or a move can target the row itself; the rest must apply.
      for reply in replies where reply.contains("error") {
        #expect(
          reply.hasSuffix("not_found") || reply.hasSuffix("bad_message"), "\(command) → \(reply)")
      }
    }
    #expect(driver.version(people[0]) > start + 150, "most of the 300 edits applied")
    #expect(driver.screen(people[0]) == driver.screen(people[1]))
    let final = driver.screen(people[0])
    _ = driver.send(people[0], #"{"type":"reload"}"#)
    #expect(driver.screen(people[0]) == final)
  }
}
