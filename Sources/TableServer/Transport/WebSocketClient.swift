import CWebsockets
import Foundation

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

  private struct Outgoing {
    var bytes: [UInt8]
    var offset = 0
    /// Bytes per WebSocket fragment; nil sends the message as one frame.
    var fragmentSize: Int?
  }

  /// Cross-thread state, guarded by `condition`.
  private struct Shared {
    var context: OpaquePointer?
    var outbox: [Outgoing] = []
    var events: [Event] = []
    var wantsClose = false
    var wantsShutDown = false
    var isFinished = false
  }
  private let condition = NSCondition()
  private var shared = Shared()

  // Service-thread state.
  private var strings: [UnsafeMutablePointer<CChar>] = []
  private var protocols: UnsafeMutablePointer<lws_protocols>?
  private var extensions: UnsafeMutablePointer<lws_extension>?
  private var wsi: OpaquePointer?
  private var current: Outgoing?
  private var written: UnsafeMutableRawBufferPointer?
  private var assembler = MessageAssembler(limit: 1 << 30)
  private var peerCloseStatus: Int?
  private var peerCloseReason = ""
  private var isDone = false

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
    wake { $0.wantsShutDown = true }
    condition.lock()
    while shared.context != nil { condition.wait() }
    condition.unlock()
  }

  /// The next event, waiting at most `timeout`; nil when none came in time.
  public func nextEvent(timeout: Duration) -> Event? {
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

  // MARK: - The service thread

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

  private func push(_ event: Event) {
    condition.lock()
    shared.events.append(event)
    condition.broadcast()
    condition.unlock()
  }

  private func serve() {
    condition.lock()
    let context = shared.context!  // cleared only below
    condition.unlock()
    while !isDone {
      if lws_service(context, 0) < 0 { break }
    }
    lws_context_destroy(context)
    wsi = nil
    condition.lock()
    shared.context = nil
    shared.isFinished = true
    condition.broadcast()
    condition.unlock()
  }

  fileprivate func handle(
    _ reason: lws_callback_reasons, wsi: OpaquePointer, input: UnsafeMutableRawPointer?,
    length: Int
  ) -> Int32 {
    switch reason {
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
      condition.lock()
      let (hasOutgoing, wantsClose, wantsShutDown) =
        (!shared.outbox.isEmpty, shared.wantsClose, shared.wantsShutDown)
      condition.unlock()
      if wantsShutDown { isDone = true }
      if let connection = self.wsi, hasOutgoing || wantsClose {
        lws_callback_on_writable(connection)
      }
      return 0
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
      self.wsi = wsi
      push(.opened)
      lws_callback_on_writable(wsi)
      return 0
    case LWS_CALLBACK_CLIENT_RECEIVE:
      let chunk = UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length)
      if case .message(let bytes) = assembler.append(
        chunk, isFinal: lws_is_final_fragment(wsi) != 0)
      {
        push(.message(String(decoding: bytes, as: UTF8.self)))
      }
      return 0
    case LWS_CALLBACK_CLIENT_WRITEABLE:
      return writeable(wsi) ? 0 : -1
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
      if let input, length >= 2 {
        let bytes = input.assumingMemoryBound(to: UInt8.self)
        peerCloseStatus = Int(bytes[0]) << 8 | Int(bytes[1])
        peerCloseReason = String(
          decoding: UnsafeBufferPointer(start: bytes + 2, count: length - 2), as: UTF8.self)
      }
      return 0
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
      let message =
        input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "connection failed"
      let status = Int(lws_http_client_http_response(wsi))
      push(.failed(message, httpStatus: status == 0 ? nil : status))
      self.wsi = nil
      isDone = true
      return 0
    case LWS_CALLBACK_CLIENT_CLOSED:
      push(.closed(status: peerCloseStatus, reason: peerCloseReason))
      self.wsi = nil
      isDone = true
      return 0
    default:
      return 0
    }
  }

  /// Writes one frame (or fragment); false closes the connection.
  private func writeable(_ wsi: OpaquePointer) -> Bool {
    written?.deallocate()
    written = nil
    if current == nil {
      condition.lock()
      if !shared.outbox.isEmpty { current = shared.outbox.removeFirst() }
      let wantsClose = shared.wantsClose
      condition.unlock()
      if current == nil {
        guard wantsClose else { return true }
        var reason: [UInt8] = []
        lws_close_reason(wsi, LWS_CLOSE_STATUS_NORMAL, &reason, 0)
        return false
      }
    }
    guard var outgoing = current else { return true }
    let isStart = outgoing.offset == 0
    let count = min(
      outgoing.fragmentSize ?? outgoing.bytes.count, outgoing.bytes.count - outgoing.offset)
    let isEnd = outgoing.offset + count == outgoing.bytes.count
    let pre = Int(tableweb_lws_pre)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: pre + count, alignment: 16)
    outgoing.bytes[outgoing.offset..<(outgoing.offset + count)].withUnsafeBytes {
      UnsafeMutableRawBufferPointer(rebasing: buffer[pre...]).copyMemory(from: $0)
    }
    written = buffer
    let flags = lws_write_ws_flags(Int32(LWS_WRITE_TEXT.rawValue), isStart ? 1 : 0, isEnd ? 1 : 0)
    let payload = buffer.baseAddress!.advanced(by: pre).assumingMemoryBound(to: UInt8.self)
    guard lws_write(wsi, payload, count, lws_write_protocol(UInt32(flags))) >= count else {
      return false
    }
    outgoing.offset += count
    current = isEnd ? nil : outgoing
    lws_callback_on_writable(wsi)
    return true
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

/// The client's one protocol: hands every callback to the client that owns the context.
private func clientProtocolCallback(
  _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
  _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
  guard let wsi, let context = lws_get_context(wsi), let owner = lws_context_user(context) else {
    return 0
  }
  let client = Unmanaged<WebSocketClient>.fromOpaque(owner).takeUnretainedValue()
  return client.handle(reason, wsi: wsi, input: input, length: length)
}
