import Foundation
import StoreTestSupport
import TableModel
import TableStore

@testable import TableServer

/// A small app with every feature the server handles, with fixed ids, imported into a
/// real store: a SQLite file in a temporary folder, or a fresh database of the test
/// process's throwaway PostgreSQL cluster (``StoreKind``).
final class Fixture {
  static let app = #"""
    {"id": "Lhome", "title": "Home", "style": "grouped", "sections": [
      {"id": "Shome", "rows": [
        {"id": "Rsettings", "text": "Settings", "children":
          {"id": "Lsettings", "title": "Settings", "style": "grouped", "sections": [
            {"id": "Sgeneral", "rows": [
              {"id": "Rwifi", "text": "Wi-Fi", "switch": true},
              {"id": "Rringtone", "text": "Ringtone", "style": "value1", "children":
                {"id": "Lringtone", "title": "Ringtone", "selection": "single", "sections": [
                  {"id": "Stones", "rows": [
                    {"id": "Rmarimba", "text": "Marimba", "checked": true},
                    {"id": "Rbell", "text": "Bell"},
                    {"id": "Rchime", "text": "Chime"}]}]}}]},
            {"id": "Sdate", "header": "Date & Time", "rows": [
              {"id": "Rauto", "text": "Set Automatically", "switch": true},
              {"id": "Rzone", "text": "Time Zone", "style": "value1", "detail": "Paris",
               "showWhen": {"row": "Rauto", "on": false}},
              {"id": "Rsetdate", "text": "Set Date & Time", "showWhen": {"row": "Rauto", "on": false}}]}]}},
        {"id": "Rtrails", "text": "Trails", "children":
          {"id": "Lregions", "title": "Regions", "sections": [
            {"id": "Sregions", "rows": [
              {"id": "Rnorth", "text": "North", "children":
                {"id": "Lnorth", "title": "North", "sections": [
                  {"id": "Snorth", "rows": [
                    {"id": "Rpeak", "text": "Peak Trail", "accessory": "detailDisclosure", "children":
                      {"id": "Lpeak", "title": "Peak Trail", "style": "grouped", "sections": [
                        {"id": "Speak", "rows": [
                          {"id": "Rlength", "text": "Length", "style": "value2", "detail": "5 km"}]}]}}]}]}}]}]}},
        {"id": "Rtasks", "text": "Tasks", "children":
          {"id": "Ltasks", "title": "Tasks", "editable": true, "searchable": true, "sections": [
            {"id": "Stodo", "header": "To do", "rows": [
              {"id": "Rmilk", "text": "Milk", "children":
                {"id": "Lmilk", "title": "Milk", "sections": [
                  {"id": "Smilk", "rows": [{"id": "Rbrand", "text": "Any brand", "children":
                    {"id": "Lbrand", "title": "Any brand", "sections": [
                      {"id": "Sbrand", "rows": [{"id": "Rshop", "text": "Corner shop"}]}]}}]}]}},
              {"id": "Reggs", "text": "Eggs"},
              {"id": "Rbread", "text": "Bread"}]},
            {"id": "Sdone", "header": "Done", "rows": [
              {"id": "Rtea", "text": "Tea"}]}]}},
        {"id": "Rcolors", "text": "Colors", "children":
          {"id": "Lcolors", "title": "Colors", "selection": "multiple", "sections": [
            {"id": "Scolors", "rows": [
              {"id": "Rred", "text": "Red"},
              {"id": "Rgreen", "text": "Green", "checked": true},
              {"id": "Rblue", "text": "Blue"}]}]}},
        {"id": "Rnumbers", "text": "Numbers", "children":
          {"id": "Lnumbers", "title": "Numbers", "sections": [
            {"id": "Snumbers", "rows": [NUMBERS]}]}},
        {"id": "Rabout", "text": "About"}]}]}
    """#.replacingOccurrences(
      of: "NUMBERS",
      with: (1...350).map { #"{"id": "Rn\#($0)", "text": "Number \#($0)"}"# }.joined(separator: ",")
    )

  let kind: StoreKind
  /// A temporary folder of the test's own (the SQLite file's, or a public folder's).
  let folder: URL
  /// The SQLite file's path, or the PostgreSQL database's URL: what `Store(path:)` opens.
  let path: String

  /// `app`: the data file imported (the fixture's own by default).
  init(_ kind: StoreKind, app: String = Fixture.app) throws {
    self.kind = kind
    folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tableweb-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    switch kind {
    case .sqlite: path = folder.appendingPathComponent("tableweb.sqlite").path
    case .postgres: path = try PostgresCluster.shared.get().newDatabase()
    }
    let store = try Store(path: path)
    try store.importJSON(app)
  }

  deinit {
    try? FileManager.default.removeItem(at: folder)
  }

  /// A new server core over the fixture's store, as after a (re)start; `readOnlyStore`
  /// opens the store read-only (a read-only SQLite connection or PostgreSQL session).
  func makeDriver(
    _ configuration: SessionServerConfiguration = SessionServerConfiguration(),
    readOnlyStore: Bool = false, authenticator: (any Authenticator)? = nil
  ) throws -> ServerDriver {
    let dataSource = StoreDataSource(store: try Store(path: path, readOnly: readOnlyStore))
    return ServerDriver(
      SessionServer(
        dataSource: dataSource, sessionStorage: dataSource, configuration: configuration,
        authenticator: authenticator))
  }

  /// The current version of `list`, read from the store.
  func version(_ list: String) throws -> Int {
    try Store(path: path).version(of: list)
  }
}
