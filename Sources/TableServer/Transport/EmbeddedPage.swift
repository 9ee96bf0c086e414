import Foundation

/// The page (`Public/` of this package), built into the library by the EmbedPage plugin,
/// so that a server finds it wherever its binary runs. `WebSocketServer` serves it from
/// memory unless its configuration names a folder:
/// - `/` (`index.html`) is revalidated on every visit (`no-cache`, answered 304 while its
///   `ETag` holds); it names the page's code and style by their content hash;
/// - `page-HASH.js` (every module joined) and `style-HASH.css` are kept by browsers for a
///   year without asking again (`immutable`): a new page has new names;
/// - `sw.js`, the page's service worker, revalidated: it caches this build's HTML, code and
///   style, so that a second visit waits only for the WebSocket. With
///   `WebSocketServer.Configuration.pageWorker` false (and from a folder without one) it
///   is `Public/sw.js` unfilled, which caches nothing and drops what a built one cached;
/// - every file of `Public/` is also served under its own name, revalidated.
/// Each is sent brotli- or gzip-compressed (compressed once, when the page was built) to
/// a browser that accepts it.
package enum EmbeddedPage {
  /// One file as the plugin wrote it (base64).
  struct BuiltFile {
    var name: String
    var immutable: Bool
    var etag: String
    var identity: String
    var gzip: String?
    var brotli: String?
  }

  /// One file, decoded, ready to send.
  struct Entry: Sendable {
    var contentType: String
    var immutable: Bool
    var etag: String
    var identity: [UInt8]
    var gzip: [UInt8]?
    var brotli: [UInt8]?
  }

  /// Files by path (`/index.html`, `/page-…js`), decoded once.
  static let entries: [String: Entry] = Dictionary(
    uniqueKeysWithValues: builtFiles.map { ("/" + $0.name, entry($0)) })

  /// The service worker that caches nothing (`Public/sw.js` as it is).
  static let workerOffEntry = entry(workerOff)

  static let workerPath = "/sw.js"

  private static func entry(_ file: BuiltFile) -> Entry {
    let decode = { (base64: String) in [UInt8](Data(base64Encoded: base64) ?? Data()) }
    let type =
      ContextResources.extraMimeTypes.first { file.name.hasSuffix($0.suffix) }?.type
      ?? "application/octet-stream"
    return Entry(
      contentType: type, immutable: file.immutable, etag: file.etag,
      identity: decode(file.identity), gzip: file.gzip.map(decode),
      brotli: file.brotli.map(decode))
  }

  /// The page's files as served uncompressed: name and contents.
  public static var files: [(name: String, contents: Data)] {
    entries.sorted { $0.key < $1.key }.map { (String($0.key.dropFirst()), Data($0.value.identity)) }
  }

  static let immutableCacheControl = "public, max-age=31536000, immutable"

  /// The answer to a GET of `path`, or nil when the page has no such file. `worker` false
  /// answers `/sw.js` with the worker that caches nothing.
  static func response(
    path: String, acceptEncoding: String?, ifNoneMatch: String?, worker: Bool = true
  ) -> HTTPResponse? {
    let found =
      path == workerPath && !worker ? workerOffEntry : entries[path == "/" ? "/index.html" : path]
    guard let entry = found else { return nil }
    var headers = WebSocketServer.pageHeaders
    headers["cache-control:"] = entry.immutable ? immutableCacheControl : "no-cache"
    headers["etag:"] = entry.etag
    headers["vary:"] = "Accept-Encoding"
    if let ifNoneMatch,
      ifNoneMatch.split(separator: ",").contains(where: {
        $0.trimmingCharacters(in: .whitespaces) == entry.etag
      })
    {
      return HTTPResponse(status: 304, contentType: entry.contentType, body: [], headers: headers)
    }
    let accepted = acceptedEncodings(acceptEncoding)
    var body = entry.identity
    if let brotli = entry.brotli, accepted.contains("br") {
      body = brotli
      headers["content-encoding:"] = "br"
    } else if let gzip = entry.gzip, accepted.contains("gzip") {
      body = gzip
      headers["content-encoding:"] = "gzip"
    }
    return HTTPResponse(status: 200, contentType: entry.contentType, body: body, headers: headers)
  }

  /// The codings an `Accept-Encoding` header accepts (those not given `q=0`), lower case.
  static func acceptedEncodings(_ header: String?) -> Set<String> {
    var accepted: Set<String> = []
    for item in (header ?? "").split(separator: ",") {
      let parts = item.split(separator: ";").map {
        $0.trimmingCharacters(in: .whitespaces).lowercased()
      }
      guard let coding = parts.first, !coding.isEmpty else { continue }
      let refused = parts.dropFirst().contains {
        $0.hasPrefix("q=") && (Double($0.dropFirst(2)) ?? 1) == 0
      }
      if !refused { accepted.insert(coding) }
    }
    return accepted
  }
}
