import Foundation
import Testing

@testable import TableClient
@testable import TableServer

#if canImport(Glibc)
  import Glibc
#endif

/// Records what the server tells its delegate, and lets a test wait for it.
/// The server calls it on its service thread; tests read it from theirs.
final class RecordingDelegate: ConnectionDelegate, @unchecked Sendable {
  enum Event: Equatable {
    case opened(ConnectionID)
    case received(ConnectionID, String)
    case tooLarge(ConnectionID)
    case closed(ConnectionID)
    case transportStopped
  }

  private let condition = NSCondition()
  private var recorded: [Event] = []
  /// Called on the service thread for every received message, e.g. to answer it.
  var onReceive: (@Sendable (ConnectionID, String) -> Void)?
  /// Gets every call too, after it is recorded (a fake sessions layer).
  var forward: (any ConnectionDelegate)?

  var events: [Event] {
    condition.lock()
    defer { condition.unlock() }
    return recorded
  }

  /// Waits until `predicate` holds for the events so far; false after `timeout`.
  func wait(timeout: TimeInterval = 5, until predicate: ([Event]) -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    condition.lock()
    defer { condition.unlock() }
    while !predicate(recorded) {
      if !condition.wait(until: deadline) { return predicate(recorded) }
    }
    return true
  }

  private func record(_ event: Event) {
    condition.lock()
    recorded.append(event)
    condition.broadcast()
    condition.unlock()
  }

  func connectionDidOpen(_ connection: ConnectionID) {
    record(.opened(connection))
    forward?.connectionDidOpen(connection)
  }
  func connection(_ connection: ConnectionID, didReceive text: String) {
    record(.received(connection, text))
    onReceive?(connection, text)
    forward?.connection(connection, didReceive: text)
  }
  func connectionDidSendTooLarge(_ connection: ConnectionID) {
    record(.tooLarge(connection))
    forward?.connectionDidSendTooLarge(connection)
  }
  func connectionDidClose(_ connection: ConnectionID) {
    record(.closed(connection))
    forward?.connectionDidClose(connection)
  }
  func transportDidStop() { record(.transportStopped) }
}

/// A server on a free loopback port serving a temporary folder, for one test.
struct TestServer {
  let server: WebSocketServer
  let delegate: RecordingDelegate
  let folder: URL
  /// The connections refused by a limit, as the server reported them.
  let refusals = RefusalRecorder()

  init(
    files: [String: String] = ["index.html": "<h1>tableweb</h1>"],
    configure: (inout WebSocketServer.Configuration) -> Void = { _ in },
    responder: (any HTTPResponder)? = nil
  ) throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("tableweb-transport-\(UUID().uuidString)")
    let publicFolder = folder.appendingPathComponent("Public")
    try FileManager.default.createDirectory(at: publicFolder, withIntermediateDirectories: true)
    for (name, content) in files {
      try Data(content.utf8).write(to: publicFolder.appendingPathComponent(name))
    }
    // A file next to the served folder, which no request may reach.
    try Data("top secret".utf8).write(to: folder.appendingPathComponent("secret.txt"))
    var configuration = WebSocketServer.Configuration(port: 0, publicDirectory: publicFolder.path)
    configure(&configuration)
    server = WebSocketServer(configuration: configuration)
    delegate = RecordingDelegate()
    let refusals = refusals
    try server.start(
      delegate: delegate, responder: responder, onRefusal: { refusals.record($0, $1) })
  }

  var port: Int { server.port }
  var url: String { "ws://127.0.0.1:\(port)/ws" }

  func stop() async {
    await server.stop()
    try? FileManager.default.removeItem(at: folder)
  }

  /// A client connected to `/ws`, or a failed test.
  func connectedClient(origin: String? = nil) throws -> WebSocketClient {
    let client = try WebSocketClient(url: url, origin: origin)
    client.connect()
    let event = client.nextEvent(timeout: .seconds(5))
    guard event == .opened else {
      client.shutDown()
      throw TransportTestFailure(
        "expected the connection to open, got \(String(describing: event))")
    }
    return client
  }
}

/// What a server's `onRefusal` was told, for a test to wait for.
final class RefusalRecorder: @unchecked Sendable {
  private let condition = NSCondition()
  private var recorded: [(ConnectionRefusal, String)] = []

  func record(_ reason: ConnectionRefusal, _ address: String) {
    condition.lock()
    recorded.append((reason, address))
    condition.broadcast()
    condition.unlock()
  }

  /// Each refusal as `reason address`.
  var all: [String] {
    condition.lock()
    defer { condition.unlock() }
    return recorded.map { "\($0.0.rawValue) \($0.1)" }
  }

  /// Waits until `count` refusals were reported; false after `timeout`.
  func wait(count: Int, timeout: TimeInterval = 5) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    condition.lock()
    defer { condition.unlock() }
    while recorded.count < count {
      if !condition.wait(until: deadline) { return recorded.count >= count }
    }
    return true
  }
}

struct TransportTestFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// One HTTP/1.1 request over a plain socket, read with a timeout: what a browser would
/// see, without any client library's opinions.
struct HTTPResponse {
  var status: Int
  var headers: [String: String]
  var body: String

  /// `headers` may name `Host` (else `127.0.0.1:PORT`); `body` makes the request a POST.
  static func fetch(
    port: Int, path: String, headers: [String: String] = [:], body: String? = nil,
    timeout: TimeInterval = 5, from source: String = "127.0.0.1"
  ) throws -> HTTPResponse {
    let connection = try RawSocket(port: port, from: source)
    // The socket closes when `connection` goes: keep it to the end of the exchange.
    defer { withExtendedLifetime(connection) {} }
    let socketFD = connection.descriptor
    var time = timeval(tv_sec: Int(timeout), tv_usec: 0)
    setsockopt(socketFD, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(socketFD, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))

    var request = "\(body == nil ? "GET" : "POST") \(path) HTTP/1.1\r\n"
    if !headers.keys.contains(where: { $0.lowercased() == "host" }) {
      request += "Host: 127.0.0.1:\(port)\r\n"
    }
    for (name, value) in headers { request += "\(name): \(value)\r\n" }
    if let body { request += "Content-Length: \(body.utf8.count)\r\n" }
    request += "\r\n" + (body ?? "")
    let bytes = Array(request.utf8)
    // A server that refused the connection at once may have closed it already: read its
    // answer all the same.
    _ = Glibc.send(socketFD, bytes, bytes.count, Int32(MSG_NOSIGNAL))

    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      if let response = parse(received) { return response }
      let count = recv(socketFD, &buffer, buffer.count, 0)
      guard count > 0 else {
        if let response = parse(received, isComplete: true) { return response }
        throw TransportTestFailure(
          "no complete HTTP response for \(path): \(String(decoding: received, as: UTF8.self))")
      }
      received += buffer[0..<count]
    }
  }

  private static func parse(_ bytes: [UInt8], isComplete: Bool = false) -> HTTPResponse? {
    let text = String(decoding: bytes, as: UTF8.self)
    guard let headerEnd = text.range(of: "\r\n\r\n") else { return nil }
    let lines = text[..<headerEnd.lowerBound].components(separatedBy: "\r\n")
    let statusParts = lines[0].split(separator: " ")
    guard statusParts.count >= 2, let status = Int(statusParts[1]) else { return nil }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
        .trimmingCharacters(in: .whitespaces)
    }
    let body = String(text[headerEnd.upperBound...])
    if status == 101 || status == 304 {
      return HTTPResponse(status: status, headers: headers, body: "")
    }
    if let length = headers["content-length"].flatMap(Int.init) {
      guard body.utf8.count >= length else { return nil }
    } else if !isComplete {
      return nil
    }
    return HTTPResponse(status: status, headers: headers, body: body)
  }

  /// The headers of a WebSocket upgrade request for `subprotocol` and `origin`.
  static func upgradeHeaders(subprotocol: String?, origin: String?) -> [String: String] {
    var headers = [
      "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
      "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
    ]
    if let subprotocol { headers["Sec-WebSocket-Protocol"] = subprotocol }
    if let origin { headers["Origin"] = origin }
    return headers
  }
}
