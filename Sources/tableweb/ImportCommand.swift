import ArgumentParser
import Foundation
import TableStore

/// `tableweb import FILE.json [--db PATH]`: replaces the database's data with a data file.
struct ImportCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Replace all of the database's data with a JSON data file (see docs/data-format.md).",
    discussion:
      "An invalid file is rejected whole, naming the JSON path of its first problem; the database is then not touched."
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
    // Check the file before opening (and perhaps creating) the database. Its UTF-8 is
    // checked once, as it is parsed.
    let checked: AppFile
    do {
      checked = try AppFile(jsonBytes: data)
    } catch {
      throw CommandFailure("\(file): \(error)")
    }
    do {
      let store = try Store(path: db)
      try store.importFile(checked)
    } catch {
      throw CommandFailure("\(DatabaseOption.shown(db)): \(error)")
    }
    print("Imported \(checked.root.totalRows) rows from \(file) into \(DatabaseOption.shown(db)).")
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
