import StoreTestSupport
import TableModel
import TableStore
import Testing

@testable import TableServer

/// Split view (`layout`): the level beneath the top rides along as a live sidebar, a tap
/// on it replaces the top, and leaving split keeps the stack.
@Suite struct SplitViewTests {
  /// Set by ``setUp(_:)``, the first thing each test does: every test runs once on each store.
  var fixture: Fixture!
  var v: [String: Int] = [:]

  mutating func setUp(_ kind: StoreKind) throws {
    fixture = try Fixture(kind)
    var versions: [String: Int] = [:]
    for list in ["Lhome", "Lsettings", "Ltasks", "Lmilk", "Lcolors"] {
      versions[list] = try fixture.version(list)
    }
    v = versions
  }

  @Test(arguments: StoreKind.allCases)
  mutating func aSplitSessionGetsTheLevelBeneathAsASidebarWithItsRowSelected(kind: StoreKind) throws
  {
    try setUp(kind)
    var driver = try fixture.makeDriver()
    let c1 = driver.join()
    // At the root there is nothing beside.
    driver.expect(
      c1, sends: #"{"type":"layout","split":true,"ref":1}"#,
      replies: ["c1 ← screen none \"Home\" Lhome@\(v["Lhome"]!) depth=0", "c1 ← ack 1 v=null"])
    driver.expect(
      c1, sends: #"{"type":"tap","list":"Lhome","row":"Rtasks","ref":2}"#,
      replies: [
        "c1 ← screen push \"Tasks\" Ltasks@\(v["Ltasks"]!) depth=1 back=\"Home\" sidebar=Lhome:Rtasks",
        "c1 ← ack 2 v=null",
      ])
    driver.expect(
      c1, sends: #"{"type":"tap","list":"Ltasks","row":"Rmilk","ref":3}"#,
      replies: [
        "c1 ← screen push \"Milk\" Lmilk@\(v["Lmilk"]!) depth=2 back=\"Tasks\" sidebar=Ltasks:Rmilk",
        "c1 ← ack 3 v=null",
      ])
    #expect(driver.sidebars[c1]?["back"]?.stringValue == "Home")
    // Back: the sidebar moves up with the stack.
    driver.expect(
      c1, sends: #"{"type":"back","ref":4}"#,
      replies: [
        "c1 ← screen pop \"Tasks\" Ltasks@\(v["Ltasks"]!) depth=1 back=\"Home\" sidebar=Lhome:Rtasks",
        "c1 ← ack 4 v=null",
      ])
  }

  @Test(arguments: StoreKind.allCases)
  mutating func theSidebarIsLiveAndAFreshScreenHasIt(kind: StoreKind) throws {
    try setUp(kind)
    var driver = try fixture.makeDriver()
    let split = driver.join()
    _ = driver.send(split, #"{"type":"layout","split":true}"#)
    _ = driver.send(split, #"{"type":"tap","list":"Lhome","row":"Rtasks"}"#)
    _ = driver.send(split, #"{"type":"tap","list":"Ltasks","row":"Rmilk"}"#)
    let phone = driver.join()
    _ = driver.send(phone, #"{"type":"tap","list":"Lhome","row":"Rtasks"}"#)
    // Someone renames a task: the split session's sidebar gets the diff.
    let lines = driver.send(
      phone, #"{"type":"update","list":"Ltasks","row":"Reggs","text":"Free-range eggs","ref":5}"#)
    #expect(lines.contains { $0.hasPrefix("c1 ← diff Ltasks \(v["Ltasks"]!)→\(v["Ltasks"]! + 1)") })
    #expect(lines.contains { $0.hasPrefix("c2 ← diff Ltasks") })
    let texts = driver.sidebars[split]!["sections"]!.arrayValue!.map {
      $0["rows"]!.arrayValue!.map { $0["text"]!.stringValue! }
    }
    #expect(texts == [["Milk", "Free-range eggs", "Bread"], ["Tea"]])
    #expect(driver.list(split) == "Lmilk")
    // A fresh screen (after backpressure) carries the sidebar at its new version.
    let fresh = driver.server.freshScreen(for: split)
    let message = try JSONValue(parsing: fresh[0].text)
    #expect(message["sidebar"]?["screen"]?["version"]?.intValue == v["Ltasks"]! + 1)
    #expect(message["sidebar"]?["selected"]?.stringValue == "Rmilk")
  }

  @Test(arguments: StoreKind.allCases)
  mutating func aTapOnTheSidebarReplacesTheTopWithoutASlide(kind: StoreKind) throws {
    try setUp(kind)
    var driver = try fixture.makeDriver()
    let c1 = driver.join()
    _ = driver.send(c1, #"{"type":"layout","split":true}"#)
    _ = driver.send(c1, #"{"type":"tap","list":"Lhome","row":"Rsettings"}"#)
    driver.expect(
      c1, sends: #"{"type":"tap","list":"Lhome","row":"Rcolors","ref":1}"#,
      replies: [
        "c1 ← screen none \"Colors\" Lcolors@\(v["Lcolors"]!) depth=1 back=\"Home\" sidebar=Lhome:Rcolors",
        "c1 ← ack 1 v=null",
      ])
    // The stack did not grow: back goes to the root.
    driver.expect(
      c1, sends: #"{"type":"back","ref":2}"#,
      replies: ["c1 ← screen pop \"Home\" Lhome@\(v["Lhome"]!) depth=0", "c1 ← ack 2 v=null"])
    // Without split, a tap on a list beneath the top is refused as before.
    let phone = driver.join()
    _ = driver.send(phone, #"{"type":"tap","list":"Lhome","row":"Rsettings"}"#)
    let refused = driver.send(phone, #"{"type":"tap","list":"Lhome","row":"Rcolors","ref":3}"#)
    #expect(refused.count == 1 && refused[0].contains("error 3 not_allowed"))
  }

  @Test(arguments: StoreKind.allCases)
  mutating func leavingSplitKeepsTheStackAndStopsTheSidebarsDiffs(kind: StoreKind) throws {
    try setUp(kind)
    var driver = try fixture.makeDriver()
    let c1 = driver.join()
    _ = driver.send(c1, #"{"type":"layout","split":true}"#)
    _ = driver.send(c1, #"{"type":"tap","list":"Lhome","row":"Rtasks"}"#)
    driver.expect(
      c1, sends: #"{"type":"layout","split":false,"ref":1}"#,
      replies: [
        "c1 ← screen none \"Tasks\" Ltasks@\(v["Ltasks"]!) depth=1 back=\"Home\"",
        "c1 ← ack 1 v=null",
      ])
    #expect(driver.server.sidebarAudiences.isEmpty)
    #expect(driver.server.snapshots["Lhome"] == nil)
    let other = driver.join()
    let lines = driver.send(
      other, #"{"type":"update","list":"Lhome","row":"Rabout","text":"About this","ref":2}"#)
    #expect(!lines.contains { $0.hasPrefix("c1 ←") })
    // A closed connection leaves no sidebar audience behind.
    _ = driver.send(c1, #"{"type":"layout","split":true}"#)
    #expect(driver.server.sidebarAudiences["Lhome"] != nil)
    driver.disconnect(c1)
    #expect(driver.server.sidebarAudiences.isEmpty)
  }

  @Test(arguments: StoreKind.allCases)
  mutating func aBadLayoutIsABadMessage(kind: StoreKind) throws {
    try setUp(kind)
    var driver = try fixture.makeDriver()
    let c1 = driver.join()
    let lines = driver.send(c1, #"{"type":"layout","split":"wide","ref":1}"#)
    #expect(lines.count == 1 && lines[0].contains("bad_message"))
  }
}
