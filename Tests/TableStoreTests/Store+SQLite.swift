@testable import TableStore

extension Store {
  /// The SQLite connection of a store on a file, for tests of SQLite's own behaviour.
  var sqlite: Database { database as! Database }
}
