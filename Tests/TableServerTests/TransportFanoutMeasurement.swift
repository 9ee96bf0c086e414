import Foundation
import Testing

@testable import TableServer

#if canImport(Glibc)
  import Glibc
#endif

/// Not a check but a measurement, run by hand: `TABLEWEB_MEASURE=1000 swift test --filter
/// measureFanout` opens that many raw WebSocket connections and times one 250-byte frame
/// until every one of them has it (transport only: no sessions, no encoding).
@Test(.enabled(if: ProcessInfo.processInfo.environment["TABLEWEB_MEASURE"] != nil))
func measureFanout() async throws {
  let n = Int(ProcessInfo.processInfo.environment["TABLEWEB_MEASURE"]!)!
  let server = try TestServer()
  var sockets: [RawSocket] = []
  for _ in 0..<n {
    let socket = try RawSocket(port: server.port)
    try socket.send(
      "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + HTTPResponse.upgradeHeaders(subprotocol: "tableweb.v1", origin: nil)
        .map { "\($0): \($1)\r\n" }.joined() + "\r\n")
    sockets.append(socket)
  }
  #expect(server.delegate.wait(timeout: 30) { $0.count == n })
  try await Task.sleep(for: .milliseconds(200))
  for socket in sockets { _ = socket.receiveAvailable() }
  let payload = String(repeating: "x", count: 250)
  let frameSize = payload.utf8.count + 4  // 126-length header
  let transport = server.server
  var times: [Double] = []
  let enqueue = Recorded<Duration>()
  for _ in 0..<50 {
    let started = ContinuousClock.now
    transport.perform {
      let enqueueStart = ContinuousClock.now
      let frame = OutgoingFrame(payload)
      for number in 1...UInt64(n) { transport.send(frame, to: ConnectionID(number)) }
      enqueue.set(ContinuousClock.now - enqueueStart)
    }
    var pending = Array(sockets.indices)
    var got = [Int](repeating: 0, count: n)
    while !pending.isEmpty {
      var fds = pending.map {
        pollfd(fd: sockets[$0].descriptor, events: Int16(POLLIN), revents: 0)
      }
      _ = poll(&fds, nfds_t(fds.count), 1000)
      var stillPending: [Int] = []
      for (slot, index) in pending.enumerated() {
        if fds[slot].revents != 0 { got[index] += sockets[index].receiveAvailable() }
        if got[index] < frameSize { stillPending.append(index) }
      }
      pending = stillPending
    }
    times.append(Double((ContinuousClock.now - started).components.attoseconds) / 1e15)
    try await Task.sleep(for: .milliseconds(20))
  }
  times.sort()
  print("enqueue of the last round: \(enqueue.wait()!)")
  print(
    "fanout N=\(n): p50 \(times[times.count / 2]) ms, p99 \(times[times.count * 99 / 100]) ms, max \(times.last!) ms"
  )
  await server.stop()
}
