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
  static func openStore(_ path: String, create: Bool) throws -> Store {
    guard create || FileManager.default.fileExists(atPath: path) else {
      throw CommandFailure("no database at \(path)")
    }
    do {
      return try Store(path: path)
    } catch {
      throw CommandFailure("cannot open the database \(path): \(error)")
    }
  }
}

extension AccessRole: ExpressibleByArgument {}

struct AccessGrantCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "grant",
    abstract: "Create a credential and print it as the last line of standard output.")

  @Option(help: "viewer (reads only) or editor (may change what the data permits).")
  var role: AccessRole

  @Option(help: "Who the credential is for: shown to them and in the record of changes.")
  var name: String

  @Option(help: "The database file.")
  var db = "tableweb.sqlite"

  func run() async throws {
    let store = try AccessCommand.openStore(db, create: true)
    let credential: String
    do {
      credential = try store.grantAccess(name: name, role: role)
    } catch {
      throw CommandFailure("\(error)")
    }
    FileHandle.standardError.write(
      Data(
        """
        Granted \(role.rawValue) access to “\(name)”. Send them this link, with your \
        server's address (the part after # never reaches a server or its logs):

          http://HOST:PORT/#access=\(credential)

        Opening it once is enough: the page keeps the credential in this browser and removes \
        it from the address bar. For the headless client: tableweb client … --access CREDENTIAL.
        The credential cannot be shown again; to withdraw it: tableweb access revoke \(name)

        """.utf8))
    FileHandle.standardOutput.write(Data("\(credential)\n".utf8))
  }
}

struct AccessListCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list", abstract: "Show the grants: name, role, created, last used.")

  @Option(help: "The database file.")
  var db = "tableweb.sqlite"

  func run() async throws {
    let store = try AccessCommand.openStore(db, create: false)
    let grants: [AccessGrant]
    do {
      grants = try store.accessGrants()
    } catch {
      throw CommandFailure("\(error)")
    }
    guard !grants.isEmpty else {
      print("No grants: the server is open to whoever can reach it (loopback only unless --open).")
      return
    }
    let width = max(4, grants.map(\.name.count).max() ?? 0)
    print(pad("NAME", width) + "  ROLE    CREATED               LAST USED")
    for grant in grants {
      print(
        pad(grant.name, width) + "  " + pad(grant.role.rawValue, 6) + "  "
          + Self.time(grant.created) + "  " + (grant.lastUsed.map(Self.time) ?? "never"))
    }
  }

  private func pad(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
  }

  static func time(_ unix: Int) -> String {
    let formatter = ISO8601DateFormatter()
    return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(unix)))
  }
}

struct AccessRevokeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "revoke",
    abstract: "Remove a grant; a running server closes its connections within 2 seconds.")

  @Argument(help: "The name the grant was made for.")
  var name: String

  @Option(help: "The database file.")
  var db = "tableweb.sqlite"

  func run() async throws {
    let store = try AccessCommand.openStore(db, create: false)
    let removed: Bool
    do {
      removed = try store.revokeAccess(name: name)
    } catch {
      throw CommandFailure("\(error)")
    }
    guard removed else { throw CommandFailure("no grant named “\(name)” in \(db)") }
    print("Revoked “\(name)”.")
  }
}
