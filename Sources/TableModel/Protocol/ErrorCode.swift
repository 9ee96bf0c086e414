/// The `code` of a protocol `error` message.
public enum ErrorCode: String, Sendable, Hashable, CaseIterable {
  /// The frame is not JSON.
  case badJSON = "bad_json"
  /// Unknown `type`, or a field missing or of the wrong type.
  case badMessage = "bad_message"
  /// The frame is larger than the server's limit.
  case tooLarge = "too_large"
  /// The row, section or list no longer exists.
  case notFound = "not_found"
  /// The row or screen does not permit it, or the session is read-only.
  case notAllowed = "not_allowed"
  case rateLimited = "rate_limited"
  /// (v1.1) The server requires a credential and the `hello` had none, or a wrong one.
  case unauthorized
  case `internal`
  /// (extension) An `undo` or `redo` would overwrite a row someone else changed since;
  /// nothing was applied, and the message names the row and who changed it.
  case conflict
}

/// An error a peer is told about: its code and a message a person can read.
public struct ProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
  public var code: ErrorCode
  public var message: String

  public init(_ code: ErrorCode, _ message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { "\(code.rawValue): \(message)" }
}

extension ProtocolError {
  /// `bad_json`, saying why and where the text is not JSON.
  public init(_ syntaxError: JSONSyntaxError) {
    self.init(.badJSON, "not JSON: \(syntaxError)")
  }
}
