import ArgumentParser
import Foundation
import TableModel
import TableStore

/// `tableweb access grant --role viewer|editor --name NAME`.
struct AccessGrantCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "grant",
    abstract: "Create a credential and print it as the last line of standard output.")

  @Option(help: "viewer (reads only) or editor (may change what the data permits).")
  var role: AccessRole

  @Option(help: "Who the credential is for: shown to them and in the record of changes.")
  var name: String

  @Option(help: DatabaseOption.help)
  var db: String?

  func run() async throws {
    let store = try AccessCommand.openStore(db, create: true)
    let credential = try AccessCommand.failing { () throws(StoreError) in
      try store.grantAccess(name: name, role: role)
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
