import ArgumentParser
import Foundation
import Glibc
import TableStore

/// Can anyone lock the others out? A fresh visitor's page plus first screen, and an
/// editor's round trip, side by side: alone, and while others abuse the real
/// `tableweb serve` (default limits) from several loopback addresses: slow headers, one
/// connection's flood, 16 MiB frames, a crowd of rate-limited editors. The server's memory
/// in each.
struct AbuseBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "abuse",
    abstract: "A fresh visitor and an editor while others try to lock them out.")

  @Option(help: "Slow-header connections, from 127.0.0.2 and up.")
  var slowConnections = 1000

  @Option(help: "Addresses the slow connections come from.")
  var addresses = 16

  @Option(help: "The fresh visitor's tries in each case, one every --interval seconds.")
  var tries = 20

  @Option(help: "Seconds between the visitor's tries.")
  var interval = 1.0

  @Option(help: "The tableweb executable (default: next to this one).")
  var server: String?

  func run() throws {
    let limit = raiseFileLimit()
    guard slowConnections + 400 <= limit else {
      throw ValidationError("\(slowConnections) connections need more than \(limit) files")
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tablebench-abuse-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let database = folder.appendingPathComponent("abuse.sqlite").path
    let app = folder.appendingPathComponent("app.json")
    try Data(Self.app.utf8).write(to: app)
    let executable = try BenchmarkServer.tableweb(server)
    try BenchmarkServer.runToEnd(executable, ["import", app.path, "--db", database])
    let port = try freeLoopbackPort()
    let process = try BenchmarkServer.start(
      executable: server, port: port, database: database, limits: .defaults)
    defer {
      process.terminate()
      process.waitUntilExit()
    }
    try BenchmarkServer.waitForPort(UInt16(port))
    let pid = process.processIdentifier
    print(
      "tableweb serve, default limits, pid \(pid), port \(port); load \(loadAverage()); "
        + "\(tries) tries a case, one every \(interval) s")
    print(
      "\("case".padding(toLength: 54, withPad: " ", startingAt: 0))"
        + "visitor page+screen ms p50 / max         editor round trip ms p50 / p99   server RSS MiB"
    )

    var report = Report(pid: pid, process: process)
    try report.measure("alone", port: port, tries: tries, interval: interval)

    let crowd = SlowHeaderCrowd(
      port: port, count: slowConnections,
      sources: (0..<addresses).map { "127.0.0.\(2 + $0)" })
    crowd.start()
    Thread.sleep(forTimeInterval: 3)
    try report.measure(
      "\(slowConnections) slow-header conns from \(addresses) addresses", port: port, tries: tries,
      interval: interval)
    let slow = crowd.figures
    crowd.stop()
    print(
      "    (slow connections open at the end, as the attacker sees them: \(slow.held); dropped or refused with 503 and back: \(slow.comebacks))"
    )

    let flood = Flood(port: port)
    flood.start()
    try report.measure(
      "one connection flooding 50,000 updates, over and over", port: port, tries: tries,
      interval: interval)
    let floods = flood.stop()
    print(
      "    (floods: \(floods.rounds), each closed with \(floods.closeCodes.sorted().map(String.init).joined(separator: ",")) after \(floods.refusedByRef) refusals naming their ref)"
    )

    let big = BigFrames(port: port)
    big.start()
    try report.measure(
      "16 MiB frames, one every 0.5 s", port: port, tries: tries, interval: interval)
    let frames = big.stop()
    print("    (16 MiB frames sent: \(frames.sent), answered too_large: \(frames.tooLarge))")

    let editors = RateLimitedCrowd(port: port, count: 100, perSecond: 45)
    editors.start()
    try report.measure(
      "100 editors at 45 updates/s each", port: port, tries: tries, interval: interval)
    let crowdFigures = editors.stop()
    print(
      "    (crowd: \(crowdFigures.sent) updates sent, \(crowdFigures.acked) acknowledged, \(crowdFigures.refused) refused)"
    )
  }

  /// Home → Tasks (editable, 10 rows; the first leads to Detail): the lists the editors
  /// and floods use.
  static let app = """
    {"id":"Lhome","title":"Home","sections":[{"id":"Shome","rows":[
      {"id":"Rtasks","text":"Tasks","children":{"id":"Ltasks","title":"Tasks","editable":true,
        "sections":[{"id":"Stodo","rows":[
          {"id":"R0","text":"Row 0","children":{"id":"Ldetail","title":"Detail",
            "sections":[{"id":"Sdetail","rows":[{"id":"Rdetail","text":"Detail"}]}]}},
          \((1..<10).map { #"{"id":"R\#($0)","text":"Row \#($0)"}"# }.joined(separator: ","))]}]}}]}]}
    """
}

/// The visitor's and the editor's figures, one line a case.
private struct Report {
  let pid: Int32
  let process: ChildProcess

  mutating func measure(_ name: String, port: Int, tries: Int, interval: Double) throws {
    guard process.isRunning else {
      throw BenchError("tableweb serve exited with \(process.terminationStatus) before: \(name)")
    }
    let editor = try Editor(port: port)
    var visits: [Double] = []
    var failures = 0
    var roundTrips: [Double] = []
    for attempt in 0..<tries {
      let started = ContinuousClock.now
      if let visit = try? visitOnce(port: port) {
        visits.append(visit)
      } else {
        failures += 1
      }
      // Editor round trips fill the rest of the second.
      while ContinuousClock.now - started < .seconds(interval) {
        roundTrips.append(try editor.roundTrip(text: "\(name.prefix(8)) \(attempt)"))
        Thread.sleep(forTimeInterval: 0.02)
      }
    }
    visits.sort()
    roundTrips.sort()
    let rss = Double(try residentKiB(of: pid)) / 1024
    let visitor =
      visits.isEmpty
      ? "none of \(tries)"
      : "\(format(percentile(visits, 0.5))) / \(format(visits.last!)) "
        + "(\(visits.filter { $0 < 1000 }.count)/\(tries) in 1 s)"
    print(
      "\(name.padding(toLength: 54, withPad: " ", startingAt: 0))"
        + "\(visitor.padding(toLength: 40, withPad: " ", startingAt: 0))"
        + "\(format(percentile(roundTrips, 0.5))) / \(format(percentile(roundTrips, 0.99)))"
        .padding(toLength: 33, withPad: " ", startingAt: 0)
        + String(format: "%.1f", rss))
  }

  /// GET / then /style.css and /main.js on one kept-alive connection, then a WebSocket
  /// with hello until its first screen: milliseconds, or a throw past 5 s.
  private func visitOnce(port: Int) throws -> Double {
    let started = ContinuousClock.now
    let fd = try connectedSocket(port: port, from: "127.0.0.1", timeout: .seconds(5))
    defer { close(fd) }
    for path in ["/", "/style.css", "/main.js"] {
      let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
      guard send(fd, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else {
        throw BenchError("send failed")
      }
      try readResponse(fd)
    }
    let socket = try BlockingWebSocket(port: port)
    try socket.send(#"{"type":"hello","session":null}"#)
    _ = try socket.receive(containing: #""type":"screen""#)
    return milliseconds(ContinuousClock.now - started)
  }

  /// Reads one response with a content-length body; throws unless it is 200.
  private func readResponse(_ fd: Int32) throws {
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = recv(fd, &buffer, buffer.count, 0)
      guard count > 0 else { throw BenchError("no answer") }
      received += buffer[0..<count]
      guard let end = headerEnd(received) else { continue }
      let head = String(decoding: received[0..<end], as: UTF8.self).lowercased()
      guard head.hasPrefix("http/1.1 200") else { throw BenchError(String(head.prefix(40))) }
      let length =
        head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
        .flatMap { Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) } ?? 0
      if received.count >= end + length { return }
    }
  }
}

/// An editor on the Tasks list: one update at a time, timed to its ack.
private final class Editor {
  let socket: BlockingWebSocket
  var ref = 1

  init(port: Int) throws {
    socket = try BlockingWebSocket(port: port)
    try socket.send(#"{"type":"hello","session":null}"#)
    try socket.send(#"{"type":"tap","list":"Lhome","row":"Rtasks","ref":0}"#)
    _ = try socket.receive(containing: #""ref":0"#)
  }

  func roundTrip(text: String) throws -> Double {
    ref += 1
    let started = ContinuousClock.now
    try socket.send(
      #"{"type":"update","list":"Ltasks","row":"R0","text":"\#(text)","ref":\#(ref)}"#)
    _ = try socket.receive(containing: #""ref":\#(ref),"#)
    return milliseconds(ContinuousClock.now - started)
  }
}

/// Something that runs on its own thread until stopped.
private class Actor: @unchecked Sendable {
  let port: Int
  let lock = NSLock()
  private var stopping = false
  private let done = DispatchSemaphore(value: 0)

  init(port: Int) { self.port = port }

  var isStopping: Bool { lock.withLock { stopping } }

  func start() {
    Thread { [self] in
      body()
      done.signal()
    }.start()
  }

  func body() {}

  func finish() {
    lock.withLock { stopping = true }
    done.wait()
  }
}

/// One connection at a time sends up to 50,000 updates as fast as it can, reading nothing
/// until it is cut; then the next one.
private final class Flood: Actor, @unchecked Sendable {
  private var rounds = 0
  private var closeCodes: Set<Int> = []
  private var refusedByRef = 0

  override func body() {
    while !isStopping {
      guard let socket = try? BlockingWebSocket(port: port) else { continue }
      _ = try? socket.send(#"{"type":"hello","session":null}"#)
      _ = try? socket.send(#"{"type":"tap","list":"Lhome","row":"Rtasks","ref":0}"#)
      for ref in 1...50_000 {
        guard
          (try? socket.send(
            #"{"type":"update","list":"Ltasks","row":"R1","text":"x","ref":\#(ref)}"#))
            != nil
        else { break }
      }
      var refusals = 0
      while let incoming = try? socket.receive() {
        if case .text(let text) = incoming, text.contains("rate_limited"),
          !text.contains(#""ref":null"#)
        {
          refusals += 1
        }
        if case .closed(let code, _) = incoming {
          lock.withLock {
            rounds += 1
            closeCodes.insert(code)
            refusedByRef += refusals
          }
          break
        }
      }
    }
  }

  func stop() -> (rounds: Int, closeCodes: Set<Int>, refusedByRef: Int) {
    finish()
    return lock.withLock { (rounds, closeCodes, refusedByRef) }
  }
}

/// One connection sends a 16 MiB update every 0.5 s.
private final class BigFrames: Actor, @unchecked Sendable {
  private var sent = 0
  private var tooLarge = 0

  override func body() {
    guard let socket = try? BlockingWebSocket(port: port) else { return }
    _ = try? socket.send(#"{"type":"hello","session":null}"#)
    let text = String(repeating: "x", count: 16 << 20)
    var ref = 0
    while !isStopping {
      ref += 1
      guard
        (try? socket.send(
          #"{"type":"update","list":"Ltasks","row":"R2","text":"\#(text)","ref":\#(ref)}"#))
          != nil
      else { return }
      let answer = try? socket.receive(containing: "too_large")
      lock.withLock {
        sent += 1
        if answer != nil { tooLarge += 1 }
      }
      Thread.sleep(forTimeInterval: 0.5)
    }
  }

  func stop() -> (sent: Int, tooLarge: Int) {
    finish()
    return lock.withLock { (sent, tooLarge) }
  }
}

/// `count` connections, each sending `perSecond` updates a second (under the limit of
/// 50) to Tasks from the screen pushed above it (Detail: a session writes to the lists on
/// its stack), so that the crowd's own diffs do not bury the measurement.
private final class RateLimitedCrowd: Actor, @unchecked Sendable {
  let count: Int
  let perSecond: Int
  private var sent = 0
  private var acked = 0
  private var refused = 0

  init(port: Int, count: Int, perSecond: Int) {
    self.count = count
    self.perSecond = perSecond
    super.init(port: port)
  }

  override func body() {
    let members = (0..<count).compactMap { _ in try? BlockingWebSocket(port: port) }
    for member in members {
      _ = try? member.send(#"{"type":"hello","session":null}"#)
      _ = try? member.send(#"{"type":"tap","list":"Lhome","row":"Rtasks","ref":0}"#)
      _ = try? member.send(#"{"type":"tap","list":"Ltasks","row":"R0","ref":0}"#)
    }
    let readers = members.map { member in
      let thread = Thread { [self] in
        while let incoming = try? member.receive() {
          guard case .text(let text) = incoming else { break }
          // The taps into Detail are ref 0; the updates count from 1.
          if text.hasPrefix(#"{"type":"ack""#), !text.contains(#""ref":0"#) {
            lock.withLock { acked += 1 }
          }
          if text.contains("rate_limited") { lock.withLock { refused += 1 } }
        }
      }
      thread.start()
      return thread
    }
    var ref = 0
    let start = ContinuousClock.now
    while !isStopping {
      ref += 1
      for (index, member) in members.enumerated() {
        _ = try? member.send(
          #"{"type":"update","list":"Ltasks","row":"R\#(3 + index % 7)","text":"\#(ref)","ref":\#(ref)}"#
        )
      }
      lock.withLock { sent += members.count }
      let next = start + .seconds(Double(ref) / Double(perSecond))
      let wait = next - ContinuousClock.now
      if wait > .zero {
        Thread.sleep(
          forTimeInterval: Double(wait.components.attoseconds) / 1e18
            + Double(wait.components.seconds))
      }
    }
    Thread.sleep(forTimeInterval: 1)
    for member in members { shutdown(member.fd, Int32(SHUT_RDWR)) }
    _ = readers
  }

  func stop() -> (sent: Int, acked: Int, refused: Int) {
    finish()
    return lock.withLock { (sent, acked, refused) }
  }
}
