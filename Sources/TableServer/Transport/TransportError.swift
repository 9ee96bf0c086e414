/// Why the transport could not start, as a person reads it.
public enum TransportError: Error, Sendable, Equatable, CustomStringConvertible {
  case publicDirectoryMissing(String)
  /// The built-in page could not be written to a temporary folder to be served.
  case cannotWritePage(String)
  /// The address is not this machine's, or the port is taken.
  case cannotListen(host: String, port: Int)

  public var description: String {
    switch self {
    case .publicDirectoryMissing(let path):
      return "the folder to serve does not exist: \(path)"
    case .cannotWritePage(let reason):
      return "cannot write the page to a temporary folder: \(reason)"
    case .cannotListen(let host, let port):
      return
        "cannot listen on \(host):\(port) (is the port in use, or the address not this machine's?)"
    }
  }
}
