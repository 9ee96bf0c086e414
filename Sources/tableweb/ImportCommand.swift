import ArgumentParser
import Foundation
import TableModel
import TableStore

/// `tableweb import FILE.json [--db PATH]`: replaces the database's data with a data file.
struct ImportCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Replace all of the database's data with a JSON data file (see docs/data-format.md).",
    discussion:
      "An invalid file is rejected whole, naming the JSON path of its first problem; the database's data is then not touched."
  )

  @Argument(help: "The data file to import.")
  var file: String

  @Option(help: DatabaseOption.help)
  var db: String?

  func run() async throws {
    let db = DatabaseOption.resolve(self.db)
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: file))
    } catch {
      throw CommandFailure("cannot read \(file): \(Self.reason(error))")
    }
    // The JSON syntax is checked before the database is opened (and perhaps created), its
    // UTF-8 once, as it is parsed. The format's checks then run on a second thread while
    // the rows that passed them are written (`Store.importJSON(tree:)`); the first
    // problem rolls the write back.
    let tree: JSONValue
    do {
      tree = try JSONValue(parsing: data)
    } catch {
      throw CommandFailure(
        "\(file): \(StoreError.invalidData(path: "", message: "not JSON: \(error.described(in: data))"))"
      )
    }
    let created = !Store.isPostgresURL(db) && !FileManager.default.fileExists(atPath: db)
    let rows: Int
    do {
      let store = try Store(path: db)
      rows = try store.importJSON(tree: tree)
    } catch {
      // A file the import made is not left behind, empty, by a file that failed.
      if created {
        for suffix in ["", "-wal", "-shm"] {
          try? FileManager.default.removeItem(atPath: db + suffix)
        }
      }
      if case .invalidData = error { throw CommandFailure("\(file): \(error)") }
      throw CommandFailure("\(DatabaseOption.shown(db)): \(error)")
    }
    print("Imported \(rows) rows from \(file) into \(DatabaseOption.shown(db)).")
  }

  /// Why a file could not be read, as the system says it (`No such file or directory`).
  static func reason(_ error: any Error) -> String {
    let nsError = error as NSError
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain
    {
      return String(cString: strerror(Int32(underlying.code)))
    }
    if nsError.domain == NSCocoaErrorDomain, nsError.code == NSFileReadNoSuchFileError {
      return "No such file or directory"
    }
    return nsError.localizedDescription
  }
}
