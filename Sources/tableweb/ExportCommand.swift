import ArgumentParser
import Foundation
import TableStore

/// `tableweb export [--db PATH]`: writes the database's data as a JSON data file to stdout.
struct ExportCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Write all of the database's data as a JSON data file on standard output.")

  @Option(help: "The database file.")
  var db = "tableweb.sqlite"

  func run() async throws {
    guard FileManager.default.fileExists(atPath: db) else {
      throw CommandFailure("no database at \(db)")
    }
    let text: String
    do {
      text = try Store(path: db, readOnly: true).exportJSON()
    } catch {
      throw CommandFailure("\(db): \(error)")
    }
    FileHandle.standardOutput.write(Data(text.utf8))
  }
}
