import Testing

@testable import TableModel

// A compact notation for sections, so that a test reads like the tables it diffs:
// `"A: a b' c"` is section `A` with rows `a`, `b` and `c`. A row's id is its token without
// trailing apostrophes and its text is the whole token, so `b'` is row `b` with new content.
// `"A(h): …"` gives the section the header `h`.

func sections(_ specs: String...) -> [Section] { sections(specs) }

func sections(_ specs: [String]) -> [Section] {
  specs.map { spec in
    let (name, rowList) = spec.split(separator: ":", maxSplits: 1).map(String.init).pair
    var id = name.trimmingSpaces
    var header: String?
    if let open = id.firstIndex(of: "("), id.hasSuffix(")") {
      header = String(id[id.index(after: open)..<id.index(before: id.endIndex)])
      id = String(id[..<open])
    }
    let rows = rowList.split(separator: " ").map { token in
      Row(id: String(token.prefix { $0 != "'" }), text: String(token))
    }
    return Section(id: id, header: header, rows: rows)
  }
}

/// Sections written back in the notation of ``sections(_:)``, for failure messages.
func notation(_ sections: [Section]) -> String {
  sections.map { section in
    let header = section.header.map { "(\($0))" } ?? ""
    let rows = section.rows.map { row in
      row.text.prefix { $0 != "'" } == row.id ? row.text : "\(row.id)=\(row.text)"
    }
    return "\(section.id)\(header): " + rows.joined(separator: " ")
  }.joined(separator: " | ")
}

/// The ops from `old` to `new`, as the protocol names them; checks on the way that they
/// take `old` to `new`.
func diff(_ old: [Section], _ new: [Section], sourceLocation: SourceLocation = #_sourceLocation)
  throws -> [String]
{
  let ops = try TableDiff.ops(from: old, to: new)
  let applied = try TableDiff.apply(ops, to: old)
  let isNew = applied == new
  #expect(
    isNew, "applying \(ops) to \(notation(old)) gives \(notation(applied))",
    sourceLocation: sourceLocation)
  return ops.map(\.description)
}

extension Array where Element == String {
  fileprivate var pair: (String, String) { (self[0], count > 1 ? self[1] : "") }
}

extension String {
  fileprivate var trimmingSpaces: String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}

extension TableDiff {
  /// `sections` after `ops`, applied as protocol-core says: deleted sections and every
  /// deleted or moved row are removed at their old positions, then inserted sections and
  /// every inserted or moved row are placed at their new positions, lowest first, then
  /// updates are applied at new positions. `apply(ops(from: a, to: b), to: a) == b`.
  ///
  /// The one applier, over sections whose prefix is the whole section.
  static func apply(_ ops: [DiffOp], to sections: [Section]) throws(DiffError) -> [Section] {
    var applier = DiffApplier(ops: ops, sections: sections.map { LoadedSection($0) })
    return try applier.apply().map { loaded in
      precondition(loaded.isComplete, "section \(loaded.id) lost rows it had")
      return Section(id: loaded.id, header: loaded.header, footer: loaded.footer, rows: loaded.rows)
    }
  }
}
