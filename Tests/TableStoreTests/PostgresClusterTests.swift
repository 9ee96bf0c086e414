import Foundation
import StoreTestSupport
import TableStore
import Testing

/// The tests' throwaway cluster holds nothing of the test process's, and does not outlive it.
@Suite struct PostgresClusterTests {
  /// Started while this process holds a listening socket and a pipe (neither close-on-exec,
  /// as a test's server and its client hold them), the postmaster holds neither — nor any
  /// other socket or pipe of ours; so closing them here closes them: the port can be bound
  /// again and the pipe's reader sees its end.
  @Test func theClusterHoldsNoneOfTheTestProcessesDescriptors() throws {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    try #require(listener >= 0)
    var address = loopback(port: 0)
    try #require(Self.bind(listener, &address) == 0 && listen(listener, 8) == 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
    }
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    defer { close(ends[0]) }
    let ours = [listener, ends[0], ends[1]].map { descriptorTarget(getpid(), $0) }
    #expect(ours.allSatisfy { $0.hasPrefix("socket:[") || $0.hasPrefix("pipe:[") }, "\(ours)")

    let cluster = try PostgresCluster()
    defer { try? cluster.stop(mode: "immediate") }
    let postmaster = try #require(cluster.postmasterPID)
    let held = descriptorTargets(of: postmaster)
    #expect(held.count >= 3, "/proc/\(postmaster)/fd: \(held)")
    #expect(held.filter(ours.contains) == [], "the postmaster holds \(held)")
    let everyOther = Set(
      descriptorTargets(of: getpid()).filter { $0.hasPrefix("socket:") || $0.hasPrefix("pipe:") })
    #expect(held.filter(everyOther.contains) == [], "the postmaster holds \(held)")

    close(listener)
    let again = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(again) }
    #expect(
      Self.bind(again, &address) == 0, "port \(UInt16(bigEndian: address.sin_port)) is still bound")
    close(ends[1])
    var reader = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
    #expect(
      poll(&reader, 1, 5000) == 1 && reader.revents & Int16(POLLHUP) != 0,
      "the pipe has a writer still")
  }

  /// A test process that ends without stopping its cluster (as one that crashes or is
  /// killed does) ends at once — its output, which `swift test` reads to the end, is held
  /// by no process of the cluster — and the watchdog stops the cluster and removes its
  /// folder within seconds, while the test process is a zombie no one has reaped yet.
  @Test func aTestProcessThatEndsWithoutStoppingItsClusterTakesItAlong() throws {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    defer { close(ends[0]) }
    let testProcess = try ChildProcess(
      [
        try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
        "--testing-library", "swift-testing", "--filter", "startsAClusterAndEnds",
      ],
      environment: ProcessInfo.processInfo.environment.merging([Self.childVariable: "1"]) { $1 },
      output: .descriptor(ends[1]), error: .descriptor(ends[1]))
    defer {  // reaped only at the end: a zombie while the cluster goes (or a hung one, killed)
      testProcess.terminate()
      testProcess.waitUntilExit()
    }
    close(ends[1])
    let output = try readToEnd(ends[0], within: .seconds(120))
    let ended = ContinuousClock.now
    let words = try #require(
      output.split(separator: "\n").first { $0.hasPrefix("cluster ") },
      "the test process wrote \(output)"
    ).split(separator: " ")
    let postmaster = try #require(pid_t(words[1]))
    let folder = String(words[2])
    while FileManager.default.fileExists(atPath: folder) || isRunning(postmaster),
      ContinuousClock.now - ended < .seconds(20)
    {
      Thread.sleep(forTimeInterval: 0.05)
    }
    #expect(!isRunning(postmaster), "postmaster \(postmaster) still runs")
    #expect(!FileManager.default.fileExists(atPath: folder), "\(folder) is still there")
    testProcess.waitUntilExit()
    #expect(testProcess.terminationStatus == 0, "\(output)")
  }

  static let childVariable = "TABLEWEB_CLUSTER_TEST_CHILD"

  /// The test process of the test above: starts a cluster, says where, and ends.
  @Test(.enabled(if: ProcessInfo.processInfo.environment[childVariable] != nil))
  func startsAClusterAndEnds() throws {
    let cluster = try PostgresCluster()
    FileHandle.standardOutput.write(
      Data("cluster \(cluster.postmasterPID ?? 0) \(cluster.folder.path)\n".utf8))
  }

  private static func bind(_ fd: Int32, _ address: inout sockaddr_in) -> Int32 {
    withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
  }
}

private func loopback(port: UInt16) -> sockaddr_in {
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  address.sin_port = port.bigEndian
  return address
}

/// Everything `fd` gives until its end; throws when that takes longer than `limit`.
private func readToEnd(_ fd: Int32, within limit: Duration) throws -> String {
  let deadline = ContinuousClock.now + limit
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 4096)
  while true {
    var reader = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    guard ContinuousClock.now < deadline else {
      throw PipeTimeout(text: String(decoding: bytes, as: UTF8.self))
    }
    guard poll(&reader, 1, 100) > 0 else { continue }
    let count = read(fd, &buffer, buffer.count)
    if count < 0, errno == EINTR { continue }
    if count <= 0 { return String(decoding: bytes, as: UTF8.self) }
    bytes += buffer[..<count]
  }
}

private struct PipeTimeout: Error, CustomStringConvertible {
  var text: String
  var description: String { "the output did not end; so far: \(text)" }
}

/// What descriptor `fd` of process `pid` is: `socket:[INODE]`, `pipe:[INODE]`, a path.
private func descriptorTarget(_ pid: pid_t, _ fd: Int32) -> String {
  (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")) ?? ""
}

/// What every descriptor of process `pid` is.
private func descriptorTargets(of pid: pid_t) -> [String] {
  let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
  return names.compactMap { Int32($0) }.map { descriptorTarget(pid, $0) }.filter { !$0.isEmpty }
}

/// Whether process `pid` exists and has not ended (a zombie has: no parent may reap it here).
private func isRunning(_ pid: pid_t) -> Bool {
  guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
    let close = stat.lastIndex(of: ")")
  else { return false }
  return stat[stat.index(after: close)...].split(separator: " ").first != "Z"
}
