import Testing

@testable import TableServer

@Suite("Transport: static files", .timeLimit(.minutes(1)))
struct TransportStaticFileTests {
  @Test func servesFilesWithTheirMIMETypes() async throws {
    let expected = [
      "index.html": "text/html", "app.js": "text/javascript", "model.mjs": "text/javascript",
      "style.css": "text/css", "icon.svg": "image/svg+xml", "data.json": "application/json",
      "image.png": "image/png", "favicon.ico": "image/x-icon", "font.woff2": "font/woff2",
    ]
    let server = try TestServer(files: expected.mapValues { "content of \($0)" })
    for (file, type) in expected {
      let response = try HTTPResponse.fetch(port: server.port, path: "/\(file)")
      #expect(response.status == 200, "\(file)")
      #expect(
        response.headers["content-type"]?.hasPrefix(type) == true, "\(file): \(response.headers)")
      #expect(response.body == "content of \(type)")
    }
    await server.stop()
  }

  @Test func servesIndexAtTheRootAndAsksToRevalidate() async throws {
    let server = try TestServer()
    let response = try HTTPResponse.fetch(port: server.port, path: "/")
    #expect(response.status == 200)
    #expect(response.body == "<h1>tableweb</h1>")
    #expect(response.headers["cache-control"] == "no-cache")
    #expect(response.headers["x-content-type-options"] == "nosniff")
    let etag = try #require(response.headers["etag"])
    let again = try HTTPResponse.fetch(
      port: server.port, path: "/", headers: ["If-None-Match": etag])
    #expect(again.status == 304)
    await server.stop()
  }

  @Test func answers404ForMissingFiles() async throws {
    let server = try TestServer()
    #expect(try HTTPResponse.fetch(port: server.port, path: "/missing.js").status == 404)
    await server.stop()
  }

  @Test(arguments: [
    "/../secret.txt", "/%2e%2e/secret.txt", "/a/../../secret.txt", "/..%2fsecret.txt",
  ])
  func refusesPathsOutsideTheFolder(path: String) async throws {
    let server = try TestServer()
    let response = try HTTPResponse.fetch(port: server.port, path: path)
    #expect(response.status != 200)
    #expect(!response.body.contains("top secret"))
    await server.stop()
  }
}
