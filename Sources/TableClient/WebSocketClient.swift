import CWebsockets
import Foundation
import TableModel

#if canImport(Glibc)
  import Glibc
#endif

/// A WebSocket client on libwebsockets' client API: what the headless client and the
/// transport tests talk to a server with.
///
/// It runs its own lws context on its own service thread. Every public method may be
/// called from any thread except that one; events are read with ``nextEvent(timeout:)``.
///
/// ```swift
/// let client = try WebSocketClient(url: "ws://127.0.0.1:8080/ws")
/// client.connect()
/// guard case .opened = client.nextEvent(timeout: .seconds(5)) else { … }
/// client.send(#"{"type":"hello","session":null}"#)
/// ```
public final class WebSocketClient: @unchecked Sendable {
  public enum Event: Sendable, Equatable {
    case opened
    case message(String)
    /// The connection closed; `status` is the close code the server sent, if any.
    case closed(status: Int?, reason: String)
    /// The connection could not be made or the upgrade was refused; `httpStatus` is the
    /// server's answer to the upgrade (403) when there was one.
    case failed(String, httpStatus: Int?)
  }

  public let host: String
  public let port: Int
  public let path: String
  public let subprotocol: String?
  public let origin: String?
  public let offersPermessageDeflate: Bool

  struct Outgoing {
    var bytes: [UInt8]
    var offset = 0
    /// Bytes per WebSocket fragment; nil sends the message as one frame.
    var fragmentSize: Int?
  }

  /// Cross-thread state, guarded by `condition`.
  struct Shared {
    var context: OpaquePointer?
    var outbox: [Outgoing] = []
    var events: [Event] = []
    var wantsClose = false
    var wantsShutDown = false
    var isFinished = false
  }
  let condition = NSCondition()
  var shared = Shared()
  /// The thread that runs the lws context; the blocking calls must not come from it.
  let serviceThread = ThreadChecker("WebSocketClient")

  // Service-thread state (internal for WebSocketClient+Callbacks.swift).
  private var strings: [UnsafeMutablePointer<CChar>] = []
  private var protocols: UnsafeMutablePointer<lws_protocols>?
  private var extensions: UnsafeMutablePointer<lws_extension>?
  var wsi: OpaquePointer?
  var current: Outgoing?
  var written: UnsafeMutableRawBufferPointer?
  var assembler = MessageAssembler(limit: 1 << 30)
  var peerCloseStatus: Int?
  var peerCloseReason = ""
  var isDone = false

  /// - Parameters:
  ///   - url: `ws://HOST:PORT/PATH` (no TLS).
  ///   - subprotocol: sent as `Sec-WebSocket-Protocol`; nil sends none.
  ///   - origin: sent as `Origin`; nil sends none (as non-browser clients do).
  ///   - permessageDeflate: whether to offer compression.
  public init(
    url: String, subprotocol: String? = "tableweb.v1", origin: String? = nil,
    permessageDeflate: Bool = false
  ) throws(WebSocketClientError) {
    guard url.hasPrefix("ws://") else { throw .badURL(url, "only ws:// URLs are supported") }
    let rest = url.dropFirst(5)
    let authority = rest.prefix { $0 != "/" }
    path = rest.count > authority.count ? String(rest.dropFirst(authority.count)) : "/"
    if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
      host = String(authority[authority.index(after: authority.startIndex)..<close])
      let portText = authority[authority.index(after: close)...].dropFirst()
      port = portText.isEmpty ? 80 : Int(portText) ?? -1
    } else if let colon = authority.lastIndex(of: ":") {
      host = String(authority[..<colon])
      port = Int(authority[authority.index(after: colon)...]) ?? -1
    } else {
      host = String(authority)
      port = 80
    }
    guard !host.isEmpty, (1...65535).contains(port) else { throw .badURL(url, "no host or port") }
    self.subprotocol = subprotocol
    self.origin = origin
    offersPermessageDeflate = permessageDeflate
  }

  deinit {
    condition.lock()
    let finished = shared.context == nil
    condition.unlock()
    precondition(finished, "a WebSocketClient was released while connected: call shutDown()")
    for string in strings { free(string) }
    protocols?.deallocate()
    extensions?.deallocate()
    written?.deallocate()
  }

  /// Starts connecting; `.opened` or `.failed` follows. Call once.
  public func connect() {
    let protocols = UnsafeMutablePointer<lws_protocols>.allocate(capacity: 2)
    protocols.initialize(repeating: lws_protocols(), count: 2)
    protocols[0].name = UnsafePointer(keep("tableweb-client"))
    protocols[0].callback = clientProtocolCallback
    protocols[0].rx_buffer_size = 4096
    self.protocols = protocols
    let extensions = UnsafeMutablePointer<lws_extension>.allocate(capacity: 2)
    extensions.initialize(repeating: lws_extension(), count: 2)
    if offersPermessageDeflate {
      extensions[0].name = UnsafePointer(keep("permessage-deflate"))
      extensions[0].callback = lws_extension_callback_pm_deflate
      extensions[0].client_offer = UnsafePointer(keep("permessage-deflate; client_max_window_bits"))
    }
    self.extensions = extensions

    lws_set_log_level(0, nil)
    var info = lws_context_creation_info()
    info.port = tableweb_lws_context_port_no_listen
    info.protocols = UnsafePointer(protocols)
    info.extensions = UnsafePointer(extensions)
    info.options = tableweb_lws_option_raw_origin
    info.user = Unmanaged.passUnretained(self).toOpaque()
    info.timeout_secs = 5
    info.connect_timeout_secs = 5
    guard let context = lws_create_context(&info) else {
      push(.failed("cannot create a libwebsockets context", httpStatus: nil))
      return
    }

    var connection = lws_client_connect_info()
    connection.context = context
    connection.address = UnsafePointer(keep(host))
    connection.port = Int32(port)
    connection.path = UnsafePointer(keep(path))
    let hostHeader = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    connection.host = UnsafePointer(keep(hostHeader))
    connection.origin = origin.map { UnsafePointer(keep($0)) }
    connection.protocol = subprotocol.map { UnsafePointer(keep($0)) }
    connection.local_protocol_name = protocols[0].name
    connection.ietf_version_or_minus_one = -1

    condition.lock()
    shared.context = context
    condition.unlock()
    wsi = lws_client_connect_via_info(&connection)
    if wsi == nil && !isDone {
      push(.failed("cannot connect to \(host):\(port)", httpStatus: nil))
      isDone = true
    }
    let thread = Thread { [self] in serve() }
    thread.name = "tableweb-client-lws"
    thread.start()
  }

  /// Queues `text` as one text message, in fragments of `fragmentSize` bytes if given.
  public func send(_ text: String, fragmentSize: Int? = nil) {
    precondition(fragmentSize.map { $0 > 0 } ?? true, "fragments must not be empty")
    wake { $0.outbox.append(Outgoing(bytes: Array(text.utf8), fragmentSize: fragmentSize)) }
  }

  /// Sends a close frame (1000) after what is queued; `.closed` follows.
  public func close() {
    wake { $0.wantsClose = true }
  }

  /// Closes at once (no close handshake) and waits for the service thread to finish.
  public func shutDown() {
    serviceThread.checkNotOwner()
    wake { $0.wantsShutDown = true }
    condition.lock()
    while shared.context != nil { condition.wait() }
    condition.unlock()
  }

  /// The next event, waiting at most `timeout`; nil when none came in time.
  public func nextEvent(timeout: Duration) -> Event? {
    serviceThread.checkNotOwner()
    let deadline = Date().addingTimeInterval(
      Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18)
    condition.lock()
    defer { condition.unlock() }
    while shared.events.isEmpty {
      if shared.context == nil && shared.isFinished { return nil }
      if !condition.wait(until: deadline) { break }
    }
    return shared.events.isEmpty ? nil : shared.events.removeFirst()
  }

  // MARK: - Between threads

  private func keep(_ string: String) -> UnsafeMutablePointer<CChar> {
    let copy = strdup(string)!
    strings.append(copy)
    return copy
  }

  private func wake(_ change: (inout Shared) -> Void) {
    condition.lock()
    change(&shared)
    if let context = shared.context { lws_cancel_service(context) }
    condition.unlock()
  }

  func push(_ event: Event) {
    condition.lock()
    shared.events.append(event)
    condition.broadcast()
    condition.unlock()
  }
}

/// Why a ``WebSocketClient`` could not be made.
public enum WebSocketClientError: Error, Sendable, Equatable, CustomStringConvertible {
  case badURL(String, String)

  public var description: String {
    switch self {
    case .badURL(let url, let why): return "bad URL \(url): \(why)"
    }
  }
}
