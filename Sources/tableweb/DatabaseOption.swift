import ArgumentParser
import Foundation
import TableStore

/// Every command's `--db`: a SQLite file, or a PostgreSQL database as a `postgres://` or
/// `postgresql://` URL; `TABLEWEB_DB` when the flag is not given, else `tableweb.sqlite`.
/// Messages show it with any password replaced by `***`.
enum DatabaseOption {
  static let defaultPath = "tableweb.sqlite"

  static let help: ArgumentHelp = """
    The SQLite database file, or a PostgreSQL database as postgres://USER@HOST:PORT/DB \
    (a password is better kept in ~/.pgpass or PGPASSWORD than in the URL). \
    [TABLEWEB_DB, default tableweb.sqlite]
    """

  /// The flag, else `TABLEWEB_DB`, else the default.
  static func resolve(
    _ flag: String?, _ variables: [String: String] = ProcessInfo.processInfo.environment
  ) -> String {
    flag ?? variables["TABLEWEB_DB"].flatMap { $0.isEmpty ? nil : $0 } ?? defaultPath
  }

  /// Whether the database is there to open: a file that exists, or any PostgreSQL URL
  /// (the server says whether it is there when connected to).
  static func exists(_ db: String) -> Bool {
    Store.isPostgresURL(db) || FileManager.default.fileExists(atPath: db)
  }

  /// `db` as messages show it.
  static func shown(_ db: String) -> String { Store.redacted(db) }
}
