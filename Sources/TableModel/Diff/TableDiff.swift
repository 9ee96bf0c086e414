/// A change to one list: the ops that take it from version `from` to `from + 1`.
public struct TableDiff: Sendable, Hashable {
  public var list: String
  public var from: Int
  public var ops: [DiffOp]

  public var to: Int { from + 1 }

  public init(list: String, from: Int, ops: [DiffOp]) {
    self.list = list
    self.from = from
    self.ops = ops
  }

  public var isEmpty: Bool { ops.isEmpty }
}
