import ArgumentParser
import Foundation
import TableModel
import TableStore

/// `tableweb access grant|list|revoke`: who may use a server of this database.
struct AccessCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "access",
    abstract: "Grant, list and revoke access credentials (viewer or editor).",
    discussion: """
      As soon as the database holds one grant, the server requires a credential from every \
      client. Credentials are stored only as a SHA-256 digest: a lost one cannot be shown \
      again; revoke it and grant a new one.
      """,
    subcommands: [AccessGrantCommand.self, AccessListCommand.self, AccessRevokeCommand.self])

  /// Opens the database for an access command, creating it (empty) when missing, so that
  /// access can be granted before the first `serve`.
  static func openStore(_ flag: String?, create: Bool) throws -> Store {
    let path = DatabaseOption.resolve(flag)
    guard create || DatabaseOption.exists(path) else {
      throw CommandFailure("no database at \(path)")
    }
    do {
      return try Store(path: path)
    } catch {
      throw CommandFailure("cannot open the database \(DatabaseOption.shown(path)): \(error)")
    }
  }

  /// Runs a store call, a failure of which is the command's (`Error: …`, exit 1).
  static func failing<T>(_ body: () throws(StoreError) -> T) throws -> T {
    do {
      return try body()
    } catch {
      throw CommandFailure("\(error)")
    }
  }
}

extension AccessRole: ExpressibleByArgument {}
