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

  @Option(help: "The database file (created when missing).")
  var db = "tableweb.sqlite"

  func run() async throws {
    guard let data = FileManager.default.contents(atPath: file) else {
      throw CommandFailure("cannot read \(file)")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw CommandFailure("\(file): not UTF-8 text")
    }
    // Check the file before opening (and perhaps creating) the database.
    let checked: AppFile
    do {
      checked = try AppFile(jsonText: text)
    } catch {
      throw CommandFailure("\(file): \(error)")
    }
    do {
      let store = try Store(path: db)
      try store.importFile(checked)
    } catch {
      throw CommandFailure("\(db): \(error)")
    }
    print("Imported \(checked.root.totalRows) rows from \(file) into \(db).")
  }
}
