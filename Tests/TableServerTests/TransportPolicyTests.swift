import TableModel
import Testing

@testable import TableClient
@testable import TableServer

@Suite("Transport: origin, upgrade, reassembly and queue rules, without sockets")
struct TransportPolicyTests {
  @Test(
    arguments: [
      (nil, "127.0.0.1:8080", true),  // not a browser
      ("http://127.0.0.1:8080", "127.0.0.1:8080", true),
      ("HTTP://127.0.0.1:8080/", "127.0.0.1:8080", true),
      ("http://localhost", "localhost:80", true),
      ("https://example.test", "example.test:443", true),
      ("http://[::1]:8080", "[::1]:8080", true),
      ("http://127.0.0.1:8081", "127.0.0.1:8080", false),
      ("http://localhost:8080", "127.0.0.1:8080", false),
      ("https://127.0.0.1:8080", "127.0.0.1:8080", true),
      ("http://evil.example", "127.0.0.1:8080", false),
      ("null", "127.0.0.1:8080", false),
      ("file://", "127.0.0.1:8080", false),
      ("http://127.0.0.1:8080", nil, false),
      ("http://user@127.0.0.1:8080", "127.0.0.1:8080", false),
    ] as [(String?, String?, Bool)])
  func sameOriginByDefault(origin: String?, host: String?, allowed: Bool) {
    #expect(OriginPolicy(allowedOrigins: []).allows(origin: origin, host: host) == allowed)
  }

  @Test func listedOriginsAreAllowedWhateverTheHost() {
    let policy = OriginPolicy(allowedOrigins: ["http://LocalHost:3000/", "https://app.example"])
    #expect(policy.allows(origin: "http://localhost:3000", host: "127.0.0.1:8080"))
    #expect(policy.allows(origin: "https://app.example:443", host: "127.0.0.1:8080"))
    #expect(!policy.allows(origin: "http://app.example", host: "127.0.0.1:8080"))
    #expect(OriginPolicy(allowedOrigins: ["not an origin"]).allowedOrigins.isEmpty)
  }

  @Test(
    arguments: [
      ("/ws", "tableweb.v1", UpgradePolicy.Decision.accept),
      ("/ws", " chat ,tableweb.v1", .accept),
      ("/ws", nil, .refuse(status: 403, reason: "subprotocol tableweb.v1 required")),
      ("/ws", "tableweb.v2", .refuse(status: 403, reason: "subprotocol tableweb.v1 required")),
      ("/ws", "http,tableweb.v1", .refuse(status: 403, reason: "subprotocol tableweb.v1 required")),
      ("/", "tableweb.v1", .refuse(status: 404, reason: "no WebSocket endpoint at /")),
    ] as [(String, String?, UpgradePolicy.Decision)])
  func upgradeNeedsThePathAndTheSubprotocol(
    path: String, subprotocols: String?, decision: UpgradePolicy.Decision
  ) {
    let policy = UpgradePolicy(
      origins: OriginPolicy(allowedOrigins: []), otherProtocolNames: ["http"])
    #expect(
      policy.decide(path: path, subprotocols: subprotocols, origin: nil, host: nil) == decision)
  }

  @Test(
    arguments: [
      ("127.0.0.1:8080", true),
      ("localhost", true),
      ("LOCALHOST:1", true),
      ("[::1]:8080", true),
      ("[::1]", true),
      ("127.1.2.3:9", true),
      ("tables.example", true),  // allowed by name
      ("Tables.Example:443", true),
      (nil, true),  // not a browser
      ("evil.example:8080", false),
      ("evil.example", false),
      ("localhost.evil.example", false),
      ("127.0.0.1.evil.example:8080", false),
      ("10.0.0.1:8080", false),
      ("[::1]x", false),
      ("localhost:http", false),
      (":8080", false),
      ("", false),
      ("user@localhost", false),
    ] as [(String?, Bool)])
  func aLoopbackServerAnswersLoopbackHostsAndTheNamedOnes(host: String?, allowed: Bool) {
    let policy = HostPolicy(listeningOn: "127.0.0.1", allowedHosts: [" tables.example "])
    #expect(policy.allows(host: host) == allowed)
    let upgrade = UpgradePolicy(
      origins: OriginPolicy(allowedOrigins: []), otherProtocolNames: ["http"], hosts: policy)
    let decision = upgrade.decide(path: "/ws", subprotocols: "tableweb.v1", origin: nil, host: host)
    #expect(decision == (allowed ? .accept : .refuse(status: 403, reason: "host not allowed")))
    #expect(decision.countedReason == (allowed ? nil : .host))
  }

  @Test func hostsAreCheckedOnLoopbackOrOnceNamed() {
    for loopback in ["127.0.0.1", "127.0.0.2", "localhost", "::1"] {
      #expect(HostPolicy(listeningOn: loopback, allowedHosts: []).checks, "\(loopback)")
    }
    let everywhere = HostPolicy(listeningOn: "0.0.0.0", allowedHosts: [])
    #expect(!everywhere.checks && everywhere.allows(host: "anything.example"))
    let named = HostPolicy(listeningOn: "0.0.0.0", allowedHosts: ["tables.example", ""])
    #expect(named.allowedHosts == ["tables.example"])
    #expect(named.allows(host: "tables.example:8080") && named.allows(host: "127.0.0.1:8080"))
    #expect(!named.allows(host: "192.168.1.5:8080"))
  }

  @Test(
    arguments: [
      // Scripts: no Origin.
      ("POST", "/api/commands", nil, "application/json", nil),
      ("POST", "/api/commands", nil, "Application/JSON; charset=utf-8", nil),
      ("POST", "/api/commands", nil, nil, HTTPRefusal.Reason.contentType),
      ("POST", "/api/commands", nil, "text/plain", .contentType),
      ("POST", "/api/commands", nil, "application/x-www-form-urlencoded", .contentType),
      ("POST", "/api/commands", nil, "application/jsonp", .contentType),
      // The page itself, and an allowed origin.
      ("POST", "/api/commands", "http://127.0.0.1:8080", "application/json", nil),
      ("POST", "/api/commands", "http://localhost:3000", "application/json", nil),
      // Another site, whatever it declares.
      ("POST", "/api/commands", "http://evil.example", "text/plain", .origin),
      ("POST", "/api/commands", "http://evil.example", "application/json", .origin),
      ("POST", "/api/commands", "null", "application/json", .origin),
      // Not a write.
      ("GET", "/api/commands", "http://evil.example", nil, nil),
      ("POST", "/healthz", "http://evil.example", "text/plain", nil),
    ] as [(String, String, String?, String?, HTTPRefusal.Reason?)])
  func writesNeedJSONFromAnOriginTheUpgradeWouldAllow(
    method: String, path: String, origin: String?, contentType: String?,
    refused: HTTPRefusal.Reason?
  ) {
    let policy = WritePolicy(origins: OriginPolicy(allowedOrigins: ["http://localhost:3000"]))
    let request = HTTPRequest(
      method: method, path: path, origin: origin, host: "127.0.0.1:8080", contentType: contentType)
    let refusal = policy.refusal(for: request)
    #expect(refusal?.reason == refused)
    if refused == .contentType {
      #expect(refusal?.status == 415 && refusal?.message.contains("application/json") == true)
    } else if refused == .origin {
      #expect(refusal?.status == 403)
    }
  }

  @Test(
    arguments: [
      ("tableweb.v1, tableweb.hello.eyJ0eXBlIjoiaGVsbG8ifQ", #"{"type":"hello"}"#),
      // base64url: "-" and "_" for "+" and "/", no padding.
      ("tableweb.v1,tableweb.hello.Pz8_Pj4-", "???>>>"),
      ("tableweb.v1, tableweb.hello.@@", "@@"),  // not base64: the session answers bad_json
      ("tableweb.v1", nil), (nil, nil),
    ] as [(String?, String?)])
  func aHelloMayRideInTheUpgrade(subprotocols: String?, hello: String?) {
    #expect(UpgradePolicy.hello(in: subprotocols) == hello)
  }

  @Test func thePageIsSentInTheEncodingTheBrowserAccepts() {
    #expect(EmbeddedPage.acceptedEncodings("gzip, deflate, br") == ["gzip", "deflate", "br"])
    #expect(EmbeddedPage.acceptedEncodings("br;q=0, GZIP;q=0.5") == ["gzip"])
    #expect(EmbeddedPage.acceptedEncodings(nil).isEmpty)
    let page = EmbeddedPage.response(path: "/", acceptEncoding: "gzip", ifNoneMatch: nil)
    #expect(page?.headers["content-encoding:"] == "gzip")
    #expect(page?.headers["cache-control:"] == "no-cache")
    let etag = page?.headers["etag:"]
    #expect(EmbeddedPage.response(path: "/", acceptEncoding: nil, ifNoneMatch: etag)?.status == 304)
    #expect(
      EmbeddedPage.response(path: "/nothing.js", acceptEncoding: nil, ifNoneMatch: nil) == nil)
  }

  @Test func theServiceWorkerNamesThisBuildUnlessTurnedOff() throws {
    let page = try #require(EmbeddedPage.response(path: "/", acceptEncoding: nil, ifNoneMatch: nil))
    let built = try #require(
      EmbeddedPage.response(path: "/sw.js", acceptEncoding: nil, ifNoneMatch: nil))
    let worker = String(decoding: built.body, as: UTF8.self)
    #expect(built.headers["cache-control:"] == "no-cache")
    #expect(worker.contains("const FILES = { html: \"\\\""))
    #expect(!worker.contains("const BUILD = null;"))
    #expect(worker.contains(page.headers["etag:"]!.replacingOccurrences(of: "\"", with: "\\\"")))
    let off = try #require(
      EmbeddedPage.response(path: "/sw.js", acceptEncoding: nil, ifNoneMatch: nil, worker: false))
    #expect(String(decoding: off.body, as: UTF8.self).contains("const BUILD = null;"))
    #expect(WebSocketServer.contentSecurityPolicy.contains("worker-src 'self'"))
  }

  @Test func theAssemblerJoinsPiecesAndDropsWhatIsTooLarge() {
    var assembler = MessageAssembler(limit: 8)
    func append(_ text: String, final: Bool) -> MessageAssembler.Outcome {
      Array(text.utf8).withUnsafeBytes { assembler.append($0, isFinal: final) }
    }
    #expect(append("abcd", final: false) == .incomplete)
    #expect(append("efgh", final: true) == .message(Array("abcdefgh".utf8)))
    #expect(append("12345", final: false) == .incomplete)
    #expect(append("6789", final: false) == .tooLarge)
    #expect(append("more of it", final: false) == .incomplete)
    #expect(append("end", final: true) == .incomplete)
    #expect(!assembler.isHoldingPartialMessage)
    #expect(append("next", final: true) == .message(Array("next".utf8)))
    #expect(append("123456789", final: true) == .tooLarge)
    #expect(append("ok", final: true) == .message(Array("ok".utf8)))
  }

  @Test func theQueueIsBoundedInFramesAndBytes() {
    var queue = OutgoingQueue(maxFrames: 3, maxBytes: 10)
    func append(_ text: String) -> Bool { queue.append(OutgoingFrame(text)) }
    // An empty queue takes any one frame, however large; nothing fits after it.
    let accepted = [append(String(repeating: "x", count: 50)), append("a")]
    #expect(accepted == [true, false])
    let first = queue.popFirst()
    #expect(first?.utf8.count == 50)
    // Then 10 bytes, 3 frames.
    let results = [append("1234"), append("5678"), append("90ab"), append("9"), append("")]
    #expect(results == [true, true, false, true, false])
    #expect(queue.count == 3 && queue.byteCount == 9)
    queue.replace(with: [OutgoingFrame("screen")])
    #expect(queue.count == 1 && queue.byteCount == 6)
    let screen = queue.popFirst()
    #expect(screen?.text == "screen")
    let none = queue.popFirst()
    #expect(none == nil && queue.isEmpty && queue.byteCount == 0)
  }
}
