import Foundation
import PackagePlugin

/// Embeds the package's `Public/` folder (the page) into the target as Swift source, so a
/// `tableweb` binary copied anywhere, and an app that depends on tableweb by URL or path,
/// serve the page without knowing where this package was checked out.
@main
struct EmbedPage: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    let folder = context.package.directoryURL.appending(path: "Public")
    let files = try FileManager.default.contentsOfDirectory(
      at: folder, includingPropertiesForKeys: nil
    ).filter { !$0.hasDirectoryPath }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedPageFiles.swift")
    return [
      .buildCommand(
        displayName: "Embedding the page (\(files.count) files of Public/)",
        executable: try context.tool(named: "PageEmbedder").url,
        arguments: [output.path] + files.map(\.path),
        inputFiles: files,
        outputFiles: [output])
    ]
  }
}
