import Foundation
import TableModel
import TableStore

/// `tablebench import --postgres URL`: the same import on PostgreSQL, beside a bare COPY
/// of the same rows into a table with the same columns and no index, in the same run.
extension ImportBenchmark {
  func measurePostgres(url: String, file: AppFile, parse: Duration) throws {
    let store = try Store(path: url)
    let connection = try PostgresConnection(url)
    print(
      "\nPostgreSQL \(connection.serverVersion / 10_000).\(connection.serverVersion % 100)"
        + " (\(store.redactedPath)), the same rows, best of \(rounds):")
    let write = try best { try store.importFile(file) }
    print("  import: \(seconds(parse + write)) — writing \(seconds(write)) after the parse")
  }
}
