import ArgumentParser

@main
struct TablewebCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tableweb",
    abstract: "UIKit's table views, served live to the browser.",
    subcommands: [
      ServeCommand.self, ImportCommand.self, ExportCommand.self, ClientCommand.self,
      AccessCommand.self,
    ],
    defaultSubcommand: ServeCommand.self)
}
