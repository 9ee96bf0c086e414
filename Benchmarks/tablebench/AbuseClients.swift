import Foundation
import Glibc

/// One WebSocket connection over a blocking socket, for one thread: a visitor, an editor,
/// a flooder. Just enough of RFC 6455 to measure the server. One thread may send while
/// another receives (the socket is the only state they share).
final class BlockingWebSocket: @unchecked Sendable {
  enum Incoming: Equatable {
    case text(String)
    case closed(code: Int, reason: String)
  }

  let fd: Int32
  private var inbox: [UInt8] = []

  /// Connects from `source` and upgrades `/ws`; throws when refused (the HTTP status).
  init(port: Int, from source: String = "127.0.0.1", timeout: Duration = .seconds(5)) throws {
    fd = try connectedSocket(port: port, from: source, timeout: timeout)
    let request =
      "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      + "Sec-WebSocket-Key: dGFibGV3ZWJhYnVzZTEyMw==\r\nSec-WebSocket-Version: 13\r\n"
      + "Sec-WebSocket-Protocol: tableweb.v1\r\n\r\n"
    try writeAll(Array(request.utf8))
    while headerEnd(inbox) == nil { try fill() }
    let end = headerEnd(inbox)!
    let head = String(decoding: inbox[0..<end], as: UTF8.self)
    inbox.removeFirst(end)
    guard head.hasPrefix("HTTP/1.1 101") else {
      Glibc.close(fd)
      throw BenchError("upgrade refused: \(head.prefix(40))")
    }
  }

  deinit { Glibc.close(fd) }

  func send(_ text: String) throws {
    try writeAll(clientTextFrame(text))
  }

  /// The next text message or the close; throws when the socket fails or times out.
  func receive() throws -> Incoming {
    while true {
      if inbox.count >= 2 {
        let opcode = inbox[0] & 0x0F
        var length = Int(inbox[1] & 0x7F)
        var header = 2
        if length == 126, inbox.count >= 4 {
          length = Int(inbox[2]) << 8 | Int(inbox[3])
          header = 4
        } else if length == 127, inbox.count >= 10 {
          length = (0..<8).reduce(0) { $0 << 8 | Int(inbox[2 + $1]) }
          header = 10
        }
        if length < 126 || header > 2, inbox.count >= header + length {
          let payload = Array(inbox[header..<(header + length)])
          inbox.removeFirst(header + length)
          switch opcode {
          case 0x1: return .text(String(decoding: payload, as: UTF8.self))
          case 0x8:
            let code = payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : 1005
            return .closed(
              code: code, reason: String(decoding: payload.dropFirst(2), as: UTF8.self))
          default: continue  // pings are answered by nobody: the runs are short
          }
        }
      }
      try fill()
    }
  }

  /// Reads until a message containing `marker`; the messages before it are dropped.
  func receive(containing marker: String) throws -> String {
    while true {
      switch try receive() {
      case .text(let text) where text.contains(marker): return text
      case .text: continue
      case .closed(let code, _): throw BenchError("closed with \(code) waiting for \(marker)")
      }
    }
  }

  private func fill() throws {
    var buffer = [UInt8](repeating: 0, count: 65536)
    let count = recv(fd, &buffer, buffer.count, 0)
    guard count > 0 else { throw BenchError("connection ended (errno \(errno))") }
    inbox += buffer[0..<count]
  }

  func writeAll(_ bytes: [UInt8]) throws {
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes {
        Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard count > 0 else {
        if errno == EINTR { continue }
        throw BenchError("send: errno \(errno)")
      }
      sent += count
    }
  }
}

/// A TCP connection to 127.0.0.1:`port` from `source`, with send and receive timeouts.
func connectedSocket(port: Int, from source: String, timeout: Duration) throws -> Int32 {
  let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard fd >= 0 else { throw BenchError("socket: errno \(errno)") }
  var local = sockaddr_in()
  local.sin_family = sa_family_t(AF_INET)
  local.sin_addr.s_addr = inet_addr(source)
  var remote = sockaddr_in()
  remote.sin_family = sa_family_t(AF_INET)
  remote.sin_port = UInt16(port).bigEndian
  remote.sin_addr.s_addr = inet_addr("127.0.0.1")
  var time = timeval(
    tv_sec: Int(timeout.components.seconds),
    tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
  var noDelay: Int32 = 1
  setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
  let ok =
    withUnsafePointer(to: &local) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
    && withUnsafePointer(to: &remote) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
  guard ok else {
    let error = errno
    close(fd)
    throw BenchError("connect from \(source): errno \(error)")
  }
  return fd
}

/// Connections that send an HTTP request's header lines one every `interval` and never
/// finish, from several addresses, coming back as soon as the server drops or refuses
/// them: a slowloris, on a thread of its own.
final class SlowHeaderCrowd: @unchecked Sendable {
  private struct Slot {
    var fd: Int32 = -1
    var nextLine = ContinuousClock.now
  }

  let port: Int
  let sources: [String]
  let count: Int
  let interval: Duration
  private let state = NSLock()
  private var stopping = false
  private var held = 0
  private var comebacks = 0
  private let done = DispatchSemaphore(value: 0)

  init(port: Int, count: Int, sources: [String], interval: Duration = .seconds(2)) {
    self.port = port
    self.count = count
    self.sources = sources
    self.interval = interval
  }

  /// How many are connected now, and how many times one was dropped or refused.
  var figures: (held: Int, comebacks: Int) {
    state.withLock { (held, comebacks) }
  }

  func start() {
    let thread = Thread { [self] in run() }
    thread.name = "slow-headers"
    thread.start()
  }

  func stop() {
    state.withLock { stopping = true }
    done.wait()
  }

  private func run() {
    var slots = [Slot](repeating: Slot(), count: count)
    var scratch = [UInt8](repeating: 0, count: 4096)
    while !state.withLock({ stopping }) {
      let now = ContinuousClock.now
      var open = 0
      var lost = 0
      for index in slots.indices {
        if slots[index].fd >= 0 {
          let read = recv(slots[index].fd, &scratch, scratch.count, Int32(MSG_DONTWAIT))
          if read == 0 || (read < 0 && errno != EAGAIN && errno != EWOULDBLOCK) || read > 0 {
            // Dropped (the header deadline) or answered (a 503): come back.
            close(slots[index].fd)
            slots[index].fd = -1
            lost += 1
          }
        }
        if slots[index].fd < 0 {
          guard
            let fd = try? connectedSocket(
              port: port, from: sources[index % sources.count], timeout: .milliseconds(200))
          else { continue }
          let line = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n"
          _ = send(fd, line, line.utf8.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
          slots[index] = Slot(fd: fd, nextLine: now + interval)
        } else if now >= slots[index].nextLine {
          _ = send(slots[index].fd, "X-Slow: 1\r\n", 11, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
          slots[index].nextLine = now + interval
        }
        open += slots[index].fd >= 0 ? 1 : 0
      }
      state.withLock {
        held = open
        comebacks += lost
      }
      usleep(100_000)
    }
    for slot in slots where slot.fd >= 0 { close(slot.fd) }
    done.signal()
  }
}

/// Where an HTTP head ends (after its blank line), or nil while it has not arrived.
func headerEnd(_ bytes: [UInt8]) -> Int? {
  guard bytes.count >= 4 else { return nil }
  for index in 3..<bytes.count
  where bytes[index] == 10 && bytes[index - 1] == 13 && bytes[index - 2] == 10
    && bytes[index - 3] == 13
  {
    return index + 1
  }
  return nil
}
