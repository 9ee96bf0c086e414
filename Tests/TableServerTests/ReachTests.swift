import Foundation
import StoreTestSupport
import TableModel
import TableStore
import Testing

@testable import TableServer

/// The fixture's lists, of which `closed` cannot be read by carol (``TableDataSource/canRead(_:for:)``).
final class ClosedToCarol: TableDataSource {
  let base: StoreDataSource
  var closed: Set<String> = []
  init(_ base: StoreDataSource) { self.base = base }
  func rootList() throws(ProtocolError) -> String { try base.rootList() }
  func listExists(_ list: String) throws(ProtocolError) -> Bool { try base.listExists(list) }
  func snapshot(of list: String) throws(ProtocolError) -> TableSnapshot {
    try base.snapshot(of: list)
  }
  func destination(ofRow row: String, in list: String) throws(ProtocolError) -> String? {
    try base.destination(ofRow: row, in: list)
  }
  func commit(_ edit: TableEdit, in list: String) throws(ProtocolError) -> TableChange {
    try base.commit(edit, in: list)
  }
  func canRead(_ list: String, for identity: AccessIdentity?) -> Bool {
    !(closed.contains(list) && identity?.name == "carol")
  }
}

/// Reach: a session reads and writes only the lists on its screen, and only those the
/// data source lets it read; a refusal says the same whether the list exists or not.
@Suite struct ReachTests {
  var fixture: Fixture!
  var dataSource: ClosedToCarol!
  var driver: ServerDriver!

  mutating func setUp(_ kind: StoreKind) throws {
    fixture = try Fixture(kind)
    let base = StoreDataSource(store: try Store(path: fixture.path))
    dataSource = ClosedToCarol(base)
    driver = ServerDriver(
      SessionServer(
        dataSource: dataSource, sessionStorage: base, authenticator: CookieAuthenticator()))
  }

  private mutating func join(_ login: String, token: String? = nil) -> (ConnectionID, [String]) {
    let connection = driver.connect(UpgradeRequest(cookie: "login=\(login)"))
    let session = token.map { "\"\($0)\"" } ?? "null"
    return (connection, driver.send(connection, #"{"type":"hello","session":\#(session)}"#))
  }

  /// The `message` of the error `text` is answered with, sent by `connection`.
  private mutating func errorMessage(_ text: String, from connection: ConnectionID) -> String? {
    for case .send(let frame, _, _) in driver.server.receive(text, from: connection, at: driver.now)
    {
      if let message = try? JSONValue(parsing: frame.text), message["type"]?.stringValue == "error"
      {
        return message["message"]?.stringValue
      }
    }
    return nil
  }

  static let commandsOnTasks = [
    #"{"type":"fetch","list":"Ltasks","section":"Stodo","from":0,"count":10,"ref":1}"#,
    #"{"type":"search","list":"Ltasks","query":"milk","ref":1}"#,
    #"{"type":"tap","list":"Ltasks","row":"Rmilk","ref":1}"#,
    #"{"type":"accessory","list":"Ltasks","row":"Rmilk","ref":1}"#,
    #"{"type":"delete","list":"Ltasks","rows":["Reggs"],"ref":1}"#,
    #"{"type":"insert","list":"Ltasks","section":"Stodo","after":null,"row":{"text":"x"},"ref":1}"#,
    #"{"type":"move","list":"Ltasks","row":"Reggs","section":"Sdone","after":null,"ref":1}"#,
    #"{"type":"update","list":"Ltasks","row":"Reggs","text":"x","ref":1}"#,
    #"{"type":"toggle","list":"Ltasks","row":"Reggs","on":true,"ref":1}"#,
    #"{"type":"action","list":"Ltasks","row":"Reggs","action":"flag","ref":1}"#,
  ]

  @Test(arguments: StoreKind.allCases)
  mutating func aListNotOnScreenIsNotAllowedAndNothingIsApplied(kind: StoreKind) throws {
    try setUp(kind)
    let (alice, _) = join("alice")
    // Another session views Tasks: it must get nothing from what alice is refused.
    let (viewer, _) = join("alice")
    _ = driver.send(viewer, #"{"type":"tap","list":"Lhome","row":"Rtasks"}"#)
    let before = try Store(path: fixture.path).snapshot(of: "Ltasks")
    for command in Self.commandsOnTasks {
      #expect(driver.send(alice, command) == ["c1 ← error 1 not_allowed"], "\(command)")
      // A list that does not exist is answered alike: existence is not disclosed.
      let missing = command.replacingOccurrences(of: "Ltasks", with: "Lnope")
      #expect(driver.send(alice, missing) == ["c1 ← error 1 not_allowed"], "\(missing)")
      #expect(
        errorMessage(missing, from: alice)?.replacingOccurrences(of: "Lnope", with: "Ltasks")
          == errorMessage(command, from: alice))
    }
    #expect(try Store(path: fixture.path).snapshot(of: "Ltasks") == before)
    #expect(driver.texts(viewer) == [["Milk", "Eggs", "Bread"], ["Tea"]])
  }

  @Test(arguments: StoreKind.allCases)
  mutating func theWholeStackIsInReachAndNothingAfterBack(kind: StoreKind) throws {
    try setUp(kind)
    let (alice, _) = join("alice")
    _ = driver.send(alice, #"{"type":"tap","list":"Lhome","row":"Rtasks"}"#)
    _ = driver.send(alice, #"{"type":"tap","list":"Ltasks","row":"Rmilk"}"#)
    // Tasks is beneath the top (a split session's sidebar): still on screen.
    #expect(
      driver.send(
        alice, #"{"type":"update","list":"Ltasks","row":"Reggs","text":"Duck eggs","ref":1}"#
      )
      .last?.hasPrefix("c1 ← ack 1") == true)
    #expect(
      driver.send(
        alice, #"{"type":"fetch","list":"Lhome","section":"Shome","from":0,"count":2,"ref":2}"#
      )
      .first?.hasPrefix("c1 ← rows") == true)
    _ = driver.send(alice, #"{"type":"back"}"#)
    _ = driver.send(alice, #"{"type":"back"}"#)
    #expect(
      driver.send(alice, #"{"type":"update","list":"Ltasks","row":"Reggs","text":"x","ref":3}"#)
        == ["c1 ← error 3 not_allowed"])
  }

  @Test(arguments: StoreKind.allCases)
  mutating func aListTheDataSourceClosesIsNeverShownNorReached(kind: StoreKind) throws {
    try setUp(kind)
    dataSource.closed = ["Lsettings"]
    let (carol, _) = join("carol")
    #expect(
      driver.send(carol, #"{"type":"tap","list":"Lhome","row":"Rsettings","ref":1}"#)
        == ["c1 ← error 1 not_allowed"])
    #expect(driver.list(carol) == "Lhome")
    // Over HTTP (no session) too, before the list is read.
    let carolIdentity = AccessIdentity(name: "carol", role: .editor)
    for list in ["Lsettings", "Lnope"] {
      dataSource.closed = ["Lsettings", "Lnope"]
      let (answer, effects) = driver.server.handleWithoutSession(
        .toggle(list: list, row: "Rwifi", isOn: false), ref: 0, as: carolIdentity)
      #expect(answer.jsonValue["code"]?.stringValue == "not_allowed", "\(list)")
      #expect(effects.isEmpty)
    }
    let (alice, _) = join("alice")
    #expect(
      driver.send(alice, #"{"type":"tap","list":"Lhome","row":"Rsettings"}"#).first?
        .contains("screen push") == true)
  }

  @Test(arguments: StoreKind.allCases)
  mutating func aResumedStackStopsAboveAListNoLongerOpenAndItsHaveIsNotAnswered(kind: StoreKind)
    throws
  {
    try setUp(kind)
    let (carol, _) = join("carol")
    _ = driver.send(carol, #"{"type":"tap","list":"Lhome","row":"Rsettings"}"#)
    _ = driver.send(carol, #"{"type":"tap","list":"Lsettings","row":"Rringtone"}"#)
    let token = try #require(driver.tokens[carol])
    let shown = driver.screen(carol)
    driver.disconnect(carol)
    dataSource.closed = ["Lsettings"]
    let again = driver.connect(UpgradeRequest(cookie: "login=carol"))
    let have = #"{"list":"Lringtone","version":\#(shown["version"]!.intValue!)}"#
    let replies = driver.send(
      again, #"{"type":"hello","session":"\#(token)","have":\#(have)}"#)
    #expect(replies.count == 3)
    #expect(replies.first?.hasPrefix("c2 ← welcome resumed") == true)
    #expect(replies.dropFirst().first?.hasPrefix(#"c2 ← screen none "Home" Lhome"#) == true)
    #expect(replies.last == #"c2 ← notice "“Settings” is not open to you.""#)
    #expect(
      driver.send(again, #"{"type":"tap","list":"Lringtone","row":"Rbell","ref":1}"#)
        == ["c2 ← error 1 not_allowed"])
  }

  @Test(arguments: StoreKind.allCases)
  mutating func aRootTheIdentityCannotReadRefusesHello(kind: StoreKind) throws {
    try setUp(kind)
    dataSource.closed = ["Lhome"]
    let (_, replies) = join("carol")
    #expect(replies == ["c1 ← error null not_allowed"])
  }
}
