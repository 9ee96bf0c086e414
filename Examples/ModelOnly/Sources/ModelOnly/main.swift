// Uses TableModel without Foundation: parses JSON with numbers (the parser rounds with
// libm), builds two snapshots and diffs them. Prints what it found; exits 1 if wrong.
import TableModel

let value = try JSONValue(parsing: #"{"rows": 3, "ratio": 2.5e3, "title": "Groceries"}"#)
let before = TableSnapshot(
  list: "groceries", version: 1, title: "Groceries",
  sections: [Section(id: "s", rows: [Row(id: "a", text: "Milk"), Row(id: "b", text: "Bread")])])
var after = before
after.version = 2
after.sections[0].rows.swapAt(0, 1)
print("parsed: \(value.serialized)")
let ops = try TableDiff.ops(from: before.sections, to: after.sections)
print("diff: \(ops.count) op(s)")
if ops.isEmpty { fatalError("swapping two rows should give a diff") }
