import Foundation

// Builds the page for the EmbedPage plugin: `PageEmbedder OUTPUT FILE...` (the files of
// Public/) writes a Swift file holding what the server serves, compressed once here:
// - `index.html`, its boot script inlined (its hash goes into the page's CSP) and its
//   code and style named by content (`page-HASH.js`, `style-HASH.css`), which browsers
//   may keep for good;
// - those two files, the modules joined into one (ModuleAssembler);
// - `sw.js`, the service worker, told this build's hash and files (its unfilled form in
//   Public/, which caches nothing, is kept as `workerOff`);
// - every file of Public/ under its own name, as on disk (tests and people read them).
// Each with gzip and brotli forms where they are smaller.
let arguments = Array(CommandLine.arguments.dropFirst())
guard let output = arguments.first else {
  FileHandle.standardError.write(Data("usage: PageEmbedder OUTPUT FILE...\n".utf8))
  exit(64)
}

struct Asset {
  var name: String
  var bytes: [UInt8]
  var immutable: Bool
}

func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

func replacing(_ old: String, with new: String, in html: String) throws -> String {
  guard html.contains(old) else { throw EmbedError("Public/ has no \(old)") }
  return html.replacingOccurrences(of: old, with: new)
}

func build(_ paths: [String]) throws -> (assets: [Asset], workerOff: Asset, scriptHashes: [String])
{
  var files: [String: [UInt8]] = [:]
  for path in paths {
    let url = URL(fileURLWithPath: path)
    files[url.lastPathComponent] = Array(try Data(contentsOf: url))
  }
  guard let html = files["index.html"], let css = files["style.css"], let boot = files["boot.js"],
    let worker = files["sw.js"]
  else { throw EmbedError("Public/ needs index.html, style.css, boot.js and sw.js") }
  let modules = files.filter { $0.key.hasSuffix(".js") }.mapValues(text)
  let code = Array(try ModuleAssembler(sources: modules).assemble(entry: "main.js").utf8)

  let named = { (stem: String, ext: String, bytes: [UInt8]) in
    "\(stem)-\(Compression.hex(Compression.sha256(bytes)).prefix(12)).\(ext)"
  }
  let codeName = named("page", "js", code)
  let styleName = named("style", "css", css)
  var page = text(html)
  page = try replacing(
    #"<link rel="stylesheet" href="style.css">"#,
    with: #"<link rel="stylesheet" href="\#(styleName)">"#, in: page)
  page = try replacing(
    #"<script type="module" src="main.js"></script>"#,
    with: #"<script type="module" src="\#(codeName)"></script>"#, in: page)
  let inline = text(boot)
  page = try replacing(
    #"<script src="boot.js"></script>"#, with: "<script>\(inline)</script>", in: page)
  let scriptHash = "'sha256-\(Data(Compression.sha256(Array(inline.utf8))).base64EncodedString())'"

  let pageBytes = Array(page.utf8)
  let builtWorker = try builtServiceWorker(
    text(worker), build: Compression.hex(Compression.sha256(pageBytes)).prefix(12),
    htmlETag: etag(pageBytes), assets: [codeName, styleName])

  var assets = [
    Asset(name: "index.html", bytes: pageBytes, immutable: false),
    Asset(name: codeName, bytes: code, immutable: true),
    Asset(name: styleName, bytes: css, immutable: true),
    Asset(name: "sw.js", bytes: Array(builtWorker.utf8), immutable: false),
  ]
  for (name, bytes) in files.sorted(by: { $0.key < $1.key })
  where name != "index.html" && name != "sw.js" {
    assets.append(Asset(name: name, bytes: bytes, immutable: false))
  }
  return (assets, Asset(name: "sw.js", bytes: worker, immutable: false), [scriptHash])
}

/// `sw.js` told which build it caches: its `BUILD` and `FILES` lines filled in.
func builtServiceWorker(
  _ template: String, build: Substring, htmlETag: String, assets: [String]
) throws -> String {
  let json = { (value: String) in "\"" + value.replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
  var worker = try replacing(
    "const BUILD = null;\n", with: "const BUILD = \(json(String(build)));\n", in: template)
  worker = try replacing(
    "const FILES = { html: null, assets: [] };\n",
    with:
      "const FILES = { html: \(json(htmlETag)), assets: [\(assets.map(json).joined(separator: ", "))] };\n",
    in: worker)
  return worker
}

/// The `ETag` a file is served with: its content hash, quoted.
func etag(_ bytes: [UInt8]) -> String {
  "\"\(Compression.hex(Compression.sha256(bytes)).prefix(20))\""
}

func literal(_ bytes: [UInt8]?) -> String {
  bytes.map { "\"\(Data($0).base64EncodedString())\"" } ?? "nil"
}

/// A `BuiltFile(…)` expression for `asset`, with its gzip and brotli forms where smaller.
func builtFile(_ asset: Asset) throws -> String {
  let gzip = try Compression.gzip(asset.bytes)
  let brotli = try Compression.brotli(asset.bytes)
  return """
    BuiltFile(
          name: "\(asset.name)", immutable: \(asset.immutable),
          etag: "\(etag(asset.bytes).replacingOccurrences(of: "\"", with: "\\\""))",
          identity: \(literal(asset.bytes)),
          gzip: \(literal(gzip.count < asset.bytes.count ? gzip : nil)),
          brotli: \(literal(brotli.count < asset.bytes.count ? brotli : nil)))
    """
}

do {
  let (assets, workerOff, scriptHashes) = try build(Array(arguments.dropFirst()))
  var source = """
    // Generated by the EmbedPage plugin from Public/: do not edit.
    extension EmbeddedPage {
      static let inlineScriptHashes: [String] = [\(scriptHashes.map { "\"\($0)\"" }.joined(separator: ", "))]
      static let workerOff = \(try builtFile(workerOff))
      static let builtFiles: [BuiltFile] = [

    """
  for asset in assets {
    source += "    \(try builtFile(asset)),\n"
  }
  source += "  ]\n}\n"
  try Data(source.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
} catch {
  FileHandle.standardError.write(Data("PageEmbedder: \(error)\n".utf8))
  exit(1)
}
