import ArgumentParser

struct ClientCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(commandName: "client")

  func run() async throws {
    throw ValidationError("not built yet")
  }
}
