import Glibc

/// A plain `GET` of `path` from a server on 127.0.0.1:`port`: the response, headers and
/// all (for `/metrics`).
func httpGet(_ path: String, port: Int) throws -> String {
  let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  defer { close(fd) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = UInt16(port).bigEndian
  address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
  let connected = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
    }
  }
  guard connected else { throw BenchError("cannot reach the server for \(path)") }
  let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
  _ = request.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
  var received: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 65536)
  while true {
    let count = read(fd, &buffer, buffer.count)
    if count <= 0 { break }
    received += buffer[0..<count]
  }
  return String(decoding: received, as: UTF8.self)
}

/// The sum over `ports` of a metric's sample in each server's `/metrics` (its name with
/// any labels, as the line starts: `tableweb_group_commits_total{result="committed"}`).
func metricSum(_ sample: String, ports: [Int]) throws -> Double {
  var sum = 0.0
  for port in ports {
    let text = try httpGet("/metrics", port: port)
    for line in text.split(separator: "\n") where line.hasPrefix(sample + " ") {
      sum += Double(line.split(separator: " ").last ?? "") ?? 0
    }
  }
  return sum
}
