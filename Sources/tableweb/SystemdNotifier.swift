#if canImport(Glibc)
  import Glibc
#endif

/// Tells systemd (a `Type=notify` unit) that the server is ready, the `sd_notify`
/// protocol: one datagram to the unix socket named by `NOTIFY_SOCKET`. Without the
/// variable (not under systemd) it does nothing.
enum SystemdNotifier {
  /// Sends `state` (`READY=1`, `STOPPING=1`); returns why it failed, or nil.
  @discardableResult
  static func notify(_ state: String, socketPath: String?) -> String? {
    guard var path = socketPath, !path.isEmpty else { return nil }
    // A leading `@` names a socket in the abstract namespace.
    let isAbstract = path.hasPrefix("@")
    if isAbstract { path.removeFirst() }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard bytes.count + 1 < capacity else { return "NOTIFY_SOCKET is too long" }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      let start = isAbstract ? 1 : 0
      for (index, byte) in bytes.enumerated() { raw[start + index] = byte }
    }
    let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { return String(cString: strerror(errno)) }
    defer { close(descriptor) }
    let length =
      MemoryLayout<sa_family_t>.size + bytes.count + (isAbstract ? 1 : 0)
    let sent = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
        Array(state.utf8).withUnsafeBytes { message in
          sendto(
            descriptor, message.baseAddress, message.count, Int32(MSG_NOSIGNAL), socketAddress,
            socklen_t(length))
        }
      }
    }
    return sent < 0 ? String(cString: strerror(errno)) : nil
  }
}
