/// Why the transport could not start, as a person reads it.
public enum TransportError: Error, Sendable, Equatable, CustomStringConvertible {
  case publicDirectoryMissing(String)
  /// The address is not this machine's, or the port is taken.
  case cannotListen(host: String, port: Int)

  public var description: String {
    switch self {
    case .publicDirectoryMissing(let path):
      return "the folder to serve does not exist: \(path)"
    case .cannotListen(let host, let port):
      return
        "cannot listen on \(host):\(port) (is the port in use, or the address not this machine's?)"
    }
  }
}
