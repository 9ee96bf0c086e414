import Foundation

/// Where the server reports what went wrong without a client to tell: a data source that
/// failed while a change was being sent out, a session that could not be read back.
///
/// One line each on standard error, prefixed `tableweb:`; never row text or credentials.
/// Any thread.
enum ServerDiagnostics {
  static func report(_ message: String) {
    FileHandle.standardError.write(Data("tableweb: \(message)\n".utf8))
  }
}
