import Glibc

/// Many WebSocket clients on one thread over plain POSIX sockets and epoll: just enough
/// of RFC 6455 (handshake, masked text frames out, unmasked frames in, ping → pong) to
/// measure the server, not the client.
///
/// Must stay on the thread that made it.
final class FanoutClients {
  struct Client {
    var fd: Int32
    var isOpen = false
    var inbox: [UInt8] = []
    var fragments: [UInt8] = []
  }

  private(set) var clients: [Client] = []
  let port: UInt16
  private let epoll = Epoll()
  private var readyIndices: [Int] = []
  private var readBuffer = [UInt8](repeating: 0, count: 65536)

  init(port: Int) {
    self.port = UInt16(port)
  }

  deinit {
    for client in clients where client.fd >= 0 { Glibc.close(client.fd) }
  }

  /// Closes client `index`'s connection (its index stays taken; nothing more arrives).
  func close(_ index: Int) {
    guard clients[index].fd >= 0 else { return }
    Glibc.close(clients[index].fd)
    clients[index].fd = -1
    clients[index].isOpen = false
  }

  /// Opens a TCP connection to `port` (default: the one given at init) and sends the
  /// upgrade request; returns the client's index. One set of clients may span servers.
  func open(port: UInt16? = nil) throws -> Int {
    let port = port ?? self.port
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw BenchError("socket: errno \(errno) (raise ulimit -n?)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else {
      Glibc.close(fd)
      throw BenchError("connect to 127.0.0.1:\(port): errno \(errno)")
    }
    var noDelay: Int32 = 1
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
    let index = clients.count
    clients.append(Client(fd: fd))
    epoll.add(fd, index: index)
    let request =
      "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      + "Sec-WebSocket-Key: dGFibGV3ZWJmYW5vdXQxMg==\r\nSec-WebSocket-Version: 13\r\n"
      + "Sec-WebSocket-Protocol: tableweb.v1\r\nOrigin: http://127.0.0.1:\(port)\r\n\r\n"
    try write(Array(request.utf8), to: index)
    return index
  }

  /// Sends one text message.
  func send(_ text: String, to index: Int) throws {
    try write(clientTextFrame(text, mask: [0x37, 0xFA, 0x21, 0x3D]), to: index)
  }

  private func write(_ bytes: [UInt8], to index: Int) throws {
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes {
        Glibc.write(clients[index].fd, $0.baseAddress, $0.count)
      }
      guard count > 0 else {
        if errno == EINTR || errno == EAGAIN { continue }
        throw BenchError("write: errno \(errno)")
      }
      sent += count
    }
  }

  /// Waits up to `timeout` for input and hands every complete message to `handle`
  /// (client index, text). Returns how many messages arrived.
  @discardableResult
  func pump(timeoutMilliseconds: Int32, _ handle: (Int, [UInt8]) throws -> Void) throws -> Int {
    try epoll.wait(timeoutMilliseconds: timeoutMilliseconds, into: &readyIndices)
    var delivered = 0
    for index in readyIndices {
      let count = read(clients[index].fd, &readBuffer, readBuffer.count)
      guard count > 0 else {
        if count < 0 && (errno == EAGAIN || errno == EINTR) { continue }
        throw BenchError("client \(index): the server closed the connection")
      }
      clients[index].inbox += readBuffer[0..<count]
      delivered += try drain(index, handle)
    }
    return delivered
  }

  private func drain(_ index: Int, _ handle: (Int, [UInt8]) throws -> Void) throws -> Int {
    var delivered = 0
    if !clients[index].isOpen {
      guard let end = headerEnd(clients[index].inbox) else { return 0 }
      let head = String(decoding: clients[index].inbox[0..<end], as: UTF8.self)
      guard head.hasPrefix("HTTP/1.1 101") else {
        throw BenchError("client \(index): upgrade refused: \(head.prefix(80))")
      }
      clients[index].inbox.removeFirst(end)
      clients[index].isOpen = true
    }
    var offset = 0
    let inbox = clients[index].inbox
    while inbox.count - offset >= 2 {
      let opcode = inbox[offset] & 0x0F
      let isFinal = inbox[offset] & 0x80 != 0
      var length = Int(inbox[offset + 1] & 0x7F)
      var header = 2
      if length == 126 {
        guard inbox.count - offset >= 4 else { break }
        length = Int(inbox[offset + 2]) << 8 | Int(inbox[offset + 3])
        header = 4
      } else if length == 127 {
        guard inbox.count - offset >= 10 else { break }
        length = (0..<8).reduce(0) { $0 << 8 | Int(inbox[offset + 2 + $1]) }
        header = 10
      }
      guard inbox.count - offset >= header + length else { break }
      let payload = Array(inbox[(offset + header)..<(offset + header + length)])
      offset += header + length
      switch opcode {
      case 0x1, 0x0:
        clients[index].fragments += payload
        if isFinal {
          let message = clients[index].fragments
          clients[index].fragments = []
          try handle(index, message)
          delivered += 1
        }
      case 0x8: throw BenchError("client \(index): the server sent close")
      case 0x9: try sendPong(payload, to: index)
      default: break
      }
    }
    clients[index].inbox.removeFirst(offset)
    return delivered
  }

  private func sendPong(_ payload: [UInt8], to index: Int) throws {
    var frame: [UInt8] = [0x8A, 0x80 | UInt8(payload.count), 0, 0, 0, 0]
    frame += payload
    try write(frame, to: index)
  }
}

struct BenchError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// epoll(7), which Swift's Glibc module does not import: its three calls are looked up
/// with dlsym and its packed `struct epoll_event` is read as bytes. poll(2) would cost
/// the client O(connections) per wake-up and measure the client instead of the server.
private final class Epoll {
  private typealias Create = @convention(c) (Int32) -> Int32
  private typealias Control =
    @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
  private typealias Wait = @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) -> Int32

  #if arch(x86_64)
    private static let eventSize = 12  // packed: u32 events, u64 data
  #else
    private static let eventSize = 16
  #endif
  private static let dataOffset = eventSize == 12 ? 4 : 8
  private static let capacity = 4096

  private let control: Control
  private let waitForEvents: Wait
  private let fd: Int32
  private let events = UnsafeMutableRawPointer.allocate(
    byteCount: Epoll.capacity * Epoll.eventSize, alignment: 8)

  init() {
    let library = dlopen(nil, RTLD_NOW)
    guard let create = dlsym(library, "epoll_create1"), let control = dlsym(library, "epoll_ctl"),
      let wait = dlsym(library, "epoll_wait")
    else { preconditionFailure("no epoll in this libc") }
    self.control = unsafeBitCast(control, to: Control.self)
    waitForEvents = unsafeBitCast(wait, to: Wait.self)
    fd = unsafeBitCast(create, to: Create.self)(0)
    precondition(fd >= 0, "epoll_create1: errno \(errno)")
  }

  deinit {
    close(fd)
    events.deallocate()
  }

  func add(_ socket: Int32, index: Int) {
    var event = [UInt8](repeating: 0, count: Epoll.eventSize)
    event.withUnsafeMutableBytes { bytes in
      bytes.storeBytes(of: UInt32(1), toByteOffset: 0, as: UInt32.self)  // EPOLLIN
      bytes.storeBytes(of: UInt64(index), toByteOffset: Epoll.dataOffset, as: UInt64.self)
      let result = control(fd, 1, socket, bytes.baseAddress)  // EPOLL_CTL_ADD
      precondition(result == 0, "epoll_ctl: errno \(errno)")
    }
  }

  /// The indices of the sockets ready to read.
  func wait(timeoutMilliseconds: Int32, into ready: inout [Int]) throws {
    ready.removeAll(keepingCapacity: true)
    let count = waitForEvents(fd, events, Int32(Epoll.capacity), timeoutMilliseconds)
    guard count >= 0 else {
      if errno == EINTR { return }
      throw BenchError("epoll_wait: errno \(errno)")
    }
    for slot in 0..<Int(count) {
      let index = events.loadUnaligned(
        fromByteOffset: slot * Epoll.eventSize + Epoll.dataOffset, as: UInt64.self)
      ready.append(Int(index))
    }
  }
}
