import Foundation
import StoreTestSupport
import TableModel
import TableStore
import Testing

@testable import TableServer

/// An app's own login through the ``Authenticator`` hook: a session cookie names the
/// user, `Authorization: Bearer` a guest; `revokedNames` are withdrawn.
final class CookieAuthenticator: Authenticator {
  var revokedNames: Set<String> = []

  func authenticate(_ request: UpgradeRequest, access: String?) -> AccessDecision {
    switch request.cookie(named: "login") {
    case "alice": return .granted(AccessIdentity(name: "alice", role: .editor))
    case "carol": return .granted(AccessIdentity(name: "carol", role: .editor))
    default: break
    }
    if request.authorization == "Bearer guest" {
      return .granted(AccessIdentity(name: "guest", role: .viewer))
    }
    return .refused("no login cookie")
  }

  func revoked(among identities: Set<AccessIdentity>) -> Set<AccessIdentity> {
    identities.filter { revokedNames.contains($0.name) }
  }
}

/// The fixture's lists, with Tasks read-only for carol: authorisation per list.
final class TasksReadOnlyForCarol: TableDataSource {
  let base: StoreDataSource
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
  func commit(_ edit: TableEdit, in list: String, by identity: AccessIdentity?)
    throws(ProtocolError) -> TableChange
  {
    try base.commit(edit, in: list, by: identity)
  }
  func isReadOnly(_ list: String, for identity: AccessIdentity?) -> Bool {
    list == "Ltasks" && identity?.name == "carol"
  }
}

@Suite struct AccessTests {
  /// Set by ``setUp(_:)``, the first thing each test does: every test runs once on each store.
  var fixture: Fixture!
  let authenticator = CookieAuthenticator()
  var driver: ServerDriver!

  mutating func setUp(_ kind: StoreKind) throws {
    fixture = try Fixture(kind)
    let base = StoreDataSource(store: try Store(path: fixture.path))
    driver = ServerDriver(
      SessionServer(
        dataSource: TasksReadOnlyForCarol(base), sessionStorage: base,
        authenticator: authenticator))
  }

  private mutating func join(_ request: UpgradeRequest) -> (ConnectionID, [String]) {
    let connection = driver.connect(request)
    return (connection, driver.send(connection, #"{"type":"hello","session":null}"#))
  }

  @Test(arguments: StoreKind.allCases)
  mutating func noLoginIsUnauthorizedAndClosedWith4401(kind: StoreKind) throws {
    try setUp(kind)
    let (connection, replies) = join(UpgradeRequest(cookie: "theme=dark"))
    #expect(
      replies == [
        "c1 ← error null unauthorized", "c1 ✕ unauthorized 4401",
      ])
    // Nothing else is let through on that connection.
    #expect(driver.send(connection, #"{"type":"reload"}"#).first?.contains("not_allowed") == true)
  }

  @Test(arguments: StoreKind.allCases)
  mutating func theCookieNamesTheEditorAndTheChangeLogRecordsThem(kind: StoreKind) throws {
    try setUp(kind)
    let (alice, replies) = join(UpgradeRequest(cookie: "theme=dark; login=alice"))
    #expect(replies.first == #"c1 ← welcome new editor "alice""#)
    _ = driver.send(alice, #"{"type":"tap","list":"Lhome","row":"Rtasks"}"#)
    #expect(driver.screen(alice)["editable"]?.boolValue == true)
    let answer = driver.send(
      alice, #"{"type":"delete","list":"Ltasks","rows":["Reggs"],"ref":1}"#)
    #expect(answer.last?.hasPrefix("c1 ← ack 1") == true)
    let log = try Store(path: fixture.path).changeLog()
    // Newest first: the delete, then the fixture's import (by nobody named).
    #expect(
      log.map(\.author) == [
        ChangeAuthor(name: "alice", role: .editor), ChangeAuthor(name: nil, role: .editor),
      ])
    #expect(log.map(\.command) == ["delete", "import"])
  }

  @Test(arguments: StoreKind.allCases)
  mutating func aViewerNavigatesButEveryWriteIsNotAllowed(kind: StoreKind) throws {
    try setUp(kind)
    let (guest, replies) = join(UpgradeRequest(authorization: "Bearer guest"))
    #expect(replies.first == #"c1 ← welcome new viewer "guest""#)
    _ = driver.send(guest, #"{"type":"tap","list":"Lhome","row":"Rtasks"}"#)
    #expect(driver.screen(guest)["editable"]?.boolValue == false)
    for command in [
      #"{"type":"delete","list":"Ltasks","rows":["Reggs"],"ref":1}"#,
      #"{"type":"editing","on":true,"ref":1}"#,
      #"{"type":"insert","list":"Ltasks","section":"Stodo","after":null,"row":{"text":"x"},"ref":1}"#,
    ] {
      #expect(driver.send(guest, command) == ["c1 ← error 1 not_allowed"])
    }
    _ = driver.send(guest, #"{"type":"back"}"#)
    _ = driver.send(guest, #"{"type":"tap","list":"Lhome","row":"Rcolors"}"#)
    #expect(
      driver.send(guest, #"{"type":"tap","list":"Lcolors","row":"Rred","ref":2}"#)
        == ["c1 ← error 2 not_allowed"])
  }

  @Test(arguments: StoreKind.allCases)
  mutating func aDataSourceMakesOneListReadOnlyForOneEditor(kind: StoreKind) throws {
    try setUp(kind)
    let (carol, _) = join(UpgradeRequest(cookie: "login=carol"))
    _ = driver.send(carol, #"{"type":"tap","list":"Lhome","row":"Rtasks"}"#)
    #expect(driver.screen(carol)["editable"]?.boolValue == false)
    #expect(
      driver.send(carol, #"{"type":"delete","list":"Ltasks","rows":["Reggs"],"ref":1}"#)
        == ["c1 ← error 1 not_allowed"])
    _ = driver.send(carol, #"{"type":"back"}"#)
    _ = driver.send(carol, #"{"type":"tap","list":"Lhome","row":"Rcolors"}"#)
    #expect(
      driver.send(carol, #"{"type":"tap","list":"Lcolors","row":"Rred","ref":2}"#).last?
        .hasPrefix("c1 ← ack 2") == true)
  }

  @Test(arguments: StoreKind.allCases)
  mutating func aRevokedIdentityIsClosedAndTheOthersStay(kind: StoreKind) throws {
    try setUp(kind)
    let (alice, _) = join(UpgradeRequest(cookie: "login=alice"))
    let (guest, _) = join(UpgradeRequest(authorization: "Bearer guest"))
    #expect(driver.record(driver.server.recheckAccess()).isEmpty)
    authenticator.revokedNames = ["guest"]
    #expect(
      driver.record(driver.server.recheckAccess()) == [
        "\(guest) ← error null unauthorized", "\(guest) ✕ unauthorized 4401",
      ])
    #expect(driver.send(alice, #"{"type":"reload","ref":3}"#).first?.contains("screen") == true)
  }

  @Test(arguments: StoreKind.allCases)
  mutating func aCredentialDoesNotJoinSomeoneElsesLiveSession(kind: StoreKind) throws {
    try setUp(kind)
    let (alice, _) = join(UpgradeRequest(cookie: "login=alice"))
    let token = driver.tokens[alice]!
    let guest = driver.connect(UpgradeRequest(authorization: "Bearer guest"))
    _ = driver.send(guest, #"{"type":"hello","session":"\#(token)"}"#)
    #expect(driver.tokens[guest] != token)
  }
}

@Suite struct StoreAccessTests {
  @Test(arguments: StoreKind.allCases)
  func grantsAreDigestsComparedAndRevoked(kind: StoreKind) throws {
    let fixture = try Fixture(kind)
    let store = try Store(path: fixture.path)
    let credential = try store.grantAccess(name: "Ann", role: .viewer)
    #expect(credential.count == 43)  // 256 random bits in base64url
    #expect(try store.grantAccess(name: "Bo", role: .editor) != credential)
    #expect(try store.grant(forCredential: credential)?.name == "Ann")
    #expect(try store.grant(forCredential: credential + "x") == nil)
    #expect(try store.accessGrants().first { $0.name == "Ann" }?.lastUsed != nil)
    #expect(throws: StoreError.self) { try store.grantAccess(name: "Ann", role: .editor) }
    #expect(try store.revokeAccess(name: "Ann"))
    #expect(try store.grant(forCredential: credential) == nil)
    #expect(try !store.revokeAccess(name: "Ann"))
  }

  @Test func sha256IsTheKnownDigest() {
    // FIPS 180-2's "abc" example.
    #expect(
      AccessCredential.hex(AccessCredential.hash("abc"))
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(AccessCredential.digestsMatch([1, 2, 3], [1, 2, 3]))
    #expect(!AccessCredential.digestsMatch([1, 2, 3], [1, 2, 4]))
    #expect(!AccessCredential.digestsMatch([], []))
  }
}
