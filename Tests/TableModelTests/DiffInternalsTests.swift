import Testing

@testable import TableModel

@Suite("The diff's fast paths agree with the slow ones")
struct DiffInternalsTests {
  @Test func rowContentComparesEveryStoredFieldOfRow() {
    let labels = Mirror(reflecting: Row(id: "a", text: "a")).children.compactMap(\.label)
    #expect(RowContent.fields.map(\.name) == labels)
  }

  @Test func rowContentSeesEveryDifference() {
    let row = Row(id: "a", text: "a")
    var changes: [Row] = []
    changes.append(with(row) { $0.style = .value1 })
    changes.append(with(row) { $0.text = "b" })
    changes.append(with(row) { $0.detail = "d" })
    changes.append(with(row) { $0.image = "i" })
    changes.append(with(row) { $0.accessory = .checkmark })
    changes.append(with(row) { $0.control = .switch(isOn: false) })
    changes.append(with(row) { $0.editingStyle = .delete })
    changes.append(with(row) { $0.isMovable = true })
    changes.append(with(row) { $0.isSelectable = false })
    let content = RowContent()
    for changed in changes {
      #expect(!isSame(content, row, changed), "\(changed)")
    }
    #expect(isSame(content, row, Row(id: "a", text: "a")))
    // Equal text in other storage: not the same bits, still the same content.
    let long = String(repeating: "long text ", count: 4)
    #expect(
      isSame(
        content, Row(id: "a", text: long), Row(id: "a", text: String(long.reversed().reversed()))))
  }

  /// The diff's speed rests on reading a small string's bytes from its own bits (how the
  /// standard library lays out `String` on 64-bit platforms). The code checks that layout
  /// once and falls back to reading bytes when it differs, so a toolchain that changes it
  /// stays correct but slow: this test says so, rather than a benchmark months later.
  @Test func smallStringsAreReadFromTheirBitsOnThisToolchain() {
    #expect(MemoryLayout<String>.size == 16)
    #expect(IDBytes.smallStringsAreInline, "String's small-string layout changed: IDBytes is slow")
  }

  @Test func idsInAnyStorageHashAndCompareByTheirBytes() {
    // The same short id as an inline small string and in heap storage.
    var heap = String(repeating: "x", count: 40)
    heap.removeLast(35)
    let small = "xxxxx"
    #expect(IDBytes.areEqual(heap, small))
    let hasher = IDBytes.Hasher()
    #expect(hasher.hash(heap) == hasher.hash(small))
    for length in 0...40 {
      let id = String((0..<length).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
      var other = id + "padding that forces heap storage"
      other.removeLast(32)
      #expect(IDBytes.areEqual(id, other))
      #expect(hasher.hash(id) == hasher.hash(other), "length \(length)")
    }
    #expect(hasher.hash("ab") != hasher.hash("ba"))
    #expect(!IDBytes.areEqual("caf\u{E9}", "cafe\u{301}"))
  }

  private func with(_ row: Row, _ change: (inout Row) -> Void) -> Row {
    var row = row
    change(&row)
    return row
  }

  private func isSame(_ content: RowContent, _ a: Row, _ b: Row) -> Bool {
    withUnsafePointer(to: a) { a in withUnsafePointer(to: b) { b in content.isSame(a, b) } }
  }
}
