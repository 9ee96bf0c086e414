import Foundation

/// Joins the page's ES modules into one module, so that the browser fetches the page's code
/// in one request instead of one per import level. No bundler: Public/'s modules keep to
/// a shape this can rewrite line by line (test_page_static.py checks the import half):
/// - `import { a, b as c } from "./x.js";` or `import * as X from "./x.js";`, one a line;
/// - `export function|async function|class|const|let NAME …` at the start of a line.
///
/// Comments that fill whole lines (`//`, `///`, and `/* … */` or `/** … */` blocks that start
/// a line: the JSDoc types `tsc` checks) and blank lines are left out of the joined module;
/// the browser never reads them, and they were a tenth of what went over the wire. Public/
/// has no string that spans lines, so a line that starts with a comment is one.
///
/// Each module becomes a function called once, in dependency order, that returns its
/// exports; an import becomes a `const` read from the module it names. Exports are read
/// once, so no module may reassign an exported `let` after its first run (none does).
struct ModuleAssembler {
  /// Module name ("table.js") → source.
  let sources: [String: String]

  func assemble(entry: String) throws -> String {
    var order: [String] = []
    var visiting: Set<String> = []
    try visit(entry, &order, &visiting, from: entry)
    var output = "// The page's modules (Public/), joined by the EmbedPage plugin: do not edit.\n"
    for name in order {
      output += try rewrite(name)
    }
    return output
  }

  private func visit(
    _ name: String, _ order: inout [String], _ visiting: inout Set<String>, from: String
  ) throws {
    if order.contains(name) { return }
    guard sources[name] != nil else {
      throw EmbedError("\(from) imports \(name), which Public/ does not have")
    }
    guard visiting.insert(name).inserted else {
      throw EmbedError("an import cycle goes through \(name)")
    }
    for line in lines(of: name) {
      if let spec = try parseImport(line, in: name)?.module {
        try visit(spec, &order, &visiting, from: name)
      }
    }
    visiting.remove(name)
    order.append(name)
  }

  private func lines(of name: String) -> [Substring] {
    sources[name]!.split(separator: "\n", omittingEmptySubsequences: false)
  }

  static func variable(for name: String) -> String {
    "tw$" + String(name.dropLast(3).map { $0.isLetter || $0.isNumber ? $0 : "_" })
  }

  /// `lines` without the comments that fill whole lines and without blank lines; what
  /// follows a block comment's end on its last line stays.
  static func code(_ lines: [Substring]) -> [Substring] {
    var code: [Substring] = []
    var inBlock = false
    for line in lines {
      var rest = line.drop { $0 == " " || $0 == "\t" }
      if inBlock || rest.hasPrefix("/*") {
        guard let end = rest.range(of: "*/") else {
          inBlock = true
          continue
        }
        inBlock = false
        rest = rest[end.upperBound...].drop { $0 == " " || $0 == "\t" }
        if !rest.isEmpty { code.append(rest) }
        continue
      }
      if rest.isEmpty || rest.hasPrefix("//") { continue }
      code.append(line)
    }
    return code
  }

  private func rewrite(_ name: String) throws -> String {
    var body = ""
    var exports: [String] = []
    for line in Self.code(lines(of: name)) {
      if let (binding, module) = try parseImport(line, in: name) {
        body += "const \(binding) = \(Self.variable(for: module));\n"
      } else if line.hasPrefix("export ") {
        let declaration = line.dropFirst("export ".count)
        guard let exported = exportedName(declaration) else {
          throw EmbedError("\(name): cannot join this export: \(line)")
        }
        exports.append(exported)
        body += declaration + "\n"
      } else {
        body += line + "\n"
      }
    }
    return
      "const \(Self.variable(for: name)) = (() => {\n\(body)return { \(exports.joined(separator: ", ")) };\n})();\n"
  }

  /// The binding (`{ a, b: c }` or `X`) and module of an import line; nil for other lines.
  private func parseImport(_ line: Substring, in name: String) throws -> (
    binding: String, module: String
  )? {
    guard line.hasPrefix("import ") else { return nil }
    guard let match = line.wholeMatch(of: /import (.+) from "\.\/([\w.-]+\.js)";\s*(\/\/.*)?/)
    else {
      throw EmbedError("\(name): cannot join this import: \(line)")
    }
    let clause = match.1.trimmingCharacters(in: .whitespaces)
    if let star = clause.wholeMatch(of: /\* as (\w+)/) {
      return (String(star.1), String(match.2))
    }
    guard clause.hasPrefix("{"), clause.hasSuffix("}") else {
      throw EmbedError("\(name): cannot join this import: \(line)")
    }
    let names = clause.dropFirst().dropLast().split(separator: ",").map { item -> String in
      let parts = item.split(separator: " ", omittingEmptySubsequences: true)
      return parts.count == 3 && parts[1] == "as" ? "\(parts[0]): \(parts[2])" : parts.joined()
    }
    return ("{ \(names.joined(separator: ", ")) }", String(match.2))
  }

  private func exportedName(_ declaration: Substring) -> String? {
    guard
      let match = declaration.prefixMatch(
        of: /(?:async function\*?|function\*?|class|const|let) +([\w$]+)/)
    else { return nil }
    return String(match.1)
  }
}
