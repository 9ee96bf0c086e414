import StoreTestSupport
import TableModel
import Testing

@testable import TableServer
@testable import TableStore

/// `undo` and `redo` over the protocol, on both stores: every kind of change goes back
/// and comes again as a new change that every viewer gets as one diff; nothing to undo is
/// `not_found`; a row someone else changed since is a `conflict` with nothing applied; the
/// stack is in the store, so it outlives the connection, the server, and works from
/// another server on the same database.
@Suite struct UndoTests {
  var fixture: Fixture!

  mutating func setUp(_ kind: StoreKind) throws {
    fixture = try Fixture(kind)
  }

  /// A client (logged in as `login`, through ``CookieAuthenticator``) showing the list
  /// the `taps` lead to from Home.
  func open(
    _ taps: [String], as login: String? = nil, token: String? = nil, in driver: inout ServerDriver
  )
    -> ConnectionID
  {
    let connection = driver.connect(
      login.map { UpgradeRequest(cookie: "login=\($0)") } ?? UpgradeRequest())
    let session = token.map { "\"\($0)\"" } ?? "null"
    _ = driver.send(connection, #"{"type":"hello","session":\#(session)}"#)
    var list = "Lhome"
    for row in taps {
      _ = driver.send(connection, #"{"type":"tap","list":"\#(list)","row":"\#(row)"}"#)
      list = driver.list(connection)
    }
    return connection
  }

  /// What a connection's screen shows, without its version.
  func shown(_ connection: ConnectionID, in driver: ServerDriver) -> JSONValue? {
    driver.screen(connection)["sections"]
  }

  func answer(_ lines: [String], on connection: ConnectionID) -> String? {
    lines.last { $0.hasPrefix("\(connection) ← ack") || $0.hasPrefix("\(connection) ← error") }
      .map { String($0.split(separator: " ", maxSplits: 2)[2]) }
  }

  static let changes: [(taps: [String], command: String)] = [
    (
      ["Rtasks"],
      #"{"type":"insert","list":"Ltasks","section":"Stodo","after":"Reggs","row":{"text":"Butter"}}"#
    ),
    (["Rtasks"], #"{"type":"delete","list":"Ltasks","rows":["Reggs"]}"#),
    (["Rtasks"], #"{"type":"delete","list":"Ltasks","rows":["Rmilk","Rtea"]}"#),
    (
      ["Rtasks"], #"{"type":"move","list":"Ltasks","row":"Rtea","section":"Stodo","after":"Rmilk"}"#
    ),
    (
      ["Rtasks"],
      #"{"type":"update","list":"Ltasks","row":"Reggs","text":"Brown eggs","detail":"6"}"#
    ),
    (["Rsettings"], #"{"type":"toggle","list":"Lsettings","row":"Rauto","on":false}"#),
    (["Rsettings", "Rringtone"], #"{"type":"tap","list":"Lringtone","row":"Rbell"}"#),
    (["Rcolors"], #"{"type":"tap","list":"Lcolors","row":"Rred"}"#),
  ]

  @Test(arguments: StoreKind.allCases, changes.indices)
  mutating func undoAndRedoEveryKindOfChange(kind: StoreKind, index: Int) throws {
    try setUp(kind)
    let (taps, command) = Self.changes[index]
    var driver = try fixture.makeDriver()
    let editor = open(taps, in: &driver)
    let viewer = open(taps, in: &driver)
    let before = shown(editor, in: driver)
    _ = driver.send(editor, command)
    let after = shown(editor, in: driver)
    #expect(after != before)
    let v = driver.version(viewer)
    let undone = driver.send(editor, #"{"type":"undo","ref":7}"#)
    #expect(answer(undone, on: editor) == "ack 7 v=\(v + 1)")
    #expect(undone.filter { $0.hasPrefix("\(viewer) ← diff") }.count == 1)
    #expect(shown(editor, in: driver) == before)
    #expect(shown(viewer, in: driver) == before)
    let redone = driver.send(editor, #"{"type":"redo","ref":8}"#)
    #expect(answer(redone, on: editor) == "ack 8 v=\(v + 2)")
    #expect(shown(viewer, in: driver) == after)
    #expect(
      answer(driver.send(editor, #"{"type":"redo","ref":9}"#), on: editor) == "error 9 not_found")
    // What a fresh session reads from the store is what the viewers were sent.
    let fresh = open(taps, in: &driver)
    #expect(shown(fresh, in: driver) == after)
    let log = try Store(path: fixture.path).changeLog(limit: 2).map(\.command)
    #expect(log == ["redo", "undo"])
  }

  /// An undone delete puts the row back with its id, content and the screen it leads to.
  @Test(arguments: StoreKind.allCases)
  mutating func anUndoneDeleteBringsBackTheChildScreen(kind: StoreKind) throws {
    try setUp(kind)
    var driver = try fixture.makeDriver()
    let editor = open(["Rtasks"], in: &driver)
    _ = driver.send(editor, #"{"type":"delete","list":"Ltasks","rows":["Rmilk"]}"#)
    _ = driver.send(editor, #"{"type":"undo"}"#)
    #expect(driver.texts(editor) == [["Milk", "Eggs", "Bread"], ["Tea"]])
    _ = driver.send(editor, #"{"type":"tap","list":"Ltasks","row":"Rmilk"}"#)
    #expect(driver.list(editor) == "Lmilk")
    _ = driver.send(editor, #"{"type":"tap","list":"Lmilk","row":"Rbrand"}"#)
    #expect(driver.texts(editor) == [["Corner shop"]])
  }

  /// The row goes back after the same row; first in its section when that one is gone.
  @Test(arguments: StoreKind.allCases)
  mutating func anUndoneDeleteGoesAfterItsAnchorOrFirst(kind: StoreKind) throws {
    try setUp(kind)
    var driver = try fixture.makeDriver()
    let ann = open(["Rtasks"], in: &driver)
    let bob = open(["Rtasks"], in: &driver)
    _ = driver.send(ann, #"{"type":"delete","list":"Ltasks","rows":["Rbread"]}"#)
    _ = driver.send(
      bob,
      #"{"type":"insert","list":"Ltasks","section":"Stodo","after":"Reggs","row":{"text":"Jam"}}"#)
    _ = driver.send(ann, #"{"type":"undo"}"#)
    #expect(driver.texts(bob) == [["Milk", "Eggs", "Bread", "Jam"], ["Tea"]])
    _ = driver.send(ann, #"{"type":"delete","list":"Ltasks","rows":["Rbread"]}"#)
    _ = driver.send(bob, #"{"type":"delete","list":"Ltasks","rows":["Reggs"]}"#)
    _ = driver.send(ann, #"{"type":"undo"}"#)
    #expect(driver.texts(bob) == [["Bread", "Milk", "Jam"], ["Tea"]])
  }

  @Test(arguments: StoreKind.allCases)
  mutating func nothingToUndoIsNotFoundAndANewChangeClearsRedo(kind: StoreKind) throws {
    try setUp(kind)
    var driver = try fixture.makeDriver()
    let editor = open(["Rtasks"], in: &driver)
    #expect(
      answer(driver.send(editor, #"{"type":"undo","ref":1}"#), on: editor) == "error 1 not_found")
    _ = driver.send(editor, #"{"type":"update","list":"Ltasks","row":"Reggs","text":"A"}"#)
    _ = driver.send(editor, #"{"type":"update","list":"Ltasks","row":"Reggs","text":"B"}"#)
    _ = driver.send(editor, #"{"type":"undo"}"#)
    _ = driver.send(editor, #"{"type":"update","list":"Ltasks","row":"Rtea","text":"Coffee"}"#)
    #expect(
      answer(driver.send(editor, #"{"type":"redo","ref":2}"#), on: editor) == "error 2 not_found")
    _ = driver.send(editor, #"{"type":"undo"}"#)
    _ = driver.send(editor, #"{"type":"undo"}"#)
    #expect(driver.texts(editor) == [["Milk", "Eggs", "Bread"], ["Tea"]])
    #expect(
      answer(driver.send(editor, #"{"type":"undo","ref":3}"#), on: editor) == "error 3 not_found")
  }

  /// Carol changed the row after Alice: Alice's undo is refused, names the row and Carol,
  /// and changes nothing.
  @Test(arguments: StoreKind.allCases)
  mutating func anUndoOverSomeoneElsesChangeIsAConflict(kind: StoreKind) throws {
    try setUp(kind)
    var driver = try fixture.makeDriver(authenticator: CookieAuthenticator())
    let alice = open(["Rtasks"], as: "alice", in: &driver)
    let carol = open(["Rtasks"], as: "carol", in: &driver)
    _ = driver.send(alice, #"{"type":"update","list":"Ltasks","row":"Reggs","text":"Brown eggs"}"#)
    _ = driver.send(carol, #"{"type":"update","list":"Ltasks","row":"Reggs","text":"White eggs"}"#)
    let v = try fixture.version("Ltasks")
    let before = shown(carol, in: driver)
    var messages: [JSONValue] = []
    let replies = driver.server.handle(.undo, ref: 4, from: alice)
    for case .send(let frame, let to, _) in replies where to.contains(alice) {
      messages.append(try JSONValue(parsing: frame.text))
    }
    #expect(messages.count == 1)
    #expect(messages.first?["code"]?.stringValue == "conflict")
    let message = messages.first?["message"]?.stringValue ?? ""
    #expect(message.contains("White eggs") && message.contains("carol"))
    #expect(try fixture.version("Ltasks") == v)
    #expect(shown(carol, in: driver) == before)
    // Once carol undoes hers, alice's goes through.
    _ = driver.send(carol, #"{"type":"undo"}"#)
    #expect(
      answer(driver.send(alice, #"{"type":"undo","ref":5}"#), on: alice) == "ack 5 v=\(v + 2)")
    #expect(driver.texts(carol) == [["Milk", "Eggs", "Bread"], ["Tea"]])
  }

  /// A viewer may not undo; the step's list must be within the session's reach (Home's
  /// children are, so Alice goes to Settings first).
  @Test(arguments: StoreKind.allCases)
  mutating func aViewerCannotUndo(kind: StoreKind) throws {
    try setUp(kind)
    var driver = try fixture.makeDriver(authenticator: CookieAuthenticator())
    let alice = open(["Rtasks"], as: "alice", in: &driver)
    _ = driver.send(alice, #"{"type":"update","list":"Ltasks","row":"Reggs","text":"Brown eggs"}"#)
    _ = driver.send(alice, #"{"type":"back"}"#)
    _ = driver.send(alice, #"{"type":"tap","list":"Lhome","row":"Rsettings"}"#)
    #expect(
      answer(driver.send(alice, #"{"type":"undo","ref":1}"#), on: alice) == "error 1 not_allowed")
    let guest = driver.connect(UpgradeRequest(authorization: "Bearer guest"))
    _ = driver.send(guest, #"{"type":"hello","session":null}"#)
    #expect(
      answer(driver.send(guest, #"{"type":"undo","ref":2}"#), on: guest) == "error 2 not_found")
  }

  /// The stack is the session's, in the store: the same session id after a reconnect, a
  /// restart (a new server core on the same database) and on another server undoes what it
  /// did before.
  @Test(arguments: StoreKind.allCases)
  mutating func theStackOutlivesTheConnectionAndTheServer(kind: StoreKind) throws {
    try setUp(kind)
    var a = try fixture.makeDriver()
    var b = try fixture.makeDriver()
    _ = b.catchUp()
    let first = open(["Rtasks"], in: &a)
    let token = try #require(a.tokens[first])
    let watcher = open(["Rtasks"], in: &b)
    _ = a.send(first, #"{"type":"delete","list":"Ltasks","rows":["Reggs"]}"#)
    _ = a.send(first, #"{"type":"update","list":"Ltasks","row":"Rtea","text":"Coffee"}"#)
    _ = a.send(
      first, #"{"type":"move","list":"Ltasks","row":"Rbread","section":"Sdone","after":null}"#)
    a.disconnect(first)
    // Reconnected to the same server.
    let again = open(["Rtasks"], token: token, in: &a)
    #expect(
      answer(a.send(again, #"{"type":"undo","ref":1}"#), on: again)?.hasPrefix("ack 1") == true)
    a.disconnect(again)
    // A restart: a new core on the same database.
    var restarted = try fixture.makeDriver()
    let third = open(["Rtasks"], token: token, in: &restarted)
    #expect(
      answer(restarted.send(third, #"{"type":"undo","ref":2}"#), on: third)?.hasPrefix("ack 2")
        == true)
    restarted.disconnect(third)
    // Another server on the same database.
    let fourth = open(["Rtasks"], token: token, in: &b)
    #expect(
      answer(b.send(fourth, #"{"type":"undo","ref":3}"#), on: fourth)?.hasPrefix("ack 3") == true)
    #expect(b.texts(watcher) == [["Milk", "Eggs", "Bread"], ["Tea"]])
    #expect(answer(b.send(fourth, #"{"type":"undo","ref":4}"#), on: fourth) == "error 4 not_found")
  }

  static let actionsApp = #"""
    {"id": "Lhome", "title": "Inbox", "editable": true, "selection": "multiple",
     "actions": [
       {"id": "done", "title": "Done", "edge": "leading", "color": "green", "effect": "check"},
       {"id": "flag", "title": "Flag", "edge": "leading", "color": "orange", "effect": "flag"},
       {"id": "delete", "title": "Delete", "color": "red", "effect": "delete"}],
     "sections": [{"id": "Sinbox", "rows": [
       {"id": "Ra", "text": "A"}, {"id": "Rb", "text": "B"}, {"id": "Rc", "text": "C"}]}]}
    """#

  /// A row action (each built-in effect) goes back and comes again like the edit it is.
  @Test(arguments: StoreKind.allCases, ["done", "flag", "delete"])
  mutating func undoAndRedoARowAction(kind: StoreKind, action: String) throws {
    fixture = try Fixture(kind, app: Self.actionsApp)
    var driver = try fixture.makeDriver()
    let editor = open([], in: &driver)
    let viewer = open([], in: &driver)
    let before = shown(editor, in: driver)
    _ = driver.send(editor, #"{"type":"action","list":"Lhome","row":"Rb","action":"\#(action)"}"#)
    let after = shown(editor, in: driver)
    #expect(after != before)
    #expect(
      answer(driver.send(editor, #"{"type":"undo","ref":1}"#), on: editor)?.hasPrefix("ack 1")
        == true)
    #expect(shown(viewer, in: driver) == before)
    #expect(
      answer(driver.send(editor, #"{"type":"redo","ref":2}"#), on: editor)?.hasPrefix("ack 2")
        == true)
    #expect(shown(viewer, in: driver) == after)
  }

  /// Only the newest ``Store/undoDepth`` steps are on the stack, although the table holds
  /// a few more between trims (every ``Store/undoTrimInterval``th step): 60 changes give
  /// exactly 50 undos and 50 redos, on both stores, and at most 50 + the interval steps
  /// are stored.
  @Test(arguments: StoreKind.allCases)
  mutating func theStackKeepsTheNewestFifty(kind: StoreKind) throws {
    try setUp(kind)
    var configuration = SessionServerConfiguration()
    configuration.burstSize = 1_000
    var driver = try fixture.makeDriver(configuration)
    let editor = open(["Rtasks"], in: &driver)
    let store = try Store(path: fixture.path)
    let token = try #require(driver.tokens[editor])
    var mostStored = 0
    for index in 0..<(Store.undoDepth + 10) {
      _ = driver.send(
        editor, #"{"type":"update","list":"Ltasks","row":"Reggs","text":"E\#(index)"}"#)
      let stored = try store.read { () throws(StoreError) in
        try store.fetchInt("SELECT count(*) FROM undo_step WHERE session = ?", token)
      }
      mostStored = max(mostStored, stored ?? 0)
    }
    #expect(mostStored > Store.undoDepth)
    #expect(mostStored <= Store.undoDepth + Store.undoTrimInterval)
    for _ in 0..<Store.undoDepth { _ = driver.send(editor, #"{"type":"undo"}"#) }
    #expect(driver.texts(editor) == [["Milk", "E9", "Bread"], ["Tea"]])
    #expect(
      answer(driver.send(editor, #"{"type":"undo","ref":1}"#), on: editor) == "error 1 not_found")
    for _ in 0..<Store.undoDepth { _ = driver.send(editor, #"{"type":"redo"}"#) }
    #expect(driver.texts(editor) == [["Milk", "E59", "Bread"], ["Tea"]])
    #expect(
      answer(driver.send(editor, #"{"type":"redo","ref":2}"#), on: editor) == "error 2 not_found")
    // Two undone, then a new change: the redo side is gone, and the stack is what was left
    // of it (48 steps) and the new one; the steps that had fallen off do not come back.
    _ = driver.send(editor, #"{"type":"undo"}"#)
    _ = driver.send(editor, #"{"type":"undo"}"#)
    _ = driver.send(editor, #"{"type":"update","list":"Ltasks","row":"Rtea","text":"Coffee"}"#)
    #expect(
      answer(driver.send(editor, #"{"type":"redo","ref":3}"#), on: editor) == "error 3 not_found")
    for _ in 0..<(Store.undoDepth - 1) { _ = driver.send(editor, #"{"type":"undo"}"#) }
    #expect(driver.texts(editor) == [["Milk", "E9", "Bread"], ["Tea"]])
    #expect(
      answer(driver.send(editor, #"{"type":"undo","ref":4}"#), on: editor) == "error 4 not_found")
  }
}
