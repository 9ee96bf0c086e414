import StoreTestSupport
import TableModel
import TableStore
import Testing

@testable import TableServer

/// Two server cores on one store (as two `serve` processes): changes made through
/// one reach the other's viewers from the change log, and a client resumes with `have`
/// on either, getting exactly the diffs it missed.
@Suite struct ChangeLogTests {
  /// Set by ``setUp(_:)``, the first thing each test does: every test runs once on each store.
  var fixture: Fixture!

  mutating func setUp(_ kind: StoreKind) throws {
    fixture = try Fixture(kind)
  }

  func openTasks(in driver: inout ServerDriver) -> ConnectionID {
    let connection = driver.join()
    _ = driver.send(connection, #"{"type":"tap","list":"Lhome","row":"Rtasks"}"#)
    return connection
  }

  /// The message types of transcript lines (`c1 ← diff …` → `diff`).
  func types(_ lines: [String]) -> [String] {
    lines.map { String($0.split(separator: " ")[2]) }
  }

  func insert(
    _ text: String, after: String?, on connection: ConnectionID, in driver: inout ServerDriver
  )
    -> [String]
  {
    let after = after.map { "\"\($0)\"" } ?? "null"
    return driver.send(
      connection,
      #"{"type":"insert","list":"Ltasks","section":"Stodo","after":\#(after),"row":{"text":"\#(text)"}}"#
    )
  }

  @Test(arguments: StoreKind.allCases)
  mutating func aChangeThroughOneServerReachesTheOthersViewersOnceInOrder(kind: StoreKind) throws {
    try setUp(kind)
    var a = try fixture.makeDriver()
    var b = try fixture.makeDriver()
    _ = b.catchUp()  // where B starts reading, as its watcher does at start
    let onA = openTasks(in: &a)
    let onB = openTasks(in: &b)
    let v = a.version(onA)
    _ = insert("Butter", after: "Reggs", on: onA, in: &a)
    // B's delete goes out after A's insert, which B reads from the log as it commits.
    let deleted = b.send(onB, #"{"type":"delete","list":"Ltasks","rows":["Rtea"],"ref":1}"#)
    #expect(
      deleted.map { $0.split(separator: " ").prefix(5).joined(separator: " ") } == [
        "c1 ← diff Ltasks \(v)→\(v + 1)", "c1 ← diff Ltasks \(v + 1)→\(v + 2)",
        "c1 ← ack 1 v=\(v + 2)",
      ])
    // A's next insert follows B's delete, on A as well.
    #expect(types(insert("Jam", after: nil, on: onA, in: &a)) == ["diff", "diff"])
    #expect(types(b.catchUp()) == ["diff"])
    #expect(types(b.catchUp()) == [])
    #expect(types(a.catchUp()) == [])
    #expect(a.version(onA) == v + 3)
    #expect(b.version(onB) == v + 3)
    #expect(a.screen(onA) == b.screen(onB))
    let fresh = openTasks(in: &b)
    #expect(b.screen(fresh) == b.screen(onB))
    #expect(b.texts(onB) == [["Jam", "Milk", "Eggs", "Butter", "Bread"], []])
  }

  /// An announcement (`list:version`, as PostgreSQL's `NOTIFY` carries it) of a version
  /// this server already published needs no read of the log; anything else does.
  @Test(arguments: StoreKind.allCases)
  mutating func onlyAnnouncementsOfUnpublishedVersionsNeedTheLog(kind: StoreKind) throws {
    try setUp(kind)
    var a = try fixture.makeDriver()
    var b = try fixture.makeDriver()
    #expect(!a.server.hasPublished(["Ltasks:1"]))  // no log position yet
    _ = a.catchUp()
    _ = b.catchUp()
    let onA = openTasks(in: &a)
    _ = openTasks(in: &b)
    let v = a.version(onA)
    _ = insert("Butter", after: "Reggs", on: onA, in: &a)
    // A published its own commit as it made it; B has not read it yet.
    #expect(a.server.hasPublished(["Ltasks:\(v + 1)", "Ltasks:\(v)"]))
    #expect(!b.server.hasPublished(["Ltasks:\(v + 1)"]))
    #expect(!a.server.hasPublished(["Ltasks:\(v + 2)"]))
    // A list nobody views here; one in a stack but not cached; no version; garbage.
    #expect(a.server.hasPublished(["Lcolors:7"]))
    #expect(!a.server.hasPublished(["Ltasks:"]))
    #expect(!a.server.hasPublished([":"]))
    #expect(!a.server.hasPublished(["Ltasks:\(v + 1)", "Lcolors:"]))
    a.server.snapshots["Lhome"] = nil
    #expect(!a.server.hasPublished(["Lhome:1"]))
    #expect(types(b.catchUp()) == ["diff"])
    #expect(b.server.hasPublished(["Ltasks:\(v + 1)"]))
  }

  /// A catch-up reads the log in batches and stops at the first short one: more than a
  /// batch committed elsewhere all arrives, in order, in one catch-up.
  @Test(arguments: StoreKind.allCases)
  mutating func aCatchUpPastOneBatchPublishesEveryEntry(kind: StoreKind) throws {
    try setUp(kind)
    var b = try fixture.makeDriver()
    _ = b.catchUp()
    let onB = openTasks(in: &b)
    let v = b.version(onB)
    let elsewhere = try Store(path: fixture.path)
    for index in 0...Store.logBatch {
      _ = try elsewhere.updateRow("Reggs", in: "Ltasks", text: "Eggs \(index)", detail: nil)
    }
    let published = b.catchUp()
    #expect(published.count == Store.logBatch + 1)
    #expect(Set(types(published)) == ["diff"])
    #expect(b.version(onB) == v + Store.logBatch + 1)
    #expect(b.catchUp().isEmpty)
  }

  @Test(arguments: StoreKind.allCases)
  mutating func aResumeOnTheSameServerGetsExactlyTheMissedDiffs(kind: StoreKind) throws {
    try setUp(kind)
    var a = try fixture.makeDriver()
    let viewer = openTasks(in: &a)
    let editor = openTasks(in: &a)
    let token = try #require(a.tokens[viewer])
    let kept = a.screen(viewer)
    a.disconnect(viewer)
    _ = insert("Butter", after: "Reggs", on: editor, in: &a)
    _ = a.send(
      editor, #"{"type":"move","list":"Ltasks","row":"Rtea","section":"Stodo","after":null}"#)
    _ = a.send(editor, #"{"type":"update","list":"Ltasks","row":"Rmilk","text":"Oat milk"}"#)
    let (back, replies) = a.resume(token: token, showing: kept)
    #expect(types(replies) == ["welcome", "diff", "diff", "diff"])
    #expect(replies.first?.hasSuffix("welcome resumed caughtUp") == true)
    #expect(a.screen(back) == a.screen(editor))
  }

  @Test(arguments: StoreKind.allCases)
  mutating func aResumeOnTheOtherServerIsRebuiltFromTheLog(kind: StoreKind) throws {
    try setUp(kind)
    var a = try fixture.makeDriver()
    let viewer = openTasks(in: &a)
    let token = try #require(a.tokens[viewer])
    let kept = a.screen(viewer)
    a.disconnect(viewer)
    // Edits while nobody watches on A either: only the log knows them.
    let editor = openTasks(in: &a)
    _ = insert("Butter", after: "Reggs", on: editor, in: &a)
    _ = a.send(editor, #"{"type":"delete","list":"Ltasks","rows":["Rmilk","Rtea"]}"#)
    _ = a.send(
      editor, #"{"type":"move","list":"Ltasks","row":"Rbread","section":"Sdone","after":null}"#)
    _ = a.send(editor, #"{"type":"update","list":"Ltasks","row":"Reggs","text":"Brown eggs"}"#)
    var b = try fixture.makeDriver()
    let (back, replies) = b.resume(token: token, showing: kept)
    #expect(types(replies) == ["welcome", "diff", "diff", "diff", "diff"])
    #expect(replies.first?.hasSuffix("welcome resumed caughtUp") == true)
    let fresh = openTasks(in: &b)
    #expect(b.screen(back) == b.screen(fresh))
    #expect(b.texts(back) == [["Brown eggs", "Butter"], ["Bread"]])
  }

  @Test(arguments: StoreKind.allCases)
  mutating func aResumeFromAServerAheadCatchesUpWithTheLogFirst(kind: StoreKind) throws {
    try setUp(kind)
    var a = try fixture.makeDriver()
    var b = try fixture.makeDriver()
    _ = b.catchUp()
    let onB = openTasks(in: &b)
    let viewer = openTasks(in: &a)
    _ = insert("Butter", after: nil, on: viewer, in: &a)
    _ = insert("Jam", after: nil, on: viewer, in: &a)
    let token = try #require(a.tokens[viewer])
    // B has not polled yet: its viewer is two versions behind the client coming over.
    #expect(b.version(onB) == a.version(viewer) - 2)
    let (back, replies) = b.resume(token: token, showing: a.screen(viewer))
    #expect(types(replies) == ["diff", "diff", "welcome"])  // B's own viewer first
    #expect(replies.last?.hasSuffix("welcome resumed caughtUp") == true)
    #expect(b.screen(back) == b.screen(onB))
  }

  @Test(arguments: StoreKind.allCases)
  mutating func aResumePastTheLogsRetentionGetsAScreen(kind: StoreKind) throws {
    try setUp(kind)
    var a = try fixture.makeDriver()
    (a.server.dataSource as! StoreDataSource).store.logRetention = Store.LogRetention(count: 2)
    let viewer = openTasks(in: &a)
    let token = try #require(a.tokens[viewer])
    let kept = a.screen(viewer)
    a.disconnect(viewer)
    let editor = openTasks(in: &a)
    for text in ["One", "Two", "Three"] { _ = insert(text, after: nil, on: editor, in: &a) }
    var b = try fixture.makeDriver()
    let (_, replies) = b.resume(token: token, showing: kept)
    #expect(types(replies) == ["welcome", "screen"])
    #expect(replies.first?.hasSuffix("welcome resumed") == true)
  }

  @Test(arguments: StoreKind.allCases)
  mutating func anImportWhileServingSendsScreensAndANotice(kind: StoreKind) throws {
    try setUp(kind)
    var a = try fixture.makeDriver()
    _ = a.catchUp()
    let viewer = openTasks(in: &a)
    try Store(path: fixture.path).importJSON(
      Fixture.app.replacingOccurrences(of: "Eggs", with: "Duck eggs"))
    let replies = a.catchUp()
    #expect(types(replies) == ["screen", "notice"])
    #expect(a.texts(viewer) == [["Milk", "Duck eggs", "Bread"], ["Tea"]])
    // A have from before the import is answered with a screen.
    let token = try #require(a.tokens[viewer])
    var b = try fixture.makeDriver()
    var old = a.screen(viewer)
    if case .object(var object) = old {
      object["version"] = .int(a.version(viewer) - 1)
      old = .object(object)
    }
    #expect(types(b.resume(token: token, showing: old).1) == ["welcome", "screen"])
  }

  /// An app's own data source has no log: a resume is served from the diffs this server
  /// sent while someone viewed the list, and is a screen otherwise.
  @Test(arguments: StoreKind.allCases)
  mutating func anAppsDataSourceResumesFromTheDiffsSentRecently(kind: StoreKind) throws {
    try setUp(kind)
    let fruit = { (ids: [String]) in
      TableSnapshot(
        list: "home", version: 0, title: "Fruit",
        sections: [Section(id: "s", rows: ids.map { Row(id: $0, text: $0) })])
    }
    let lists = SnapshotDataSource(root: fruit(["apple", "banana"]))
    var driver = ServerDriver(
      SessionServer(dataSource: lists, sessionStorage: MemorySessionStorage()))
    let viewer = driver.join()
    let watcher = driver.join()
    let token = try #require(driver.tokens[viewer])
    let kept = driver.screen(viewer)
    driver.disconnect(viewer)
    for ids in [["banana"], ["banana", "cherry"]] {
      lists.apply(fruit(ids))
      _ = driver.record(driver.server.listChanged("home", edits: nil))
    }
    let (back, replies) = driver.resume(token: token, showing: kept)
    #expect(types(replies) == ["welcome", "diff", "diff"])
    #expect(driver.screen(back) == driver.screen(watcher))
    // Changes nobody here saw cannot be replayed: a screen.
    let kept2 = driver.screen(back)
    driver.disconnect(back)
    driver.disconnect(watcher)
    lists.apply(fruit(["cherry"]))
    _ = driver.record(driver.server.listChanged("home", edits: nil))
    #expect(types(driver.resume(token: token, showing: kept2).1) == ["welcome", "screen"])
  }
}
