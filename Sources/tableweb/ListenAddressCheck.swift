#if canImport(Glibc)
  import Glibc
#endif

/// Whether `host` names an address this machine can listen on.
///
/// libwebsockets does not fail on an address that is not (yet) on any interface: it waits
/// for one to appear, so `serve --host 10.9.9.9` would start and never listen. Binding a
/// throwaway socket to the address (port 0) answers the question at once.
enum ListenAddressCheck {
  /// nil when `host` can be listened on; otherwise why not, for a person to read.
  static func problem(with host: String) -> String? {
    var hints = addrinfo()
    hints.ai_flags = AI_PASSIVE
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var found: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, "0", &hints, &found)
    guard status == 0, let first = found else {
      return "--host \(host): \(String(cString: gai_strerror(status)))"
    }
    defer { freeaddrinfo(first) }
    var lastError: Int32 = 0
    var candidate: UnsafeMutablePointer<addrinfo>? = first
    while let info = candidate {
      let descriptor = socket(info.pointee.ai_family, info.pointee.ai_socktype, 0)
      if descriptor >= 0 {
        let bound = bind(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0
        lastError = errno
        close(descriptor)
        if bound { return nil }
      }
      candidate = info.pointee.ai_next
    }
    return
      "--host \(host) is not an address of this machine (\(String(cString: strerror(lastError))))"
  }

  /// Whether `text` is an IPv4 or IPv6 address (not a name).
  static func isIPAddress(_ text: String) -> Bool {
    var v4 = in_addr()
    var v6 = in6_addr()
    return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
  }
}
