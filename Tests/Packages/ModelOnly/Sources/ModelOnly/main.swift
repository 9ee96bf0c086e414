import TableModel

// Diffs two lists and prints the ops as the wire would carry them.
let old = [Section(id: "S", rows: [Row(id: "a", text: "A"), Row(id: "b", text: "B")])]
let new = [Section(id: "S", rows: [Row(id: "b", text: "B"), Row(id: "c", text: "C")])]
let diff = try TableDiff(list: "L", from: 1, old: old, new: new)
print(ServerMessage.diff(diff).serialized)
