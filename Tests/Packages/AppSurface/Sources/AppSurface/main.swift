import Foundation
import OtherLibrary
import Tableweb

// Foundation's and the other library's names, unqualified, beside Tableweb's.
let foundationPath: IndexPath = [0, 1]
let ours = TableIndexPath(row: foundationPath[1], section: foundationPath[0])
let names: (Database, Statement, DatabaseValue, Session, Configuration, JSONValue) = (
  Database(), Statement(), .null, Session(), Configuration(), .null
)
_ = names

/// A list kept in memory, adopting every data source protocol with every requirement
/// written out (none left to the defaults).
final class Shelf: WindowedDataSource, SessionStorage, ChangeLogReading, GroupCommitting,
  @unchecked Sendable
{
  var items = ["Apples", "Bananas", "Cherries"]
  // What it offers, declared: adopting the protocols alone changes nothing.
  var capabilities: DataSourceCapabilities {
    DataSourceCapabilities(windows: self, changeLog: self, groupCommit: self)
  }
  var sessions: [SessionToken: NavigationStack] = [:]

  func rootList() throws(ProtocolError) -> String { "shelf" }
  func listExists(_ list: String) throws(ProtocolError) -> Bool { list == "shelf" }

  func snapshot(of list: String) throws(ProtocolError) -> TableSnapshot {
    guard list == "shelf" else { throw ProtocolError(.notFound, "no list \(list)") }
    return TableSnapshot(
      list: list, title: "Shelf", style: .insetGrouped, selection: .single,
      sections: [Section(id: "all", rows: items.map { Row(id: $0, text: $0) })])
  }

  func rows(of list: String, section: Int, range: Range<Int>) throws(ProtocolError) -> [Row] {
    Array(try snapshot(of: list).sections[section].rows[range])
  }

  func search(_ query: SearchQuery, in list: String) throws(ProtocolError) -> TableSnapshot {
    var results = try snapshot(of: list)
    results.sections = results.sections.map { section in
      var s = section
      s.rows = section.rows.filter { query.matches($0) }
      return s
    }
    return results
  }

  func destination(ofRow row: String, in list: String) throws(ProtocolError) -> String? { nil }

  func commit(_ edit: TableEdit, in list: String) throws(ProtocolError) -> TableChange {
    switch edit {
    case .delete(let rows):
      items.removeAll { rows.contains($0) }
    case .move(let row, _, let after):
      items.removeAll { $0 == row }
      items.insert(row, at: after.flatMap { items.firstIndex(of: $0) }.map { $0 + 1 } ?? 0)
    case .update(let row, let text, let detail, _, _):
      if let text, let index = items.firstIndex(of: row) { items[index] = text }
      if case .clear = detail {} else if case .set = detail {}
    case .toggle(_, let isOn):
      _ = isOn
    case .tap, .action, .insert:
      throw ProtocolError(.notAllowed, "\(edit.commandName) is not offered here")
    }
    return .reload(list)
  }

  func commit(_ edit: TableEdit, in list: String, by identity: AccessIdentity?)
    throws(ProtocolError) -> TableChange
  {
    try commit(edit, in: list)
  }

  func isReadOnly(_ list: String, for identity: AccessIdentity?) -> Bool {
    identity?.role == .viewer
  }

  func canRead(_ list: String, for identity: AccessIdentity?) -> Bool { true }
  var keepsVersions: Bool { false }

  // WindowedDataSource
  func prefix(of list: String, rowLimit: Int) throws(ProtocolError) -> ListPrefix? {
    var first = try snapshot(of: list)
    let counts = first.sections.map(\.rows.count)
    first.sections = first.sections.map { section in
      var cut = section
      cut.rows = Array(section.rows.prefix(rowLimit))
      return cut
    }
    return ListPrefix(snapshot: first, counts: counts)
  }

  func row(_ id: String, in list: String) throws(ProtocolError) -> Row? {
    items.contains(id) ? Row(id: id, text: id) : nil
  }

  func indexPath(ofRow id: String, in list: String) throws(ProtocolError) -> TableIndexPath? {
    items.firstIndex(of: id).map { TableIndexPath(row: $0, section: 0) }
  }

  func currentVersion(of list: String) throws(ProtocolError) -> Int? { nil }

  // SessionStorage
  func saveSession(_ token: SessionToken, stack: NavigationStack) throws(ProtocolError) {
    sessions[token] = stack
  }

  func loadSession(_ token: SessionToken) -> NavigationStack? { sessions[token] }

  // ChangeLogReading
  func logHighWater() throws(ProtocolError) -> Int { 0 }
  func logEntries(after id: Int) throws(ProtocolError) -> [Store.LogEntry] { [] }
  func logEntries(after id: Int, skipping: (String, Int?) -> Bool) throws(ProtocolError)
    -> [Store.LogEntry]
  { [] }
  func logEntries(of list: String, after version: Int, upTo current: Int)
    throws(ProtocolError) -> [Store.LogEntry]?
  { nil }

  // GroupCommitting
  func committingTogether(_ body: () -> Void) throws(GroupCommitFailure) { body() }
  func refusingCommits(with error: ProtocolError, _ body: () -> Void) { body() }
}

/// Everyone who sends the access "ada" may edit; nobody else gets in.
final class Door: Authenticator {
  func authenticate(_ request: UpgradeRequest, access: String?) -> AccessDecision {
    access == "ada" ? .granted(AccessIdentity(name: "ada", role: .editor)) : .refused("no access")
  }
  func revoked(among identities: Set<AccessIdentity>) -> Set<AccessIdentity> { [] }
  func staysOpen(_ request: UpgradeRequest) -> Bool { false }
}

// A server on a free port with both, started and stopped; then the snapshot-keeping data
// source, the way the tutorial uses it.
let shelf = Shelf()
var configuration = TablewebServer.Configuration(port: 0)
configuration.publicDirectory = nil
configuration.maxMessageSize = 64 * 1024
let server = TablewebServer(
  dataSource: shelf, sessionStorage: shelf, authenticator: Door(), configuration: configuration)
try await server.start()
server.reloadList("shelf")
server.performBatchUpdates(in: "shelf", [.move(row: "Apples", section: "all", after: "Cherries")])
print("AppSurface: served on port \(server.port), \(ours)")
await server.stop()

let lists = SnapshotDataSource(root: try shelf.snapshot(of: "shelf"))
lists.apply(TableSnapshot(list: "shelf", title: "Empty shelf"))
