#if canImport(Glibc)
  import Glibc
#endif

/// IP addresses as text, the way limits and logs key them: IPv4 dotted, IPv6 in its short
/// form, an IPv4 address mapped into IPv6 (`::ffff:a.b.c.d`) as plain IPv4.
enum IPAddress {
  /// `text` in the canonical form, or nil when it is not an IP address.
  static func normalized(_ text: String) -> String? {
    var v4 = in_addr()
    if inet_pton(AF_INET, text, &v4) == 1 { return format(v4) }
    var v6 = in6_addr()
    if inet_pton(AF_INET6, text, &v6) == 1 { return format(v6) }
    return nil
  }

  /// The address of the peer of the connected socket `descriptor`, or nil.
  static func peer(of descriptor: Int32) -> String? {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let found = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getpeername(descriptor, $0, &length) == 0
      }
    }
    guard found else { return nil }
    switch Int32(storage.ss_family) {
    case AF_INET:
      return format(withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in.self) }.sin_addr)
    case AF_INET6:
      return format(withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in6.self) }.sin6_addr)
    default:
      return nil
    }
  }

  private static func format(_ address: in_addr) -> String {
    var address = address
    var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
    inet_ntop(AF_INET, &address, &text, socklen_t(text.count))
    return String(cString: text)
  }

  private static func format(_ address: in6_addr) -> String {
    var address = address
    let bytes = withUnsafeBytes(of: address) { Array($0) }
    if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
      var v4 = in_addr()
      withUnsafeMutableBytes(of: &v4) { $0.copyBytes(from: bytes[12..<16]) }
      return format(v4)
    }
    var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
    inet_ntop(AF_INET6, &address, &text, socklen_t(text.count))
    return String(cString: text)
  }
}
