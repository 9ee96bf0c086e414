import Foundation

/// The page (`Public/` of this package), built into the library by the EmbedPage plugin,
/// so that a server finds it wherever its binary runs. ``WebSocketServer`` serves it from
/// a private temporary folder it writes at start, unless its configuration names another
/// folder.
public enum EmbeddedPage {
  /// The page's files: name and contents.
  public static var files: [(name: String, contents: Data)] {
    base64Files.map { ($0.name, Data(base64Encoded: $0.base64) ?? Data()) }
  }

  /// Writes the page into a new folder only this user can read, and returns its path.
  /// The caller removes it when done.
  static func writeToTemporaryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tableweb-page-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    for file in files {
      try file.contents.write(to: folder.appendingPathComponent(file.name))
    }
    return folder
  }
}
