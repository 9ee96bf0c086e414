import Foundation
import StoreTestSupport
import TableModel
import TableStore
import Testing

@testable import TableServer

/// A list's history (`history`): entries with their authors and kinds, newest first, pages
/// by `before`, the count's limit, reach, and new entries sent live to whoever watches.
@Suite struct HistoryTests {
  var fixture: Fixture!
  var driver: ServerDriver!

  mutating func setUp(_ kind: StoreKind) throws {
    fixture = try Fixture(kind)
    let base = StoreDataSource(store: try Store(path: fixture.path))
    driver = ServerDriver(
      SessionServer(
        dataSource: base, sessionStorage: base, authenticator: CookieAuthenticator()))
  }

  /// A session of `login` (alice, carol: editors; guest: a viewer) on `list`.
  mutating func join(_ login: String, on rows: [String] = ["Rtasks"]) -> ConnectionID {
    let request =
      login == "guest"
      ? UpgradeRequest(authorization: "Bearer guest") : UpgradeRequest(cookie: "login=\(login)")
    let connection = driver.connect(request)
    _ = driver.send(connection, #"{"type":"hello","session":null}"#)
    var list = "Lhome"
    for row in rows {
      _ = driver.send(connection, #"{"type":"tap","list":"\#(list)","row":"\#(row)"}"#)
      list = driver.list(connection)
    }
    return connection
  }

  /// The `history` messages among `lines` (each `cN ← {…}`), parsed.
  static func histories(_ lines: [String]) -> [HistoryMessage] {
    lines.compactMap { line in
      guard let brace = line.firstIndex(of: "{"),
        case .success(.history(let history)) = ServerMessage.decode(String(line[brace...]))
      else { return nil }
      return history
    }
  }

  mutating func history(
    _ connection: ConnectionID, _ list: String = "Ltasks", before: Int? = nil, count: Int? = nil
  ) -> HistoryMessage? {
    var text =
      #"{"type":"history","list":"\#(list)","before":\#(before.map(String.init) ?? "null")"#
    if let count { text += #","count":\#(count)"# }
    return Self.histories(driver.send(connection, text + "}")).first
  }

  @Test(arguments: StoreKind.allCases)
  mutating func everyKindOfChangeIsAnEntryWithItsAuthor(kind: StoreKind) throws {
    try setUp(kind)
    let alice = join("alice")
    let carol = join("carol", on: ["Rsettings"])
    for command in [
      #"{"type":"insert","list":"Ltasks","section":"Stodo","after":null,"row":{"text":"Oat milk"}}"#,
      #"{"type":"update","list":"Ltasks","row":"Rbread","text":"Rye bread"}"#,
      #"{"type":"move","list":"Ltasks","row":"Rtea","section":"Stodo","after":null}"#,
      #"{"type":"delete","list":"Ltasks","rows":["Reggs"]}"#,
    ] {
      _ = driver.send(alice, command)
    }
    _ = driver.send(carol, #"{"type":"toggle","list":"Lsettings","row":"Rwifi","on":false}"#)
    let page = try #require(history(alice))
    #expect(page.list == "Ltasks" && !page.more)
    #expect(page.entries.map(\.kind) == [.delete, .move, .update, .insert, .import])
    #expect(page.entries.map(\.author) == ["alice", "alice", "alice", "alice", nil])
    #expect(
      page.entries.map(\.summary) == [
        #"alice deleted "Eggs""#, #"alice moved "Tea""#, #"alice renamed "Bread" to "Rye bread""#,
        #"alice added "Oat milk""#, "The list was imported",
      ])
    #expect(page.entries[0].rows == ["Reggs"] && page.entries[2].rows == ["Rbread"])
    #expect(page.entries[0].version == (try fixture.version("Ltasks")))
    #expect(page.entries.map(\.id) == page.entries.map(\.id).sorted(by: >))
    let settings = try #require(history(carol, "Lsettings"))
    #expect(settings.entries.first?.kind == .toggle)
    #expect(settings.entries.first?.summary == #"carol turned off "Wi-Fi""#)
    #expect(settings.entries.first?.rows == ["Rwifi"])
    _ = driver.send(carol, #"{"type":"tap","list":"Lsettings","row":"Rringtone"}"#)
    _ = driver.send(carol, #"{"type":"tap","list":"Lringtone","row":"Rbell"}"#)
    let ringtone = try #require(history(carol, "Lringtone"))
    #expect(ringtone.entries.first?.kind == .select)
    #expect(ringtone.entries.first?.summary == #"carol checked "Bell""#)
    // On the wire: ISO 8601 UTC, null author, every field the extension names.
    let line = driver.send(alice, #"{"type":"history","list":"Ltasks","before":null,"count":1}"#)
    let json = try JSONValue(parsing: String(line[0].drop(while: { $0 != "{" })))
    let entry = try #require(json["entries"]?.arrayValue?.first)
    #expect(json["type"]?.stringValue == "history" && json["more"]?.boolValue == true)
    #expect(entry["at"]?.stringValue?.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil)
    #expect(entry["kind"]?.stringValue == "delete" && entry["author"]?.stringValue == "alice")
    #expect(entry["rows"]?.arrayValue == [.string("Reggs")])
  }

  @Test(arguments: StoreKind.allCases)
  mutating func pagesGoBackByBeforeUntilNoMore(kind: StoreKind) throws {
    try setUp(kind)
    let alice = join("alice")
    for step in 1...7 {
      _ = driver.send(
        alice, #"{"type":"update","list":"Ltasks","row":"Rtea","text":"Tea \#(step)"}"#)
    }
    let first = try #require(history(alice, count: 3))
    #expect(first.entries.count == 3 && first.more)
    #expect(first.entries.map(\.summary).first == #"alice renamed "Tea 6" to "Tea 7""#)
    let second = try #require(history(alice, before: first.entries.last!.id, count: 3))
    #expect(second.entries.count == 3 && second.more)
    #expect(second.entries.first!.id < first.entries.last!.id)
    let last = try #require(history(alice, before: second.entries.last!.id, count: 3))
    #expect(last.entries.map(\.kind) == [.update, .import] && !last.more)
    // Without a count, the default (50): all 8.
    #expect(history(alice)?.entries.count == 8)
  }

  @Test(arguments: StoreKind.allCases)
  mutating func aCountOver200IsABadMessage(kind: StoreKind) throws {
    try setUp(kind)
    let alice = join("alice")
    let replies = driver.send(
      alice, #"{"type":"history","list":"Ltasks","before":null,"count":201,"ref":4}"#)
    #expect(replies == ["c1 ← error 4 bad_message"])
    let (_, result) = ClientMessage.decode(#"{"type":"history","list":"L","count":201}"#)
    #expect(throws: ProtocolError.self) { try result.get() }
    if case .failure(let error) = result { #expect(error.message.contains("at most 200")) }
    #expect(history(alice, count: 200)?.entries.count == 1)
  }

  @Test(arguments: StoreKind.allCases)
  mutating func aViewerReadsItAndAListOutOfReachIsNotAllowed(kind: StoreKind) throws {
    try setUp(kind)
    let alice = join("alice")
    _ = driver.send(alice, #"{"type":"delete","list":"Ltasks","rows":["Reggs"]}"#)
    let guest = join("guest")
    #expect(history(guest)?.entries.first?.summary == #"alice deleted "Eggs""#)
    // Lsettings is not on the guest's screen: refused, as every command outside its reach.
    #expect(
      driver.send(guest, #"{"type":"history","list":"Lsettings","before":null,"ref":2}"#)
        == ["c2 ← error 2 not_allowed"])
    #expect(
      driver.send(guest, #"{"type":"history","list":"Lnowhere","before":null,"ref":3}"#)
        == ["c2 ← error 3 not_allowed"])
  }

  @Test(arguments: StoreKind.allCases)
  mutating func watchersGetNewEntriesLiveUntilTheyLeave(kind: StoreKind) throws {
    try setUp(kind)
    let alice = join("alice")
    let guest = join("guest")
    _ = history(guest)
    let replies = driver.send(alice, #"{"type":"delete","list":"Ltasks","rows":["Reggs"]}"#)
    let live = Self.histories(replies.filter { $0.hasPrefix("c2 ") })
    #expect(live.count == 1)
    #expect(
      live.first?.live == true && live.first?.entries.map(\.summary) == [#"alice deleted "Eggs""#])
    // Alice did not ask: she gets the diff only.
    #expect(Self.histories(replies.filter { $0.hasPrefix("c1 ") }).isEmpty)
    // Another server's commit, read from the change log, comes too, once.
    let other = StoreDataSource(store: try Store(path: fixture.path))
    _ = try other.commit(
      .update(row: "Rtea", text: "Green tea", detail: nil, flagged: nil, values: nil),
      in: "Ltasks", by: AccessIdentity(name: "carol", role: .editor))
    let caught = Self.histories(driver.catchUp())
    #expect(caught.map { $0.entries.map(\.summary) } == [[#"carol renamed "Tea" to "Green tea""#]])
    #expect(Self.histories(driver.catchUp()).isEmpty)
    // Once the guest leaves the list, nothing more.
    _ = driver.send(guest, #"{"type":"back"}"#)
    #expect(
      Self.histories(driver.send(alice, #"{"type":"delete","list":"Ltasks","rows":["Rbread"]}"#))
        .isEmpty)
  }
}
